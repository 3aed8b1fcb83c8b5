"""What the parts of a list ask of the list widget: its table, its filter field, the rows it
shows, and how it shows them again. ResourceList (console.tui.widgets.resource_list) is the
one such section; its parts (paging, filter, search, freshness) are typed against this base,
below them all, so that none of them imports the widget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Input

from console.tui.base.app_access import console_app
from console.tui.widgets.list_cursor import ListCursor, Place
from console.tui.widgets.row_table import RowTable
from console.tui.widgets.section_loader import SectionLoader
from console.tui.widgets.section_messages import StatusChanged
from console.tui.widgets.state_panel import StatePanel

if TYPE_CHECKING:
    from console.client.index import LocalIndex
    from console.tui.base.shown import JsonObject
    from console.tui.browse.kinds import Fetched, ResourceKind
    from console.tui.browse.row_filter import RowFilter


class FilterInput(Input):
    """The `/` filter: the loaded rows follow what is typed; enter asks the service or
    searches the tenant, escape clears it."""

    BINDINGS = [Binding("escape", "cancel", "Clear filter", show=True)]

    class Cancelled(Message):
        pass

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())


class ListSection(SectionLoader):
    """A list section as its parts see it: the kind, the rows shown and the cursor, the
    widgets they update, and the few ways they have it show its rows again."""

    kind: ResourceKind
    shown_items: list[JsonObject]
    """What the table shows, row for row."""
    cursor: ListCursor

    @property
    def table(self) -> RowTable:
        return self.query_one(RowTable)

    @property
    def state_panel(self) -> StatePanel:
        return self.query_one(StatePanel)

    @property
    def filter_input(self) -> FilterInput:
        return self.query_one(FilterInput)

    @property
    def current_row(self) -> JsonObject | None:
        """The highlighted object as the service sent it."""
        row, shown = self.table.cursor_row, self.shown_items
        return shown[row] if shown and 0 <= row < len(shown) else None

    def place(self, focus_id: str | None = None) -> Place:
        """Where the cursor is: the ids to put it back on, best first, and its row."""
        return self.cursor.place(self.shown_items, self.table.cursor_row, focus_id)

    def focus_table(self) -> None:
        """The table when it shows, else the list itself, so its keys keep working."""
        if self.table.display:
            self.table.focus()
        else:
            self.focus()

    def post_status(self) -> None:
        """The footer's line says `status_text` as of now."""
        self.post_message(StatusChanged(self, self.status_text))

    def local_index(self) -> LocalIndex | None:
        """The profile's local index (console.client.index), once the client has opened it."""
        client = console_app(self).connected_client()
        return client.index if client is not None else None

    # ---- what the list itself does ---------------------------------------------------------

    def refresh_view(
        self, current: JsonObject | None = None, *, place: Place | None = None
    ) -> None:
        """The table shows again what it should, the cursor on `current` (or at `place`)."""
        raise NotImplementedError

    def show_state(self, *, first_page: bool = False) -> None:
        """The table when it has rows to show, else the empty state saying why."""
        raise NotImplementedError

    def show_page(self, page: int, fetched: Fetched) -> None:
        """A page read joins the rows."""
        raise NotImplementedError

    def show_failure(self, exc: BaseException, page: int) -> None:
        """A page could not be read: said in place of the rows (page 1) and to the screen."""
        raise NotImplementedError

    def replace_rows(self, pages: list[Fetched], place: Place) -> None:
        """The pages read again replace the rows, the cursor back at `place`."""
        raise NotImplementedError

    def add_found(self, items: list[JsonObject]) -> None:
        """A search's new matches join the rows shown."""
        raise NotImplementedError

    def start_over(self) -> None:
        """From page 1 again, under the filter in force."""
        raise NotImplementedError

    def start_search(self, row_filter: RowFilter) -> None:
        """A search of the whole tenant for the rows `row_filter` matches."""
        raise NotImplementedError
