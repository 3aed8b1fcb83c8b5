"""Edit the tenant: its name and its two token settings."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Input, Static, Switch

from console.models import Tenant, TenantUpdate
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.fields import FormField

SETTINGS = {
    "fingerprint_tokens": "Apply the default fingerprint expression when a token has none.",
    "deduplicate_tokens": "Deduplicate tokens on creation and update.",
}


class TenantForm(ResourceForm[Tenant]):
    noun = "tenant"
    field_labels: ClassVar[dict[str, str]] = {"name": "Name", "settings": "Settings"}

    DEFAULT_CSS = """
    TenantForm > #form-frame {
        height: auto;
        max-height: 100%;
    }
    TenantForm #form-body {
        height: auto;
    }
    TenantForm .setting-row {
        height: auto;
    }
    TenantForm .setting-row Static {
        padding: 1 1;
        width: 1fr;
    }
    """

    def compose_fields(self) -> ComposeResult:
        tenant = self.obj
        yield FormField("Name", Input(tenant.name if tenant else "", id="name"), path="name")
        for setting, description in SETTINGS.items():
            value = getattr(tenant.settings, setting) == "true" if tenant else True
            yield FormField(
                setting.replace("_", " ").capitalize(),
                Horizontal(
                    Switch(value, id=setting.replace("_", "-")),
                    Static(description),
                    classes="setting-row",
                ),
                path=f"settings.{setting}",
            )

    def build_payload(self) -> tuple[dict[str, Any], FieldErrors]:
        settings = {
            setting: "true"
            if self.query_one(f"#{setting.replace('_', '-')}", Switch).value
            else "false"
            for setting in SETTINGS
        }
        return {"name": self.query_one("#name", Input).value, "settings": settings}, {}

    def validate(self, payload: dict[str, Any]) -> Any:
        return TenantUpdate.parse(payload)

    def payload_of(self, obj: Tenant) -> dict[str, Any]:
        return {"name": obj.name, "settings": obj.settings.model_dump()}

    async def send(self, model: Any) -> Tenant:
        return await self.client.tenant.update(model)

    async def fetch_current(self) -> Tenant:
        return await self.client.tenant.get()
