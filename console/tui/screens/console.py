"""The main screen: header, the six sections in a switcher, and a footer with keys and status.

A section is composed on its first visit, not at start: the first rows reach the screen
sooner, and a tenant browsed in one or two sections never pays for the other four.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Static

from console.tui.actions.bindings_policy import (
    CONSOLE_SCREEN_ACTIONS,
    console_action_allowed,
    hide_mutating_bindings,
)
from console.tui.actions.declarations import CONSOLE_ACTIONS
from console.tui.actions.declared_keys import DeclaredActions
from console.tui.base.app_access import (
    chrome,
    key_prompts,
    notices,
    router,
    session_host,
    usage_host,
)
from console.tui.base.key_hints import explain_key, explaining_bindings
from console.tui.browse.kinds import APPLICATIONS, KINDS_BY_KEY, MEMBERS, PERMISSIONS, TENANT
from console.tui.browse.logs_look import LOGS
from console.tui.browse.sections import (
    KIND_KEYS,
    SECTIONS,
    USAGE_KEY,
    section_of_key,
)
from console.tui.widgets.console_header import ConsoleHeader
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.resource_list import ResourceList
from console.tui.widgets.section_loader import SectionLoader
from console.tui.widgets.section_messages import SectionFailed, StatusChanged

if TYPE_CHECKING:
    from textual.await_complete import AwaitComplete
    from textual.command import Provider

    from console.tui.base.shell import Router
    from console.tui.browse.first_page import FirstPage
    from console.tui.widgets.tenant_view import TenantView
    from console.tui.widgets.usage_view import UsageView


def make_section(key: str, *, first_page: FirstPage | None = None) -> SectionLoader:
    """The widget of one section; the Tenant and Usage views are imported on first use."""
    if key == "tenant":
        from console.tui.widgets.tenant_view import TenantView

        return TenantView(id=key)
    if key == "usage":
        from console.tui.widgets.usage_view import UsageView

        return UsageView(id=key)
    if key == MEMBERS.key:  # People: the members and the invitations
        from console.tui.widgets.people_view import PeopleView

        return PeopleView(id=key)
    if key == LOGS.key:  # its list follows new entries (console.tui.widgets.log_list)
        from console.tui.widgets.log_list import LogList

        return LogList(LOGS, id=key)
    return ResourceList(KINDS_BY_KEY[key], id=key, first_page=first_page)


class FooterBar(Horizontal):
    """The footer's keys on the left and the current section's "loaded of total" on the right."""

    def compose(self) -> ComposeResult:
        yield KeyBar()
        yield Static("", id="status")

    SHRINK_BY = 20
    """The status area narrows only when that frees this many cells (the end of a load to
    the end): the footer's keys get their room back at the cost of one layout."""

    def set_status(self, text: str) -> None:
        """The status area widens, and narrows only by SHRINK_BY or more: a status of another
        length (every page loaded changes it) then costs a redraw of this line, not a new
        layout of the footer."""
        status = self.query_one("#status", Static)
        needed = len(text) + 2  # the padding
        width = status.styles.width
        if width is None or needed > width.value or needed + self.SHRINK_BY <= width.value:
            status.styles.width = needed
        status.update(text)


def list_commands() -> type[Provider]:
    """The list's palette commands (load all, sort), imported when the palette first opens."""
    from console.tui.palette.list_commands import ListCommands

    return ListCommands


def history_commands() -> type[Provider]:
    """The palette's History (the change journal), imported when the palette first opens."""
    from console.tui.palette.history_commands import HistoryCommands

    return HistoryCommands


def review_commands() -> type[Provider]:
    """Access review and who-holds commands, imported when the palette first opens."""
    from console.tui.palette.review_commands import ReviewCommands

    return ReviewCommands


def highlighted_permission(app: Router) -> str | None:
    """The permission under the cursor in the Permissions section, if that is on screen
    (here, not in review_commands: the `w` key's check runs before the first rows)."""
    screen = app.console_screen
    if screen is None or app.screen is not screen or screen.current != PERMISSIONS.key:
        return None
    listing = screen.current_list
    row = listing.current_row if listing is not None else None
    return PERMISSIONS.item_id(row) if row is not None else None


def _section_title(key: str) -> str:
    """The binding's description: the title of the section the key goes to now."""
    section = section_of_key(key)
    return section.title if section is not None else f"Section {key}"


