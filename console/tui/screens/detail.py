"""One object in full: every field formatted, code highlighted read-only, a raw JSON toggle."""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from console.clock import now
from console.tui.actions.bindings_policy import (
    DETAIL_SCREEN_ACTIONS,
    detail_action_allowed,
    hide_mutating_bindings,
)
from console.tui.actions.declarations import DETAIL_ACTIONS
from console.tui.actions.declared_keys import DeclaredActions
from console.tui.base.app_access import chrome, flow_host, notices, router, session_host
from console.tui.base.clock_ticks import follow_clock
from console.tui.base.dialog_host import dialog_host
from console.tui.base.formatting import clock_time, mask_secrets
from console.tui.base.key_hints import explain_key, explaining_bindings
from console.tui.base.pipeline_steps import has_pipelines, pipeline_of
from console.tui.base.problems import describe
from console.tui.browse.kinds import (
    CodeBlock,
    Renderable,
    ResourceKind,
    application_names,
    audit_ids,
    raw_fields,
    unknown_fields,
)
from console.tui.widgets.console_header import ConsoleHeader
from console.tui.widgets.fields_view import FieldsView
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.key_scroll import KeyScroll
from console.tui.widgets.keys_panel import KeysPanel
from console.tui.widgets.section_loader import StaleBanner
from console.tui.widgets.state_panel import StatePanel

if TYPE_CHECKING:
    from rich.syntax import Syntax

    from console.models import Proxy
    from console.tui.base.shown import JsonObject, Shown

log = logging.getLogger(__name__)


def _syntax(code: str, language: str, app: App[object]) -> Syntax:
    """Pygments, through rich, only when a detail actually shows code."""
    from rich.syntax import Syntax

    theme = "monokai" if app.current_theme.dark else "default"
    return Syntax(
        code, language, theme=theme, line_numbers=True, word_wrap=True, background_color="default"
    )


def raw_json(item: Shown) -> str:
    """The object as the service sent it (a model keeps that), secrets masked."""
    data = item if isinstance(item, dict) else item.as_sent  # every model keeps it (LenientModel)
    return json.dumps(mask_secrets(data), indent=2, ensure_ascii=False)


def _steps_count(steps: list[JsonObject]) -> str:
    return f"{len(steps)} step" + ("" if len(steps) == 1 else "s")


def detail_fields(
    kind: ResourceKind, item: Shown, labels: dict[str, str]
) -> list[tuple[str, Renderable]]:
    """Every field that could be read: the kind's own, then those the console does not know.
    An object that did not match the API at all (`item` still a dict) shows every field as
    sent, under a note saying why."""
    if isinstance(item, dict):
        note = Text("This object does not match what the console expects; its fields as sent:")
        return [("Unreadable", note), *raw_fields(item)]
    fields = kind.fields(item, labels)
    extra = unknown_fields(item)
    if extra:
        fields += [("Other fields", Text("sent by the service, not known to this console", "dim"))]
        fields += extra
    return fields


