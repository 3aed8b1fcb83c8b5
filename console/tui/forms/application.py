"""Create or edit an Application: name, type, permissions, access rules and expiry."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Input, Select, Static

from console import clock
from console.models import (
    APPLICATION_TYPES,
    Application,
    ApplicationCreate,
    ApplicationUpdate,
    Catalogue,
    permissions_for,
)
from console.models.round_trip import keep_item_fields
from console.tui.base.dialog_host import dialog_host
from console.tui.base.formatting import local_time, parse_local_time
from console.tui.base.shown import JsonObject
from console.tui.browse.kinds import APPLICATIONS
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.fields import FormField
from console.tui.forms.permissions import PermissionChecklist
from console.tui.forms.rules import RulesEditor
from console.tui.modals import KeyRevealModal

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models import Permission

log = logging.getLogger("console.tui")

TYPE_LABELS = {
    "private": "private: backend services that keep the key secret",
    "public": "public: browser or mobile apps collecting data",
    "management": "management: administering the tenant",
}


EXPIRY_PRESETS = (7, 30, 90)
"""Days from now offered beside the expiry date."""


class ApplicationForm(ResourceForm[Application, ApplicationCreate | ApplicationUpdate]):
    """The type is chosen once, on create; permissions offered follow the type."""

    kind = APPLICATIONS
    field_labels: ClassVar[dict[str, str]] = {
        "name": "Name",
        "permissions": "Permissions",
        "rules": "Access rules",
    }

    def __init__(
        self,
        client: AdminClient,
        obj: Application | None = None,
        *,
        read_only: bool = False,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(client, obj, read_only=read_only, name=name, id=id)
        self._permission_cache: dict[str, list[Permission]] = {}
        self.catalogue: Catalogue | None = None
        """The service's own permission catalogue (type -> application types), once loaded;
        None until then, or if it could not be read (the built-in one is used then)."""

    @property
    def held(self) -> set[str]:
        """Permissions the application holds already: kept on save even where the service's
        catalogue does not list them (the service granted them; the console only keeps them)."""
        return self.obj.held_permissions if self.obj is not None else set()

    @property
    def application_type(self) -> str:
        if self.obj is not None:
            return self.obj.type
        if not self.is_mounted:
            return "private"
        value = self.query_one("#type", Select).value
        return "private" if value is Select.NULL else str(value)

    def compose_fields(self) -> ComposeResult:
        app = self.obj
        yield FormField(
            "Name",
            Input(app.name if app else "", placeholder="e.g. Checkout backend", id="name"),
            path="name",
        )
        if app is None:
            yield FormField(
                "Type",
                Select(
                    [(TYPE_LABELS[t], t) for t in APPLICATION_TYPES],
                    value="private",
                    allow_blank=False,
                    id="type",
                ),
                path="type",
                hint="The type cannot be changed later.",
            )
        else:
            yield FormField(
                "Type",
                Static(TYPE_LABELS.get(app.type, app.type), classes="readonly-value", markup=False),
                path="type",
            )
        yield FormField(
            "Permissions",
            PermissionChecklist(app.permissions if app else [], id="permissions"),
            path="permissions",
            hint="Grant the least the application needs. Permissions or rules: at least one.",
        )
        yield FormField(
            "Access rules",
            RulesEditor(
                [r.model_dump(mode="json") for r in app.rules] if app else [],
                read_only=self.read_only,
            ),
            path="rules",
        )
        if app is None:
            yield FormField(
                "Expires at (optional)",
                Horizontal(
                    Input(placeholder="2026-12-31 17:00 (local time)", id="expires-at"),
                    *(
                        Button(f"+{days} days", id=f"expires-in-{days}", classes="expiry-preset")
                        for days in EXPIRY_PRESETS
                    ),
                    classes="expiry-row",
                ),
                path="expires_at",
                hint="The application and its key are deleted at this time.",
            )
        else:
            yield FormField(
                "Expires at",
                Static(
                    local_time(app.expires_at, missing="never"),
                    classes="readonly-value",
                    markup=False,
                ),
                path="expires_at",
                hint="Set only when the application is created.",
            )

    @on(Button.Pressed, ".expiry-preset")
    def _expiry_preset(self, event: Button.Pressed) -> None:
        """Sets the expiry to now plus 7, 30 or 90 days, to the minute, in local time."""
        event.stop()
        days = int(str(event.button.id).rsplit("-", 1)[1])
        moment = clock.now() + timedelta(days=days)
        self.query_one("#expires-at", Input).value = local_time(moment, zone=False)

    # ----- permission lists --------------------------------------------------------------

    def start_loading(self) -> None:
        self._load_permissions(self.application_type)

    @on(Select.Changed, "#type")
    def _type_changed(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL and self.is_mounted:
            self._load_permissions(str(event.value))

    @work(exclusive=True, group="permissions", exit_on_error=False)
    async def _load_permissions(self, application_type: str) -> None:
        """Fills every checklist with the permissions this type may hold."""
        checklist = self.query_one("#permissions", PermissionChecklist)
        rules = self.query_one(RulesEditor)
        note = None
        permissions = self._permission_cache.get(application_type)
        if permissions is None:
            checklist.show_loading()
            rules.show_options_loading()
            try:
                if self.catalogue is None:
                    every = await self.client.permissions.list()
                    self.catalogue = {p.type: p.application_types for p in every}
                permissions = await self.client.permissions.list(application_type=application_type)
            except Exception as error:  # the built-in catalogue: the specification's list
                log.warning("The permission catalogue could not be read", exc_info=True)
                permissions = permissions_for(application_type)
                note = f"Could not load the list from the service ({error}); built-in list shown."
            else:
                self._permission_cache[application_type] = permissions
        if application_type != self.application_type:
            return  # the type changed again meanwhile; that load fills the lists
        held = self.held
        extras = checklist.set_permissions(
            permissions, note=note, application_type=application_type, held=held
        )
        extras += rules.set_permission_options(permissions, note, application_type, held)
        if extras:
            self.notify(
                f"Not allowed for {application_type} applications: "
                f"{', '.join(dict.fromkeys(extras))}. Untick them before saving.",
                severity="warning",
            )

    @on(RulesEditor.Changed)
    def _rules_changed(self) -> None:
        self.refresh_dirty()

    # ----- payload ---------------------------------------------------------------------------

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        errors: FieldErrors = {}
        payload: JsonObject = {
            "name": self.query_one("#name", Input).value,
            "permissions": self.query_one("#permissions", PermissionChecklist).selected,
            "rules": self.query_one(RulesEditor).value(),
        }
        if self.obj is None:
            payload["type"] = self.application_type
            try:
                expires_at = parse_local_time(self.query_one("#expires-at", Input).value)
            except ValueError as error:
                errors["expires_at"] = [str(error)]
            else:
                if expires_at is not None:
                    payload["expires_at"] = expires_at.isoformat()
        return payload, errors

    def validate(self, payload: JsonObject) -> ApplicationCreate | ApplicationUpdate:
        if self.obj is None:
            return ApplicationCreate.parse(payload, catalogue=self.catalogue)
        return ApplicationUpdate.parse(
            payload,
            application_type=self.obj.type,
            catalogue=self.catalogue,
            held=self.held,
            held_transforms={r.transform for r in self.obj.rules},
        )

    def wire_body(self, model: ApplicationCreate | ApplicationUpdate) -> JsonObject:
        """As every form's, and the unknown fields of each access rule, matched by priority."""
        body = super().wire_body(model)
        if self.obj is not None:
            body["rules"] = keep_item_fields(body.get("rules") or [], self.obj.rules, "priority")
        return body

    def payload_of(self, obj: Application) -> JsonObject:
        return {
            "name": obj.name,
            "permissions": list(obj.permissions),
            "rules": [
                {
                    "description": r.description,
                    "priority": r.priority,
                    "container": r.container,
                    "transform": r.transform,
                    "permissions": list(r.permissions),
                }
                # A rule the service sent without a priority sorts last instead of failing.
                for r in sorted(obj.rules, key=lambda r: (r.priority is None, r.priority or 0))
            ],
        }

    def form_state(self) -> JsonObject:
        payload, _ = self.build_payload()
        payload["expires_text"] = (
            self.query_one("#expires-at", Input).value if self.obj is None else None
        )
        payload.pop("expires_at", None)
        payload["permissions"] = sorted(payload["permissions"])
        for rule in payload["rules"]:
            rule["permissions"] = sorted(rule["permissions"])
        return payload

    # ----- saving ------------------------------------------------------------------------------

    async def send(self, body: JsonObject) -> Application:
        if self.obj is None:
            return await self.client.applications.create(body)
        return await self.client.applications.update(self.obj.id, body)

    async def fetch_current(self) -> Application:
        assert self.obj is not None, "only an edit re-reads its object"
        return await self.client.applications.get(self.obj.id)

    async def confirm_send(self, model: ApplicationCreate | ApplicationUpdate) -> bool:
        """Grants beyond the console's own key are allowed by the service: ask first."""
        from console.tui.browse.grants import grant_note
        from console.tui.modals import ConfirmModal

        name = model.name
        note = await grant_note(
            self.client,
            model.permissions,
            already=self.obj.permissions if self.obj is not None else (),
            subject=f'The key of "{name}"',
        )
        if note is None:
            return True
        confirmed = await dialog_host(self).ask(
            ConfirmModal(
                "Grant more than this console's key holds?",
                f'Saving gives "{name}" permissions that the key this console uses lacks. '
                "Whoever holds its key can then do more than you can with yours.",
                confirm_label="Save anyway",
                cancel_label="Keep editing",
                warning=note,
            )
        )
        if not confirmed:
            self.notify("Not saved: untick the permissions your key lacks, or save anyway.")
        return bool(confirmed)

    async def after_saved(self, result: Application) -> None:
        if self.obj is None and result.key:
            await dialog_host(self).ask(KeyRevealModal(result.key, result.name))
