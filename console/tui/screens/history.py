"""History (`H`, or the palette): the change journal of this profile, newest first, with what
the highlighted change changed; `u` takes it back (console.journal.undo), after a dialog
showing what the undo will write.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, DataTable, Static

from console.journal.cli import change_details, visible, what, when
from console.journal.diff import diff_lines
from console.journal.settle import shown_outcome
from console.tui.actions.key_permissions import (
    in_read_only_mode,
    known_permissions,
    refuse_if_read_only,
)
from console.tui.base.app_access import flow_host, session_host
from console.tui.modals.base import ChoiceDialog
from console.tui.widgets.console_header import ConsoleHeader
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.key_scroll import KeyScroll
from console.tui.widgets.key_table import KeyTable

if TYPE_CHECKING:
    from console.journal.store import Change
    from console.journal.undo import UndoPlan

log = logging.getLogger(__name__)

HISTORY_LIMIT = 200
EMPTY_TEXT = (
    "No changes recorded yet for this profile. Every change made through the "
    "console, apply, push or a promotion is recorded here before it is sent."
)
OUTCOME_STYLES = {
    "ok": "green",
    "failed": "red",
    "unknown": "yellow",
    "pending": "yellow",
    "unknown — check": "yellow",
    "unreadable": "red",
}


def diff_text(lines: list[str]) -> Text:
    """Field lines in bold; a code line diff's removed lines red, added green, hunks cyan."""
    text = Text(no_wrap=False, overflow="fold")
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        stripped = line.lstrip()
        if not line.startswith(" "):
            text.append(line, style="bold")
        elif stripped.startswith(("+++", "---")):
            text.append(line, style="dim")
        elif stripped.startswith("@@"):
            text.append(line, style="cyan")
        elif stripped.startswith("+"):
            text.append(line, style="green")
        elif stripped.startswith("-"):
            text.append(line, style="red")
        else:
            text.append(line)
    return text


def detail_text(change: Change) -> Text:
    """What the detail pane says of one change (control characters escaped)."""
    text = Text()
    text.append(visible(f"{change.id} · {what(change)}"), style="bold")
    text.append("\n" + visible(f"{when(change)} · {change.profile or change.base_url}"))
    if change.tenant:
        text.append(visible(f" · tenant {change.tenant}"))
    text.append(visible(f" · via {change.origin} · "))
    outcome = shown_outcome(change)
    text.append(outcome, style=OUTCOME_STYLES.get(outcome, ""))
    if change.error:
        text.append("\n" + visible(change.error), style="red")
    details = [visible(line) for line in change_details(change)]
    if details:
        text.append("\n\n")
        text.append_text(diff_text(details))
    return text


