"""Create or edit a webhook: its name, the URL the service sends to (checked as typed), the
email the service notifies about it, and the event types it receives, chosen from the
service's list with a filter (console.tui.forms.event_types).

Its status is not edited here: `t` enables or disables it (console.tui.actions.webhook_flows);
an edit sends it back as it is. After a create, the public key deliveries are verified with
is shown once (console.tui.modals.verification_key): the service has no per-webhook secret.
"""

from __future__ import annotations

import logging
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.widgets import Input

from console.models.webhooks import (
    EVENT_TYPES,
    MAX_WEBHOOKS,
    STATUSES,
    Webhook,
    WebhookCreate,
    WebhookUpdate,
    webhook_url_problem,
)
from console.tui.base.dialog_host import dialog_host
from console.tui.base.shown import JsonObject
from console.tui.browse.webhooks_look import WEBHOOKS, event_types, verification_key
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.event_types import EventTypeChecklist
from console.tui.forms.fields import FormField

log = logging.getLogger("console.tui")


class WebhookForm(ResourceForm[Webhook, WebhookCreate | WebhookUpdate]):
    kind = WEBHOOKS
    field_labels: ClassVar[dict[str, str]] = {
        "name": "Name",
        "url": "URL",
        "notify_email": "Notify email",
        "events": "Events",
    }
    stand_ins: ClassVar[dict[str, object]] = {
        "name": "a name",
        "url": "https://example.com/webhooks",
        "events": ["application.created"],
    }
    trimmed_inputs: ClassVar[tuple[str, ...]] = ("name", "url")

    def compose_fields(self) -> ComposeResult:
        webhook = self.obj
        yield self._text_field("Name", "name", placeholder="e.g. Audit feed", id="name")
        yield self._text_field(
            "URL",
            "url",
            placeholder="https://example.com/webhooks",
            id="url",
            hint="Where the service POSTs each event (https://, or http:// for a local receiver).",
        )
        yield self._text_field(
            "Notify email (optional)",
            "notify_email",
            placeholder="who the service tells when it disables this webhook",
            id="notify-email",
        )
        yield FormField(
            "Events",
            EventTypeChecklist(webhook.events if webhook else (), id="events"),
            path="events",
            hint=f"At least one. A tenant has at most {MAX_WEBHOOKS} webhooks.",
        )

    def _text_field(
        self, label: str, path: str, *, placeholder: str, id: str, hint: str | None = None
    ) -> FormField:
        """A one-line input for the webhook's attribute `path`: its value on an edit, empty
        on a create (the three text fields differ only in their words)."""
        value = getattr(self.obj, path, None) or ""
        return FormField(label, Input(value, placeholder=placeholder, id=id), path=path, hint=hint)

    # ----- the URL, checked as typed -----------------------------------------------------

    @on(Input.Changed, "#url")
    def _url_typed(self, event: Input.Changed) -> None:
        """The URL's problem at its field as it is typed (none while it is empty: the
        save says a URL is needed)."""
        value = event.value.strip()
        problem = webhook_url_problem(value) if value else None
        field = self.fields_by_path().get("url")
        if field is not None:
            field.show_errors([problem] if problem else [])

    @property
    def url_error(self) -> str:
        field = self.fields_by_path().get("url")
        return field.errors if field is not None else ""

    # ----- the event types -----------------------------------------------------------------

    def start_loading(self) -> None:
        self._load_event_types()

    @on(EventTypeChecklist.Retry)
    def _retry(self) -> None:
        self._load_event_types()

    @work(exclusive=True, group="event-types", exit_on_error=False)
    async def _load_event_types(self) -> None:
        """The service's list; on a failure, said in place, the console's own list to choose
        from meanwhile (what was typed elsewhere stays as it is)."""
        checklist = self.query_one("#events", EventTypeChecklist)
        checklist.show_loading()
        try:
            types = await event_types(self.client)
        except Exception as error:
            log.warning("The webhook event types could not be read", exc_info=True)
            checklist.set_event_types(list(EVENT_TYPES), failure=str(error))
            return
        checklist.set_event_types(types)

    # ----- payload -------------------------------------------------------------------------

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        email = self.query_one("#notify-email", Input).value.strip()
        payload: JsonObject = {
            "name": self.query_one("#name", Input).value,
            "url": self.query_one("#url", Input).value.strip(),
            "notify_email": email or None,
            "events": self.query_one("#events", EventTypeChecklist).selected,
        }
        if self.obj is not None and self.obj.status in STATUSES:
            payload["status"] = self.obj.status  # kept as it is: `t` changes it
        return payload, {}

    def form_state(self) -> JsonObject:
        payload, _ = self.build_payload()
        payload["events"] = sorted(payload["events"])
        return payload

    def validate(self, payload: JsonObject) -> WebhookCreate | WebhookUpdate:
        if self.obj is None:
            return WebhookCreate.parse(payload)
        return WebhookUpdate.parse(payload)

    def wire_body(self, model: WebhookCreate | WebhookUpdate) -> JsonObject:
        """As every form's; a status the console does not know is left out (it stays)."""
        body = super().wire_body(model)
        if body.get("status") is None:
            body.pop("status", None)
        return body

    def payload_of(self, obj: Webhook) -> JsonObject:
        payload: JsonObject = {
            "name": obj.name or "",
            "url": obj.url or "",
            "notify_email": obj.notify_email or None,
            "events": list(obj.events),
        }
        if obj.status in STATUSES:
            payload["status"] = obj.status
        return payload

    # ----- saving --------------------------------------------------------------------------

    async def send(self, body: JsonObject) -> Webhook:
        if self.obj is None:
            return await self.client.webhooks.create(body)
        return await self.client.webhooks.update(self.obj.id, body)

    async def fetch_current(self) -> Webhook:
        assert self.obj is not None, "only an edit re-reads its object"
        return await self.client.webhooks.get(self.obj.id)

    async def after_saved(self, result: Webhook) -> None:
        """A new webhook: the public key its deliveries verify with, shown once here (the
        detail shows it too); a key that cannot be read is said, the webhook is saved."""
        if self.obj is not None:
            return
        from console.tui.modals.verification_key import VerificationKeyModal

        try:
            key = await verification_key(self.client)
        except Exception as error:
            log.warning("The webhooks' verification key could not be read", exc_info=True)
            self.notify(
                f"Saved, but the public key deliveries verify with could not be read: {error}. "
                "The webhook's detail shows it once it can be.",
                severity="warning",
                timeout=10,
            )
            return
        await dialog_host(self).ask(VerificationKeyModal(key, result.name or result.id))