class ConsoleScreen(DeclaredActions, Screen[None], actions=CONSOLE_SCREEN_ACTIONS):
    """Browses one tenant; the app resets it when the profile changes. Its keys n, e, d, R
    and c, and their actions, come from their declarations (console.tui.actions)."""

    COMMANDS = {list_commands, review_commands, history_commands}

    # Before these: n, e, d, R and c (DeclaredActions).
    BINDINGS = [
        Binding("1", "section('1')", "Sections", key_display=f"1-{len(SECTIONS) - 1},0"),
        *(
            Binding(key, f"section('{key}')", _section_title(key), show=False)
            for key in (*(str(n) for n in range(2, KIND_KEYS + 1)), USAGE_KEY)
        ),
        Binding("r", "refresh", "Refresh"),
        Binding("y", "copy_id", "Copy id"),
        Binding("K", "enter_key", "Enter key"),
        # The section's own keys: shown where they apply (check_action), in the order of
        # KeyBar.IMPORTANCE; pressed elsewhere, they say where they work (key_hints).
        Binding("L", "object_logs", "Logs", tooltip="The log entries of the highlighted object"),
        Binding("A", "access_review", "Review", tooltip="Access review of every application"),
        Binding("w", "who_holds", "Who holds", tooltip="Who holds the highlighted permission"),
        *explaining_bindings(
            "object_logs",
            "access_review",
            "who_holds",
            "copy_to_profile",
            "sort",
            "sort_reverse",
            "load_all_sorted",
            "test_run",
        ),
        Binding("H", "history", "History", show=False),  # issue 23: in the help and palette
    ]

    def __init__(self, *, first_page: FirstPage | None = None, **kwargs: Any) -> None:
        """`first_page`: the first section's page 1, already requested (see ResourceList)."""
        super().__init__(**kwargs)
        self.current = SECTIONS[0].key
        self._first_page = first_page
        self._first_rows_reported = first_page is None
        self._bindings_state: tuple[str, bool] | None = None
        self._filters: dict[str, str] = {}
        """A filter for a section to apply when it opens next (show_filtered)."""

    def compose(self) -> ComposeResult:
        yield ConsoleHeader()
        with ContentSwitcher(initial=self.current, id="sections"):
            yield make_section(self.current, first_page=self._first_page)
        self._first_page = None
        yield FooterBar()

    def on_mount(self) -> None:
        hide_mutating_bindings(self, CONSOLE_ACTIONS)
        self.show_section(self.current)

    # ---- parts -------------------------------------------------------------------------

    @property
    def header(self) -> ConsoleHeader:
        return self.query_one(ConsoleHeader)

    def sections(self) -> list[SectionLoader]:
        """The sections composed so far (every child of the switcher is one; a query by type
        would miss them, as CSS type names follow only a class's first base)."""
        children = self.query_one(ContentSwitcher).children
        return [w for w in children if isinstance(w, SectionLoader)]

    def section_widget(self, key: str | None = None) -> SectionLoader:
        """The section's widget; NoMatches if it was never visited."""
        return self.query_one(f"#{key or self.current}", SectionLoader)

    def find_section(self, key: str) -> SectionLoader | None:
        """The section's widget once it is composed and mounted, else None."""
        for widget in self.sections():
            if widget.id == key:
                return widget if widget.is_mounted else None
        return None

    def tenant_view(self) -> TenantView | None:
        """The Tenant section once composed and mounted, else None (its module is imported
        on its first visit, so it is found by its id: make_section gives it that id)."""
        return cast("TenantView | None", self.find_section("tenant"))

    def resource_list(self, key: str) -> ResourceList:
        return self.query_one(f"#{key}", ResourceList)

    @property
    def current_list(self) -> ResourceList | None:
        """The list the keys act on: the section's, or its list in use (People's two)."""
        widget = self.find_section(self.current)
        shown = widget.shown_list() if widget is not None else None
        return shown if isinstance(shown, ResourceList) else None

    # ---- navigation --------------------------------------------------------------------

    def show_section(self, key: str) -> None:
        switcher = self.query_one(ContentSwitcher)
        widget = next((w for w in self.sections() if w.id == key), None)
        if widget is not None and widget.is_mounted:
            # Its request goes out before anything on screen changes: the frame that shows
            # the switch is then drawn while the service answers, not before it is asked.
            widget.ensure_loaded()
        self.current = key
        self.header.section = key
        self.header.trail = ""
        if widget is None:  # the first visit: compose it now, open it once mounted
            chrome(self).load_later_styles()  # the Tenant and Usage sections' layout
            widget = make_section(key)
            mounting = switcher.mount(widget)
            switcher.current = key
            self._status(widget.status_text)
            self.call_next(self._open_when_mounted, mounting, key)
            return
        switcher.current = key
        if widget.is_mounted:
            self._open(widget)

    async def _open_when_mounted(self, mounting: AwaitComplete, key: str) -> None:
        await mounting
        if self.current == key:
            self._open(self.section_widget(key))

    def _open(self, widget: SectionLoader) -> None:
        text = self._filters.pop(widget.id or "", None)
        if text is not None and isinstance(widget, ResourceList):
            widget.apply_filter(text)
        widget.ensure_loaded()
        if isinstance(widget, ResourceList):
            widget.focus_table()
        else:
            widget.focus()
        self._status(widget.status_text)
        self.refresh_bindings()

    def reset(self) -> None:
        """A new connection: every section forgets its data; the current one reloads."""
        for widget in self.sections():
            widget.reset()
        self.show_section(self.current)

    def action_section(self, key: str) -> None:
        """A number key: the section it goes to now (section_of_key)."""
        section = section_of_key(str(key))
        if section is not None:
            self.show_section(section.key)

    def action_refresh(self) -> None:
        widget = self.find_section(self.current)
        if widget is not None:  # else it is being composed, and loads once it is
            widget.reload()
        session_host(self).refresh_header_info()

    def action_open(self) -> None:
        current = self.current_list
        if current is not None and current.current_row is not None:
            router(self).open_detail(current.kind, current.current_row)

    def action_copy_id(self) -> None:
        current = self.current_list
        if current is not None and current.current_row is not None:
            chrome(self).copy_id(current.kind.item_id(current.current_row))
        elif self.current == "tenant":
            view = self.tenant_view()
            if view is not None and view.tenant is not None:
                chrome(self).copy_id(str(view.tenant.id))

    def object_of_logs(self) -> tuple[str, str] | None:
        """(log entity type, id) of the highlighted object, for `L`; None where there is
        none or its kind is not named in the logs (the Logs section's own entries)."""
        current = self.current_list
        if current is not None:
            row = current.current_row
            entity = current.kind.declaration.log_entity
            item_id = current.kind.item_id(row) if row is not None else ""
            return (entity, item_id) if entity and item_id else None
        view = self.tenant_view() if self.current == TENANT.key else None
        if view is not None and view.tenant is not None and TENANT.declaration.log_entity:
            return TENANT.declaration.log_entity, str(view.tenant.id)
        return None

    def action_object_logs(self) -> None:
        """`L`: the Logs section filtered to the highlighted object's entries."""
        found = self.object_of_logs()
        if found is not None:
            router(self).open_logs(*found)

    def show_filtered(self, key: str, text: str) -> None:
        """Section `key` (a list) shown, filtered by `text` as `/` and enter would (once it
        is mounted, on a first visit)."""
        self._filters[key] = text
        self.show_section(key)

    def action_access_review(self) -> None:
        """The access review (console.tui.screens.review), above this screen."""
        router(self).open_access_review()

    def action_history(self) -> None:
        """The change journal of this profile (console.tui.screens.history), above."""
        router(self).open_history()

    def action_who_holds(self) -> None:
        """Who holds the highlighted permission (console.tui.screens.holders)."""
        app = router(self)
        permission = app.highlighted_permission()
        if permission is not None:
            app.open_who_holds(permission)

    def action_enter_key(self) -> None:
        """K after the service rejected the profile's key: type the key anew."""
        key_prompts(self).prompt_new_key()

    def action_explain_key(self, action: str) -> None:
        """A section's key pressed where it does not apply: says where it does."""
        explain_key(self.app, action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "section":  # a number key beyond the sections (kinds registered) is none
            return bool(parameters) and section_of_key(str(parameters[0])) is not None
        if action in CONSOLE_ACTIONS:
            return console_action_allowed(self, action)
        if action == "object_logs":
            return self.object_of_logs() is not None
        if action == "access_review":
            return self.current == APPLICATIONS.key
        if action == "who_holds":
            return router(self).highlighted_permission() is not None
        if action == "enter_key":
            return session_host(self).key_rejected
        if action in ("copy_id", "open"):
            current = self.current_list
            if current is not None:
                return current.current_row is not None
            return action == "copy_id" and self.current == "tenant"
        return True

    # ---- messages from sections --------------------------------------------------------

    def _status(self, text: str) -> None:
        self.query_one(FooterBar).set_status(text)

    def _report_first_rows(self, section: SectionLoader) -> None:
        """Once the first section has shown its rows (or its failure), the app does what
        start-up put off until then; after this frame, so the rows reach the screen first."""
        settled = section.loaded or section.problem is not None
        if self._first_rows_reported or not settled:
            return
        self._first_rows_reported = True
        self.call_after_refresh(usage_host(self).after_first_rows)

    @on(StatusChanged)
    def _section_status(self, event: StatusChanged) -> None:
        self._report_first_rows(event.section)
        if event.section.id == self.current:
            self._status(event.text)
            # The footer's actions depend on the section and on whether it has a current
            # item, not on the status text, which changes with every page loaded.
            # The Tenant section's e and d follow its tenant (gone while it reloads after a save).
            current = self.current_list
            if current is not None:
                has_item = current.current_row is not None
            else:
                view = self.tenant_view()
                has_item = event.section is view and view is not None and view.tenant is not None
            state = (self.current, has_item)
            if state != self._bindings_state:
                self._bindings_state = state
                self.refresh_bindings()

    @on(ResourceList.Opened)
    def _opened(self, event: ResourceList.Opened) -> None:
        router(self).open_detail(event.kind, event.item)

    @on(SectionFailed)
    def _failed(self, event: SectionFailed) -> None:
        if event.problem.not_offered and event.section.id:
            session_host(self).mark_unavailable(event.section.id)
        notices(self).report_problem(event.problem)
        if event.section.id == self.current:
            self._status(event.section.status_text)

    def on_usage_view_loaded(self, event: UsageView.Loaded) -> None:
        """UsageView.Loaded (by name: the Usage view is imported on its first visit)."""
        usage_host(self).set_usage(event.report)