class UndoDialog(ChoiceDialog):
    """The undo's question, with what it writes (field by field, code line by line)."""

    BINDINGS = [
        Binding("escape", "answer(False)", "Cancel"),
        Binding("n", "answer(False)", "Cancel", show=False),
        Binding("y", "answer(True)", "Undo", show=False),
    ]

    def __init__(self, plan: UndoPlan) -> None:
        super().__init__(classes="-danger" if plan.changed_since else None)
        self.plan = plan

    def compose(self) -> ComposeResult:
        plan = self.plan
        with Vertical(id="dialog"):
            yield Static(f"Undo change {plan.change.id}", classes="dialog-title", markup=False)
            yield Static(visible(plan.question), classes="dialog-body", markup=False)
            with KeyScroll(id="undo-diff"):
                lines = [visible(line) for line in diff_lines(plan.diffs)]
                yield Static(diff_text(lines), id="undo-diff-text")
            if plan.notes:
                notes = "\n".join(visible(note) for note in plan.notes)
                yield Static(notes, classes="dialog-warning", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Undo", id="confirm", variant="warning")

    def on_mount(self) -> None:
        self.query_one("#undo-diff").styles.max_height = max(3, self.app.size.height - 14)
        self.query_one("#cancel", Button).focus()


class HistoryScreen(Screen[None]):
    """Above the console; escape goes back."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("u", "undo", "Undo"),
        Binding("r", "reload", "Refresh"),
    ]

    DEFAULT_CSS = """
    HistoryScreen #history-table { height: 1fr; min-height: 5; }
    HistoryScreen #history-detail { height: 1fr; border-top: solid $primary 40%; }
    HistoryScreen #history-empty { padding: 1 2; }
    """

    def __init__(self, *, journal: Any = None) -> None:
        super().__init__()
        self._journal = journal
        self.changes: list[Change] = []

    @property
    def journal(self) -> Any:
        if self._journal is None:
            from console.journal.store import open_journal

            self._journal = open_journal()
        return self._journal

    @property
    def profile(self) -> str | None:
        connection = session_host(self).connection
        return connection.profile if connection is not None else None

    def compose(self) -> ComposeResult:
        yield ConsoleHeader()
        yield Static("", id="history-title", classes="section-title")
        table = KeyTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield Static(EMPTY_TEXT, id="history-empty")
        with KeyScroll(id="history-detail"):
            yield Static("", id="history-detail-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(ConsoleHeader).trail = "history"
        table = self.query_one(DataTable)
        table.add_columns("Id", "When", "Outcome", "Via", "Change")  # the long one last
        self.load()
        table.focus()

    def load(self) -> None:
        """Reads the journal again (newest first), keeping the cursor on the same change."""
        table = self.query_one(DataTable)
        current = self.current
        connection = session_host(self).connection
        from console.journal.store import JournalError

        problem: str | None = None
        try:
            if connection is not None and connection.profile is None:  # from the environment
                found = self.journal.list(base_url=connection.base_url, limit=HISTORY_LIMIT)
                self.changes = [c for c in found if c.profile is None]
            else:
                self.changes = self.journal.list(profile=self.profile, limit=HISTORY_LIMIT)
        except JournalError as error:
            self.changes, problem = [], str(error)
        table.clear()
        for change in self.changes:
            outcome = shown_outcome(change)
            table.add_row(
                str(change.id),
                when(change),
                Text(outcome, style=OUTCOME_STYLES.get(outcome, "")),
                Text(visible(change.origin)),
                Text(visible(what(change))),  # Text: a name is never read as markup
                key=str(change.id),
            )
        count = len(self.changes)
        title = f"History · {self.profile or 'this connection'} · {count} change"
        title += "" if count == 1 else "s"
        self.query_one("#history-title", Static).update(title)
        empty = self.query_one("#history-empty", Static)
        empty.display = not self.changes
        empty.update(Text(visible(problem)) if problem else EMPTY_TEXT)
        table.display = bool(self.changes)
        self.query_one("#history-detail").display = bool(self.changes)
        if current is not None:
            for index, change in enumerate(self.changes):
                if change.id == current.id:
                    table.move_cursor(row=index)
                    break
        self._show_detail()

    @property
    def current(self) -> Change | None:
        if not self.changes:
            return None
        row = self.query_one(DataTable).cursor_row
        return self.changes[row] if 0 <= row < len(self.changes) else None

    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._show_detail()
        self.refresh_bindings()

    def _show_detail(self) -> None:
        change = self.current
        text = detail_text(change) if change is not None else Text("")
        self.query_one("#history-detail-text", Static).update(text)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Undo is dimmed when the key lacks the permission the undo's request needs. In
        read-only mode, and on what cannot be undone, `u` says why instead."""
        if action != "undo":
            return True
        change = self.current
        if change is None:
            return None
        if in_read_only_mode(session_host(self)):
            return True
        from console.journal.undo import CannotUndo, plan_undo

        try:
            plan = plan_undo(change)
        except CannotUndo:
            return True
        permissions = known_permissions(flow_host(self))
        if plan.permission and permissions is not None and plan.permission not in permissions:
            return None
        return True

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_reload(self) -> None:
        self.load()

    def action_undo(self) -> None:
        change = self.current
        if change is not None:
            self.run_worker(self.undo(change), group="change", exclusive=True)

    async def undo(self, change: Change) -> None:
        """Plan, check against the object now, ask, undo; a new key is shown once."""
        from console.client import ApiError
        from console.journal.undo import CannotUndo, check_now, plan_undo, run_undo

        app = flow_host(self)
        if refuse_if_read_only(app, "undoing a change"):
            return
        if change.unreadable is not None:
            app.notify(
                visible(f"Its journal entry cannot be read ({change.unreadable})."),
                title="Cannot be undone",
                severity="warning",
                timeout=10,
                markup=False,
            )
            return
        try:
            plan = plan_undo(change)
        except CannotUndo as reason:
            app.notify(
                visible(str(reason)),
                title="Cannot be undone",
                severity="warning",
                timeout=10,
                markup=False,
            )
            return
        connection = app.connection
        if connection is None or (connection.profile, connection.base_url.rstrip("/")) != (
            change.profile,
            change.base_url.rstrip("/"),
        ):
            where = visible(change.profile or change.base_url)
            app.notify(
                f"Change {change.id} was made on profile {where}: switch to it (p) to undo it.",
                title="Another profile",
                severity="warning",
                markup=False,
            )
            return
        permissions = known_permissions(app)
        if plan.permission and permissions is not None and plan.permission not in permissions:
            from console.tui.actions.key_permissions import say_lacking

            say_lacking(app, plan.permission, "undoing this change")
            return
        client = app.client
        try:
            await check_now(client, plan)
        except CannotUndo as reason:
            app.notify(
                visible(str(reason)),
                title="Cannot be undone",
                severity="warning",
                timeout=10,
                markup=False,
            )
            return
        except ApiError as error:
            app.notify(visible(str(error)), title="Not undone", severity="error", markup=False)
            return
        if not await app.ask(UndoDialog(plan)):
            return
        relink = False
        if plan.relink:
            from console.tui.modals.confirm import ConfirmModal

            names = ", ".join(p["name"] for p in plan.relink)
            question = ConfirmModal(
                "Link the proxies again?",
                f"These proxies used the deleted application: {names}. Link them to the "
                "application created again?",
                confirm_label="Link",
            )
            answer = await app.ask(question)
            relink = answer is True
        try:
            result = await run_undo(client, plan, relink=relink)
        except ApiError as error:
            app.notify(visible(str(error)), title="Not undone", severity="error", markup=False)
            self.load()
            return
        if result.new_key:
            from console.tui.modals.key_reveal import KeyRevealModal

            await app.ask(KeyRevealModal(result.new_key, plan.change.name or ""))
        done = visible(" ".join(result.lines))
        app.notify(done, title=f"Undid change {change.id}", markup=False)
        self.load()
        self.query_one(DataTable).move_cursor(row=0)
        screen = app.console_screen
        if screen is not None:
            screen.action_refresh()  # the lists under History show the object back
