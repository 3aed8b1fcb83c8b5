"""The Tenant section: the tenant's fields and settings, read-only (editing is issue 6)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from console.clock import now
from console.models.tenants import NAMED_SETTINGS
from console.tui.base import formatting as fmt
from console.tui.base.app_access import session_host
from console.tui.base.clock_ticks import follow_clock
from console.tui.base.problems import describe
from console.tui.browse.kinds import (
    TENANT,
    Labels,
    Renderable,
    application_names,
    audit_ids,
    named_id,
    unknown_fields,
)
from console.tui.widgets.fields_view import FieldsView
from console.tui.widgets.key_scroll import KeyScroll
from console.tui.widgets.section_loader import SectionLoader
from console.tui.widgets.section_messages import SectionFailed, StatusChanged
from console.tui.widgets.state_panel import StatePanel

if TYPE_CHECKING:
    from console.models import Tenant

log = logging.getLogger(__name__)


def setting_text(value: object) -> Renderable:
    """A setting as shown: on/off for the boolean strings, anything else as sent."""
    if value == "true":
        return Text("on", style="bold green")
    if value == "false":
        return Text("off", style="dim")
    if value is None:
        return Text("not set", style="dim")
    return Text(str(value))


def settings_text(settings: Mapping[str, object], *, skip_named: bool = True) -> Renderable:
    """Settings one per line, by default those the specification does not name (shown,
    never dropped)."""
    text = Text()
    for name, value in sorted(settings.items()):
        if skip_named and name in NAMED_SETTINGS:
            continue
        if text:
            text.append("\n")
        text.append(f"{name} = ", style="bold")
        text.append(setting_text(value))
    return text or Text("none", style="dim")


def tenant_fields(
    tenant: Tenant, usage: str | None = None, labels: Labels | None = None
) -> list[tuple[str, Renderable]]:
    fields: list[tuple[str, Renderable]] = [
        ("Id", str(tenant.id)),
        ("Name", tenant.name),
        ("Owner", str(tenant.owner_id or "—")),
        ("Fingerprint tokens", setting_text(tenant.setting("fingerprint_tokens"))),
        ("Deduplicate tokens", setting_text(tenant.setting("deduplicate_tokens"))),
        ("Other settings", settings_text(tenant.settings)),
        *unknown_fields(tenant),
        ("Created", fmt.when(tenant.created_at)),
        ("Created by", named_id(tenant.created_by, labels)),
        ("Modified", fmt.when(tenant.modified_at)),
        ("Modified by", named_id(tenant.modified_by, labels)),
    ]
    if usage:
        fields.append(("Usage", usage))
    return fields


class TenantView(KeyScroll, SectionLoader):
    """Fetches GET /tenants/self when shown; r refreshes."""

    title = TENANT.title
    permission = TENANT.permission
    load_group = TENANT.key

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tenant: Tenant | None = None
        self._usage = ""
        """The usage line shown with the tenant."""
        self.labels: Labels = {}
        """Names of the applications among the tenant's audit ids, once looked up."""

    def compose(self) -> ComposeResult:
        yield Static(TENANT.title, classes="section-title")
        yield FieldsView(id="tenant-fields")
        yield Static(self._how_to_edit(), classes="muted")
        yield StatePanel()

    def on_mount(self) -> None:
        follow_clock(self, self.refresh_times)

    def _how_to_edit(self) -> str:
        if session_host(self).read_only:
            return "Read-only mode: the tenant cannot be changed from this console."
        return "Press e to edit the tenant's name and settings (d deletes it, after asking)."

    def reset(self) -> None:
        self.reset_load_state()
        self.tenant, self.labels, self._usage = None, {}, ""

    def stale_banner_anchor(self) -> FieldsView:
        return self.query_one(FieldsView)

    def refresh_times(self) -> None:
        """Relative times ("3 minutes ago") as of now."""
        self.refresh_fields()

    def reload(self) -> None:
        """Reads the tenant again. One on screen stays there until the new one replaces it;
        if the read fails, it stays, marked stale."""
        if self.tenant is not None and self.problem is None:
            self.forget_loads()
        else:
            self.reset()
            self._content(False)
            self.query_one(StatePanel).show_loading("the tenant")
        self.load(
            lambda: session_host(self).client.tenant.get(),
            shown=self._show,
            failed=self._failed,
        )
        self.post_message(StatusChanged(self, self.status_text))

    def _content(self, visible: bool) -> None:
        for widget in self.query("FieldsView, .muted, .section-title"):
            widget.display = visible

    def _failed(self, exc: Exception) -> None:
        self.fetching = False
        problem = describe(exc, permission=self.permission, what=TENANT.singular)
        if self.tenant is not None:  # the tenant shown stays, as last loaded
            self.refresh_failed()
        else:
            self.problem = problem
            self.query_one(StatePanel).show_problem(problem)
        self.post_message(SectionFailed(self, problem))
        self.post_message(StatusChanged(self, self.status_text))

    async def _show(self, tenant: Tenant) -> None:
        self.tenant, self.loaded, self.fetching = tenant, True, False
        self.loaded_at = now()
        self.clear_stale()
        self.refresh_fields()
        self.query_one(StatePanel).hide()
        self._content(True)
        self.post_message(StatusChanged(self, self.status_text))
        generation = self.generation
        missing = [i for i in audit_ids(tenant) if i not in self.labels]
        found = await application_names(session_host(self).client, missing)
        if found and self.is_current(generation):
            self.labels.update(found)
            self.refresh_fields()

    def refresh_fields(self) -> None:
        """The tenant's fields, with the header's usage line. While the tenant is stale the
        usage shown with it stays (the header drops what it cannot confirm)."""
        if self.tenant is not None:
            usage = session_host(self).usage_line
            if usage or not self.stale_note:
                self._usage = usage
            fields = tenant_fields(self.tenant, self._usage or None, self.labels)
            self.query_one(FieldsView).show(fields)
