"""A paginated browser of one resource: server-side pages, a live filter, k9s-style.

Only the pages the cursor reaches are fetched: the first shows as soon as it arrives, the next
when the cursor comes within PREFETCH_MARGIN rows of the end of what is loaded. Rows are the
objects as the service sent them (dicts); `current_item` makes the model of the highlighted one.

`/` filters the loaded rows as one types (console.tui.browse.row_filter); enter answers at once
from what is known (the loaded rows that match and the profile's local index, marked), then asks
the service: its filter where the API has one, else a search of the whole tenant
(console.tui.browse.search), also when every row is loaded, its matches taking the places of
what was shown as their pages arrive. The table shows `shown_items`: the loaded rows, the ones
the live filter keeps, enter's first answer, or the search's matches.

The widget composes, shows and wires; each concern is a part it owns, typed against
console.tui.widgets.list_section: the pages loaded (list_pages) and their reading (list_paging),
their order (list_order), the cursor (list_cursor), the filter (list_filter), the tenant
search (list_search) and how fresh the rows are (list_freshness).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input

from console.clock import now
from console.tui.base.app_access import console_app
from console.tui.base.clock_ticks import follow_clock
from console.tui.base.notices import notify_once
from console.tui.base.problems import describe
from console.tui.browse.kinds import PAGE_SIZE, Fetched, ResourceKind
from console.tui.widgets.list_cursor import ListCursor, Place
from console.tui.widgets.list_filter import ListFilter
from console.tui.widgets.list_freshness import OLD_AFTER, AgeNote, ListFreshness
from console.tui.widgets.list_order import LOADED_ROWS_ONLY, Row, RowOrder, sort_key
from console.tui.widgets.list_pages import ListPages, answered
from console.tui.widgets.list_paging import Pager, RateLimitNote
from console.tui.widgets.list_search import ListSearch
from console.tui.widgets.list_section import FilterInput, ListSection
from console.tui.widgets.row_table import RowTable, TableColumn
from console.tui.widgets.section_messages import SectionFailed
from console.tui.widgets.state_panel import StatePanel

if TYPE_CHECKING:
    from concurrent.futures import Future

    from console.tui.base.shown import JsonObject, Query, Shown
    from console.tui.browse.row_filter import RowFilter
    from console.tui.browse.search import TenantSearch

__all__ = [
    "LOADED_ROWS_ONLY",
    "OLD_AFTER",
    "PAGE_SIZE",
    "AgeNote",
    "FilterInput",
    "ResourceList",
    "sort_key",
]

LOADING_DELAY = 0.25
"""Seconds a first page may take before "Loading…" replaces the empty table: a quick answer
never flashes it (nor pays for drawing it)."""

SORT_KEYS = Binding.Group("Sort/Rev")
"""s and S share one footer label: "s S Sort/Rev"."""


class ResourceList(Vertical, ListSection):
    """The list section of one ResourceKind: composes its widgets, shows the rows its parts
    hold, and hands each key and message to the part it concerns."""

    load_group = "pages"

    BINDINGS = [
        Binding("slash", "filter", "Filter"),
        Binding("escape", "escape", "Stop / clear filter", show=False),
        Binding("ctrl+g", "load_all_sorted", "Load all and sort", show=False),
        Binding("s", "sort", "Sort", group=SORT_KEYS, tooltip="Sort by the next column"),
        Binding("S", "sort_reverse", "Reverse sort", group=SORT_KEYS, tooltip="Reverse the order"),
    ]

    class Opened(Message):
        """The admin asked to open an item (enter); `item` is the row as sent."""

        def __init__(self, kind: ResourceKind, item: JsonObject) -> None:
            super().__init__()
            self.kind = kind
            self.item = item

    can_focus = True

    def __init__(
        self,
        kind: ResourceKind,
        *,
        page_size: int = PAGE_SIZE,
        first_page: Future[JsonObject | None] | None = None,
        **kwargs: Any,
    ) -> None:
        """`first_page`: page 1 (unfiltered, `page_size` rows), requested before the list was
        composed so that the request and the composing overlap; the first load uses it."""
        super().__init__(**kwargs)
        self.kind = kind
        self.pages = ListPages(kind, page_size, first_page)
        self._rate = RateLimitNote(self)
        self.pager = Pager(self, self.pages, self._rate)
        self.order = RowOrder(kind)
        self.cursor = ListCursor(kind)
        self.list_search = ListSearch(self, self.pages, self._rate)
        self.list_filter = ListFilter(self, self.pages, self.pager, self.list_search)
        self.freshness = ListFreshness(self, self.pages, self.pager, self.list_search)
        self._loading_timer: Timer | None = None
        self.shown_items: list[JsonObject] = self.pages.items
        """What the table shows, row for row: `items`, the live filter's, or the matches."""

    def compose(self) -> ComposeResult:
        placeholder = f"/ filter {self.kind.title.lower()} by {self.kind.filter_placeholder}"
        yield FilterInput(placeholder=placeholder, classes="filter")
        yield AgeNote()
        columns = [
            TableColumn(c.key, c.label, c.width, c.min_width, c.drop_order, c.grow)
            for c in self.kind.columns
        ]
        yield RowTable(columns, zebra_stripes=True)
        yield StatePanel()

    def on_mount(self) -> None:
        if answered(self.pages.first_page):  # the early page is here: show it in the first frame
            self.ensure_loaded()
        follow_clock(self, self.freshness.show_age)

    # ---- what screens, the palette and tests read (the parts keep it) --------------------

    @property
    def items(self) -> list[JsonObject]:
        """The loaded objects, as the service sent them, in row order."""
        return self.pages.items

    @property
    def rows(self) -> list[Row]:
        """The table's cells of each item, in the same order as `items`."""
        return self.pages.rows

    @property
    def labels(self) -> dict[str, str]:
        return self.pages.labels

    @property
    def total(self) -> int | None:
        return self.pages.total

    @property
    def has_more(self) -> bool:
        return self.pages.has_more

    @property
    def pages_fetched(self) -> list[int]:
        return self.pages.pages_fetched

    @property
    def page_size(self) -> int:
        return self.pages.page_size

    @page_size.setter
    def page_size(self, size: int) -> None:
        self.pages.page_size = size

    @property
    def filter_text(self) -> str:
        """The server's filter in force, as typed."""
        return self.pages.filter_text

    @property
    def query_params(self) -> Query:
        return self.pages.query_params

    @property
    def live(self) -> RowFilter | None:
        return self.list_filter.live

    @property
    def search(self) -> TenantSearch | None:
        return self.list_search.search

    @property
    def searching(self) -> bool:
        return self.list_search.searching

    @property
    def search_stopped(self) -> bool:
        return self.list_search.search_stopped

    @property
    def sort(self) -> tuple[int, bool] | None:
        """(column index, descending) while the loaded rows are sorted; None: server order."""
        return self.order.sort

    @property
    def refreshing(self) -> bool:
        return self.freshness.refreshing

    @property
    def loading_to_end(self) -> bool:
        return self.pager.loading_to_end

    @property
    def current_item(self) -> Shown | None:
        """The highlighted object as a model (console.models), made when first asked for."""
        row = self.current_row
        return None if row is None else self.cursor.model(row)

    @property
    def status_text(self) -> str:
        if self.problem is not None:
            return "failed"
        if not self.loaded and self.fetching:
            return "loading…"
        if not self.loaded:
            return ""
        narrowed = self.list_search.status()
        if narrowed is None:
            narrowed = self.list_filter.status(loading_to_end=self.pager.loading_to_end)
        if narrowed is not None:
            return narrowed
        pages = self.pages
        if pages.total is None:  # the service sent no totals
            more = ", more available" if pages.has_more else ""
            text = f"{len(pages.items)} loaded{more}"
        else:
            text = f"{len(pages.items)} of {pages.total} loaded"
        if self.pager.loading_to_end:
            text += f" · loading all{self._rate.text()} (esc stops)…"
        elif self.freshness.refreshing:
            text += " · refreshing…"
        elif self.fetching:
            text += " · loading more…"
        if self.order.sort is not None and pages.has_more:
            # The header marks the column (▲/▼); the footer has little room. The sort's
            # notification says the same words (RowOrder.note).
            text += f" · {LOADED_ROWS_ONLY}"
        return text

    # ---- loading -------------------------------------------------------------------------

    def ensure_loaded(self) -> None:
        """On opening the section: the first page, or, for a list older than OLD_AFTER, its
        loaded pages read again in place (rows and cursor stay until the new ones come), when
        the profile's request budget has room for it (see ListFreshness)."""
        if self.freshness.may_refresh_unasked():
            self.reload()
            return
        super().ensure_loaded()

    def reset(self) -> None:
        """Forgets everything (a new profile): the next ensure_loaded starts over."""
        self.reset_load_state()
        self.pages.clear()
        self._stop_loading_timer()
        self.pager.reset()
        self.freshness.refreshing = False
        self.cursor.forget()
        self.list_search.end()
        self.list_filter.resume(None)
        self.shown_items = self.pages.items
        if self.is_mounted:
            self.table.clear()
            with self.filter_input.prevent(Input.Changed):
                self.filter_input.value = ""
            self.filter_input.remove_class("-visible", "-unknown", "-refused")
            self.state_panel.hide()
            self.freshness.show_age()
            self.post_status()

    def reload(self, focus_id: str | None = None) -> None:
        """Loads the list again with the current filter (`r`, after a change). Rows on screen
        stay there until the new ones replace them, the cursor on the same object (`focus_id`
        first, when given: the one just created or changed; after a delete, its neighbour)
        and the view where it was; a failure keeps them, marked stale."""
        if self.loaded and self.problem is None:
            self.freshness.refresh(focus_id)
        else:
            self.start_over()

    def start_over(self) -> None:
        """Starts over from page 1 with the current filter (a new filter, a failed first load)."""
        pages = self.pages
        first_page = pages.take_first_page()
        filter_text, query, live = pages.filter_text, pages.query_params, self.list_filter.live
        self.reset()
        pages.filter_text, pages.query_params = filter_text, query
        if live is not None:  # the live filter stays; a search is not run again
            self.list_filter.resume(live)
            self.shown_items = []
        applied = self.list_filter.applied_text
        if applied:
            with self.filter_input.prevent(Input.Changed):
                self.filter_input.value = applied
            self.filter_input.add_class("-visible")
            self.filter_input.set_class(bool(live and live.not_a_column), "-unknown")
        self.table.display = True  # reset() hid a failure or an empty answer
        self._loading_timer = self.set_timer(LOADING_DELAY, self._show_loading)
        if first_page is not None and query:
            first_page.cancel()
            first_page = None
        self.pager.fetch(1, first_page)

    def _show_loading(self) -> None:
        """The first page is slow: say so in place of the empty table."""
        self._loading_timer = None
        if self.loaded or self.problem is not None:
            return
        refocus = self.table.has_focus
        self.table.display = False
        if refocus:
            self.focus()
        self.state_panel.show_loading(self.kind.title.lower())

    def _stop_loading_timer(self) -> None:
        if self._loading_timer is not None:
            self._loading_timer.stop()
            self._loading_timer = None

    def _fetch_more(self) -> None:
        """The next page if the cursor is near the end of the loaded rows (Pager.fetch_more)."""
        narrowed = self.list_filter.live is not None or self.list_search.search is not None
        self.pager.fetch_more(narrowed=narrowed)

    # ---- showing the rows ----------------------------------------------------------------

    def show_page(self, page: int, fetched: Fetched) -> None:
        self._stop_loading_timer()
        self.fetching = False
        self.loaded = True
        self.problem = None
        if page == 1:
            self.loaded_at = now()
            self.freshness.show_age()
        new, rows = self.pages.add(page, fetched)
        table = self.table
        # A search, or enter's first answer, shows its own rows; the new ones wait behind.
        if not self.list_search.shows_own_rows:
            live = self.list_filter.live
            if live is None:
                table.add_rows(rows)  # shown_items is items
            else:
                kind, labels = self.kind, self.pages.labels
                pairs = zip(new, rows, strict=True)
                kept = [(item, row) for item, row in pairs if live.matches(kind, item, labels)]
                self.shown_items.extend(item for item, _row in kept)
                table.add_rows(row for _item, row in kept)
            if self.order.sort is not None and new:
                self._sort_rows()
        self.show_state(first_page=page == 1)
        if self.pager.loading_to_end and not self.pages.has_more:
            self.pager.loading_to_end = False
            table.move_cursor(row=len(self.shown_items) - 1)
        self.post_status()
        self._fetch_more()

    def replace_rows(self, pages: list[Fetched], place: Place) -> None:
        """The pages read again replace the rows; the cursor goes back to its object (or its
        neighbour, or its row), the view stays scrolled where it was."""
        self.fetching = False
        self.problem = None
        self.loaded_at = now()
        self.clear_stale()
        self.list_search.end()
        self.pages.replace(pages, self.order)
        self.cursor.forget()
        self.refresh_view(place=place)
        self.freshness.refreshing = False
        self.show_state()
        self.post_status()
        self.freshness.show_age()
        self._fetch_more()

    def add_found(self, items: list[JsonObject]) -> None:
        """A search's new matches join the rows shown (sorted in, when a sort is in force)."""
        kind, labels = self.kind, self.pages.labels
        pairs = [(item, kind.row_cells(item, labels)) for item in items]
        self.list_search.found.extend(pairs)
        if self.order.sort is not None:
            self.refresh_view(self.current_row)
        else:
            self.shown_items.extend(item for item, _row in pairs)
            self.table.add_rows(row for _item, row in pairs)
        self.show_state()

    def show_state(self, *, first_page: bool = False) -> None:
        """The table when it has rows to show, else the empty state saying why and what next."""
        table = self.table
        if self.shown_items:
            if self.state_panel.kind is not None:
                self.state_panel.hide()
            table.display = True
            # "Loading…" hid the table and gave the list the focus; the first page gives it
            # back (also when nothing holds the focus yet, as at start).
            focused = self.screen.focused
            if self.display and (focused is self or (first_page and focused in (None, table))):
                table.focus()  # the list held the focus while it had no rows to show
            return
        refocus = table.has_focus or self.screen.focused is None
        table.display = False
        if refocus and self.display:
            self.focus()
        self.state_panel.show_empty(*self._empty_text())

    def _empty_text(self) -> tuple[str, str]:
        """(title, hint) of the empty state: no objects, none matching, or a search's."""
        title = self.kind.title.lower()
        said = self.list_search.empty_text(self.list_filter.applied_text)
        if said is None:
            said = self.list_filter.empty_text(title)
        if said is not None:
            return said
        filter_text = self.pages.filter_text
        hint = "Press escape to clear the filter." if filter_text else "Press r to refresh."
        return self.kind.empty_message(filter_text), hint

    def show_failure(self, exc: BaseException, page: int) -> None:
        self._stop_loading_timer()
        self.fetching = False
        self.pager.loading_to_end = False
        problem = describe(exc, permission=self.kind.permission, what=self.kind.title.lower())
        if page == 1 or not self.pages.items:
            self.problem = problem
            refocus = self.table.has_focus
            self.table.display = False
            if refocus or self.screen.focused is None:
                self.focus()
            self.state_panel.show_problem(problem)
        self.post_status()
        self.post_message(SectionFailed(self, problem))

    def stale_banner_anchor(self) -> RowTable:
        return self.table

    def refresh_view(
        self, current: JsonObject | None = None, *, place: Place | None = None
    ) -> None:
        """The table shows again what it should (the loaded rows, the live filter's, the
        search's matches, sorted as asked), the cursor on `current` where it still shows
        (or at `place`: the rows were read again)."""
        fresh = place is not None
        search, live = self.list_search, self.list_filter.live
        if search.checking is not None:
            pairs = self.order.sorted(list(search.checking))
        elif search.search is not None:
            pairs = self.order.sorted(list(search.found))
        elif live is not None:
            kind, labels = self.kind, self.pages.labels
            pairs = [pair for pair in self.pages.pairs() if live.matches(kind, pair[0], labels)]
        else:
            self.shown_items = self.pages.items
            cursor = self.cursor.row_in(self.shown_items, current, place)
            self._set_table_rows(self.pages.rows, cursor, new_cells=fresh)
            return
        self.shown_items = [item for item, _row in pairs]
        rows = [row for _item, row in pairs]
        cursor = self.cursor.row_in(self.shown_items, current, place)
        self._set_table_rows(rows, cursor, new_cells=fresh)

    def _set_table_rows(self, rows: list[Row], cursor: int, *, new_cells: bool = False) -> None:
        """The table's rows, the cursor at `cursor`; the view scrolls only as far as it must
        to show it (a list read again stays where it was). `new_cells`: rows read again,
        whose cells may be wider than those shown (the columns' widths then grow)."""
        table = self.table
        if table.row_count == len(rows) and not new_cells:  # the same, in another order
            table.replace_rows(rows, cursor=cursor)
        else:
            table.set_rows(rows, cursor=cursor)

    # ---- the rows' keys ------------------------------------------------------------------

    @on(RowTable.RowHighlighted)
    def _row_highlighted(self, event: RowTable.RowHighlighted) -> None:
        event.stop()
        self._fetch_more()

    @on(RowTable.RowSelected)
    def _row_selected(self, event: RowTable.RowSelected) -> None:
        """Enter opens the highlighted object; one only the local index knows so far is
        read afresh by its id (it may be gone)."""
        event.stop()
        item = self.current_row
        if item is None:
            return
        if self.list_search.only_indexed(item):
            console_app(self).open_detail_by_id(self.kind, self.kind.item_id(item))
        else:
            self.post_message(self.Opened(self.kind, item))

    @on(RowTable.EndRequested)
    def _end_requested(self, event: RowTable.EndRequested) -> None:
        """`G` goes to the last loaded row; `G` again from there loads the rest (Pager)."""
        event.stop()
        self.pager.end_requested(event.cursor_row, searching=self.list_search.search is not None)

    def load_to_end(self) -> None:
        """Fetches the remaining pages, a few in flight; escape stops (Pager.load_to_end)."""
        self.pager.load_to_end()

    # ---- sorting -------------------------------------------------------------------------

    def action_sort(self) -> None:
        """`s`: sort the loaded rows by the next column (server order after the last)."""
        self.order.next_column()
        self._sort_changed()

    def action_sort_reverse(self) -> None:
        """`S`: reverse the order (descending by the first column if none was sorted)."""
        self.order.reverse()
        self._sort_changed()

    def sort_by(self, column: int, descending: bool = False) -> None:
        """Sorts the loaded rows by this column (the palette's "Sort ... by ...")."""
        self.order.sort = (column, descending)
        self._sort_changed()

    def action_load_all_sorted(self) -> None:
        """ctrl+g: every page, and the sort in force (by the first column if none) covers
        every row."""
        column, descending = self.order.sort or (0, False)
        self.load_all_sorted(column, descending)

    def load_all_sorted(self, column: int, descending: bool = False) -> None:
        """The palette's "Load all ... and sort by ...": sorted now, and the pages still to
        come join the sort as they arrive (escape stops the loading)."""
        self.sort_by(column, descending)
        self.load_to_end()

    def _sort_changed(self) -> None:
        """A sort asked for (`s`, `S`, the palette). All rows loaded: the cursor stays on its
        row. Pages remaining: the top of the sorted rows shows, and no page is fetched for
        it (the row followed to near the end would fetch the next); the note says what the
        footer says."""
        self._sort_rows(top=self.pages.has_more)
        order, pages, search = self.order, self.pages, self.list_search
        self.table.set_sort(*(order.sort or (None, False)))
        matches = len(search.found) if search.search is not None else None
        note = order.note(
            matches=matches, loaded=len(pages.items), total=pages.total, has_more=pages.has_more
        )
        notify_once(self.app, "sort", note, title=self.kind.title)
        self.post_status()

    def _sort_rows(self, *, top: bool = False) -> None:
        """The loaded rows in the order in force, keeping the cursor's row (a page that
        arrived), or with the cursor on the first row (`top`: a new sort)."""
        current = None if top else self.current_row
        pages, order = self.pages, self.order
        if order.sort is None:
            pages.put(order.server_order(pages.pairs(), pages.arrived))
        else:
            pages.put(order.sorted(pages.pairs()))
        self.refresh_view(current)

    # ---- filter and search ---------------------------------------------------------------

    def action_filter(self) -> None:
        self.list_filter.open()

    def apply_filter(self, text: str) -> None:
        """The list filtered by `text` as if typed after `/` and entered (`L` on an object:
        the Logs section with its entries), once mounted."""
        with self.filter_input.prevent(Input.Changed):
            self.filter_input.value = text
        self.filter_input.add_class("-visible")
        self.list_filter.apply(text)

    def action_escape(self) -> None:
        """Stops a load to the end or a search, else clears the filter."""
        if self.pager.loading_to_end:
            self.pager.stop_loading_to_end()
        elif self.list_search.searching:
            self.list_search.stop()
        else:
            self.list_filter.apply("")

    @on(Input.Changed, "FilterInput")
    def _filter_edited(self, event: Input.Changed) -> None:
        event.stop()
        self.list_filter.edited(event.value)

    @on(events.DescendantBlur, "FilterInput")
    def _filter_left(self, event: events.DescendantBlur) -> None:
        self.list_filter.left()

    @on(Input.Submitted, "FilterInput")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.list_filter.apply(event.value.strip())

    @on(FilterInput.Cancelled)
    def _filter_cancelled(self, event: FilterInput.Cancelled) -> None:
        event.stop()
        self.list_filter.apply("")

    def start_search(self, row_filter: RowFilter) -> None:
        """Searches the whole tenant for the rows `row_filter` matches, the loaded ones and
        those the local index knows shown at once (ListSearch.start); escape stops it."""
        self.list_filter.live = row_filter
        self.list_search.start(row_filter)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "escape":
            return (
                bool(self.pages.filter_text)
                or self.list_filter.live is not None
                or self.list_search.search is not None
                or self.pager.loading_to_end
            )
        return True
