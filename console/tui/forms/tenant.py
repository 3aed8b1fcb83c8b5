"""Edit the tenant: its name and its two token settings; other settings are kept as read."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static, Switch

from console.models import Tenant, TenantUpdate
from console.tui.base.shown import JsonObject
from console.tui.browse.kinds import TENANT
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.fields import FormField
from console.tui.widgets.tenant_view import settings_text
from console.tui.widgets.toggles import TextSwitch

SETTINGS = {
    "fingerprint_tokens": "Apply the default fingerprint expression when a token has none.",
    "deduplicate_tokens": "Deduplicate tokens on creation and update.",
}


class TenantForm(ResourceForm[Tenant, TenantUpdate]):
    kind = TENANT
    field_labels: ClassVar[dict[str, str]] = {"name": "Name", "settings": "Settings"}

    @property
    def kept_settings(self) -> dict[str, str]:
        """Settings this form does not edit, as read, sent back unchanged: other names, and a
        named one holding something other than "true"/"false". Nulls carry nothing to keep."""
        settings = self.obj.settings if self.obj is not None else {}
        return {
            name: value
            for name, value in settings.items()
            if isinstance(value, str) and not (name in SETTINGS and value in ("true", "false"))
        }

    def compose_fields(self) -> ComposeResult:
        tenant = self.obj
        yield FormField("Name", Input(tenant.name if tenant else "", id="name"), path="name")
        kept = self.kept_settings
        for setting, description in SETTINGS.items():
            if setting in kept:
                continue  # not a boolean here: shown with the others, kept as it is
            value = tenant.setting(setting) != "false" if tenant else True
            yield FormField(
                setting.replace("_", " ").capitalize(),
                Horizontal(
                    TextSwitch(value, id=setting.replace("_", "-")),
                    Static(description),
                    classes="setting-row",
                ),
                path=f"settings.{setting}",
            )
        if kept:
            yield FormField(
                "Other settings (kept as they are)",
                Static(
                    settings_text(kept, skip_named=False),
                    classes="readonly-value",
                    id="other-settings",
                ),
                path="settings",
                hint="This service has more settings than the console edits; saving keeps them.",
            )

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        kept = self.kept_settings
        settings = dict(kept)
        for setting in SETTINGS:
            if setting not in kept:
                switch = self.query_one(f"#{setting.replace('_', '-')}", Switch)
                settings[setting] = "true" if switch.value else "false"
        return {"name": self.query_one("#name", Input).value, "settings": settings}, {}

    def validate(self, payload: JsonObject) -> TenantUpdate:
        return TenantUpdate.parse(payload, kept_settings=self.kept_settings)

    def payload_of(self, obj: Tenant) -> JsonObject:
        settings = {k: v for k, v in obj.settings.items() if isinstance(v, str)}
        return {"name": obj.name, "settings": settings}

    async def send(self, body: JsonObject) -> Tenant:
        return await self.client.tenant.update(body)

    async def fetch_current(self) -> Tenant:
        return await self.client.tenant.get()