class CodeView(Static):
    """A block of code, highlighted and read-only."""

    def __init__(self, block: CodeBlock, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.block = block
        self.border_title = block.title

    def on_mount(self) -> None:
        self.update(_syntax(self.block.code, self.block.language, self.app))


class DetailScreen(DeclaredActions, Screen[None], actions=DETAIL_SCREEN_ACTIONS):
    """Opened with enter on a list row or from the palette; escape goes back. Its keys e, d,
    R, c and an application's N, x, o, and their actions, come from their declarations."""

    # Before these: e, d, R, c, N, x, o (DeclaredActions).
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("v", "toggle_json", "Raw JSON"),
        Binding("y", "copy_id", "Copy id"),
        Binding("r", "refresh", "Refresh"),
        # Shown where they apply, in the order of KeyBar.IMPORTANCE; elsewhere they say
        # where they work (key_hints).
        Binding("ctrl+r", "test_run", "Test-run"),
        Binding("L", "object_logs", "Logs", tooltip="This object's log entries"),
        Binding("Y", "copy_block", "Copy key", tooltip="Copy the key shown below"),
        *explaining_bindings("test_run", "copy_to_profile", "object_logs"),
    ]

    def __init__(
        self,
        kind: ResourceKind,
        item: Shown | None = None,
        *,
        item_id: str | None = None,
        labels: dict[str, str] | None = None,
        loaded_at: datetime | None = None,
    ) -> None:
        """`loaded_at`: when `item` was read (a list's page), for the stale note."""
        super().__init__()
        self.kind = kind
        self.labels = labels or {}
        self.item = item
        self.loaded_at = loaded_at or now()
        self.stale_note = ""
        """Set once a refresh failed while the object was shown."""
        self.item_id = item_id or (kind.item_id(item) if item is not None else "")
        self.show_json = False
        self._provisioning_reads = 0
        """Reads of a reactor being provisioned since it was last seen settled."""
        self.extra_blocks: list[CodeBlock] = []
        """The kind's blocks read with another request (ListLook.detail_blocks), once read."""
        self._extras_asked = False

    def compose(self) -> ComposeResult:
        yield ConsoleHeader()
        with KeyScroll(id="detail-body"):
            yield Static("", id="detail-title", classes="section-title")
            with Vertical(id="detail-fields"):
                yield FieldsView()
                yield KeysPanel()
                yield Vertical(id="detail-code")
            yield Static("", id="detail-json")
        yield StatePanel()
        yield KeyBar()

    def on_mount(self) -> None:
        hide_mutating_bindings(self, DETAIL_ACTIONS)
        follow_clock(self, self.refresh_times)
        self.query_one(ConsoleHeader).section = self.kind.key
        self.query_one("#detail-json").display = False
        self.query_one(KeysPanel).display = False
        if self.item is not None:
            self.call_after_refresh(self._render_item)
        else:
            self.action_refresh()

    async def _render_item(self) -> None:
        item = self.item
        if item is None:  # nothing read yet: on_mount and _load render once there is
            return
        header = self.query_one(ConsoleHeader)
        header.trail = self.kind.item_name(item)
        self.query_one("#detail-title", Static).update(
            f"{self.kind.singular.capitalize()} · {self.kind.item_name(item)}"
        )
        self.query_one(FieldsView).show(detail_fields(self.kind, item, self.labels))
        self._show_keys(item)
        code = self.query_one("#detail-code")
        await code.remove_children()
        blocks = self.kind.code_blocks(item) if not isinstance(item, dict) else []
        blocks += [b for b in self.extra_blocks if not isinstance(item, dict)]
        if blocks:
            await code.mount_all(CodeView(block) for block in blocks)
        if self.show_json:
            self._render_json()
        self.query_one(StatePanel).hide()
        self.query_one("#detail-body").display = True
        self.query_one("#detail-body").focus()
        if any(i not in self.labels for i in audit_ids(item)):
            names = self._name_ids(item)
            self.run_worker(names, group="names", exclusive=True, exit_on_error=False)
        self._follow_provisioning(item)
        if not isinstance(item, dict) and not self._extras_asked:
            self._extras_asked = True
            self.run_worker(self._read_extras(item), group="extras", exit_on_error=False)

    async def _read_extras(self, item: Shown) -> None:
        """The blocks the kind reads with another request (a webhook's verification key),
        added below the code once read; a failure said in their place, the rest shown."""
        try:
            blocks = await self.kind.detail_blocks(session_host(self).client, item)
        except Exception as exc:
            log.warning("A detail's extra blocks could not be read", exc_info=True)
            problem = describe(exc, what=self.kind.singular)
            blocks = [CodeBlock("Not read", f"Could not read it: {problem.message}", "text")]
        if not blocks or not self.is_attached:
            return
        self.extra_blocks = blocks
        await self.query_one("#detail-code").mount_all(CodeView(block) for block in blocks)
        self.refresh_bindings()

    @property
    def copyable_block(self) -> CodeBlock | None:
        """The first block shown that the detail offers to copy (`Y`), if any."""
        return next((b for b in self.extra_blocks if b.copy_label), None)

    def action_copy_block(self) -> None:
        """`Y`: copies the block offered for it (a webhook's verification public key)."""
        block = self.copyable_block
        if block is not None:
            self.run_worker(self._copy_block(block), group="copy", exit_on_error=False)

    async def _copy_block(self, block: CodeBlock) -> None:
        from console.tui.base.clipboard import copy_text

        copied = await copy_text(self.app, block.code)
        title = f"Copied the {block.copy_label}" if copied.confirmed else block.copy_label
        self.notify(copied.message, title=title.capitalize())

    def _follow_provisioning(self, item: Shown) -> None:
        """A reactor being provisioned (`creating`, `updating`) is read again a second later
        (each read through the client's request budget), what is shown staying meanwhile,
        until it is active or failed, or the wait's deadline passes (console.tui.forms
        .provisioning: its interval and deadline)."""
        from console.tui.forms.provisioning import DEADLINE, INTERVAL

        if not getattr(item, "provisioning", False):
            self._provisioning_reads = 0
            return
        if self._provisioning_reads * INTERVAL >= DEADLINE:
            return
        self._provisioning_reads += 1
        self.set_timer(INTERVAL, self._read_again_while_provisioning)

    def _read_again_while_provisioning(self) -> None:
        if self.is_attached and self.app.screen is self:
            self.action_refresh()

    def _show_keys(self, item: Shown) -> None:
        """An application's keys panel (issue 26), filled in the background."""
        from console.models import Application

        panel = self.query_one(KeysPanel)
        panel.display = isinstance(item, Application)
        if isinstance(item, Application):
            from console.tui.actions.key_flows import fill_keys_panel

            work = fill_keys_panel(flow_host(self), panel, item, self.labels)
            self.run_worker(work, group="keys", exclusive=True, exit_on_error=False)

    async def _name_ids(self, item: Shown) -> None:
        """Names beside the ids of applications (creator, last editor, a proxy's application),
        looked up by id once the detail shows; a failed lookup leaves the ids as they are."""
        missing = [i for i in audit_ids(item) if i not in self.labels]
        client = session_host(self).client
        found = await application_names(client, missing)
        if found and item is self.item:
            self.labels = {**self.labels, **found}
            self.query_one(FieldsView).show(detail_fields(self.kind, item, self.labels))

    def _render_json(self) -> None:
        if self.item is None:
            return
        code = _syntax(raw_json(self.item), "json", self.app)
        self.query_one("#detail-json", Static).update(code)

    @property
    def fields_view(self) -> FieldsView:
        return self.query_one(FieldsView)

    def refresh_times(self) -> None:
        """Relative times ("3 minutes ago") as of now: on every tick of the clock."""
        if self.item is not None and self.fields_view.fields:
            self.fields_view.show(detail_fields(self.kind, self.item, self.labels))
            self.query_one(KeysPanel).redraw()

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_toggle_json(self) -> None:
        if self.item is None:
            return
        self.show_json = not self.show_json
        if self.show_json:
            self._render_json()
        self.query_one("#detail-json").display = self.show_json
        self.query_one("#detail-fields").display = not self.show_json

    def action_copy_id(self) -> None:
        if self.item_id:
            chrome(self).copy_id(self.item_id)

    def action_test_run(self) -> None:
        """A formula's or a reactor's code, a proxy's first side with steps (its pipeline, in
        order, as the form runs it) or, from a service with single transforms only, its first
        code transform, run on a sample (nothing is saved: the code is the object's as read)."""
        from console.models import Proxy, ReactorFormula
        from console.models.reactors import Reactor
        from console.tui.forms.run_targets import (
            formula_run_target,
            reactor_run_target,
            transform_run_target,
        )

        item = self.item
        name = self.kind.item_name(item) if item is not None else ""
        if isinstance(item, ReactorFormula):
            formula = item
            code = str(formula.code or "")
            target = formula_run_target(name, formula.id, lambda: code, lambda: formula)
        elif isinstance(item, Reactor):
            code = str(item.code or "")
            held = dict(item.configuration or {})
            target = reactor_run_target(name, item.id, lambda: code, lambda: held)
        elif isinstance(item, Proxy) and has_pipelines(item):
            self._test_run_pipeline(item)
            return
        elif isinstance(item, Proxy):
            proxy = item
            transforms = [
                (field, transform)
                for field, transform in (
                    ("request_transform", proxy.request_transform),
                    ("response_transform", proxy.response_transform),
                )
                if transform is not None and transform.is_code
            ]
            if not transforms:
                self.notify("This proxy has no transform code to run.", severity="warning")
                return
            field, transform = transforms[0]
            code = str(transform.code)
            configuration = {k: v for k, v in (proxy.configuration or {}).items() if v is not None}
            target = transform_run_target(
                name,
                proxy.id,
                field,
                lambda: code,
                lambda: configuration,
                lambda: proxy.application_id is not None,
            )
        else:  # not readable (a dict as sent), or not a kind with code
            return
        router(self).open_test_run(target)

    def _test_run_pipeline(self, proxy: Proxy) -> None:
        """A side's steps, in order, as the proxy form runs them: the one side with steps,
        or the side chosen when both have some."""
        from console.tui.modals.key_choice import KeyChoiceModal

        sides = [(side, pipeline_of(proxy, side)) for side in ("request", "response")]
        with_steps = [(side, steps) for side, steps in sides if steps]
        if not with_steps:
            self.notify("This proxy has no transform steps to run.", severity="warning")
            return
        if len(with_steps) == 1:
            self._open_pipeline_run(proxy, with_steps[0][0])
            return
        choices = [
            (side, f"{side.capitalize()} transforms: {_steps_count(steps)}")
            for side, steps in with_steps
        ]

        def chosen(side: str | None) -> None:
            if side is not None:
                self._open_pipeline_run(proxy, side)

        question = KeyChoiceModal("Test-run which pipeline?", choices)
        dialog_host(self).show(question, chosen)

    def _open_pipeline_run(self, proxy: Proxy, side: str) -> None:
        from console.tui.forms.run_targets import pipeline_run_target

        steps = pipeline_of(proxy, side)
        configuration = {k: v for k, v in (proxy.configuration or {}).items() if v is not None}
        target = pipeline_run_target(
            self.kind.item_name(proxy),
            proxy.id,
            side,
            lambda: [dict(step) for step in steps],
            lambda: configuration,
            lambda: proxy.application_id is not None,
        )
        router(self).open_test_run(target)

    def action_object_logs(self) -> None:
        """`L`: the Logs section filtered to this object's entries."""
        entity = self.kind.declaration.log_entity
        if entity and self.item_id and self.item is not None:
            router(self).open_logs(entity, self.item_id)

    def action_explain_key(self, action: str) -> None:
        """ctrl+r or c where it does not apply: says where it does."""
        explain_key(self.app, action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in DETAIL_ACTIONS:
            return detail_action_allowed(self, action)
        if action == "test_run":
            return self.kind.declaration.features.code and not isinstance(self.item, dict)
        if action == "object_logs":
            return bool(self.kind.declaration.log_entity and self.item_id and self.item)
        if action == "copy_block":
            return self.copyable_block is not None
        return True

    def action_refresh(self) -> None:
        """Reads the object again. What is shown stays until the answer replaces it; if the
        read fails it stays, marked stale (unless the object is gone: 404)."""
        if self.item is None:
            self.query_one("#detail-body").display = False
            self.query_one(StatePanel).show_loading(self.kind.singular)
        self._extras_asked = False  # read again with the object (what shows stays meanwhile)
        self.run_worker(self._load(), group="detail", exclusive=True, exit_on_error=False)

    async def _load(self) -> None:
        try:
            item = await self.kind.get(session_host(self).client, self.item_id)
        except Exception as exc:
            log.warning("The object could not be read", exc_info=True)
            problem = describe(exc, permission=self.kind.permission, what=self.kind.singular)
            if self.item is not None and problem.status != 404:
                self._mark_stale(clock_time(now()))
            else:
                self._clear_stale()
                self.query_one("#detail-body").display = False
                self.query_one(StatePanel).show_problem(problem)
            notices(self).report_problem(problem)
            return
        self.item, self.loaded_at = item, now()
        self._clear_stale()
        await self._render_item()

    def _mark_stale(self, failed_at: str) -> None:
        """A refresh failed: the object shown stays, under a note saying since when."""
        loaded = clock_time(self.loaded_at)
        self.stale_note = f"Stale — last loaded {loaded}, refresh failed at {failed_at}."
        text = f"⚠ {self.stale_note} Press r to retry."
        banners = self.query(StaleBanner)
        if banners:
            banners.first().update(text)
        else:
            self.mount(StaleBanner(text), before=self.query_one("#detail-body"))

    def _clear_stale(self) -> None:
        self.stale_note = ""
        self.query(StaleBanner).remove()
