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
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from concurrent.futures import Future
from contextlib import aclosing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static

from console.clock import now
from console.tui.base.app_access import console_app
from console.tui.base.clock_ticks import follow_clock
from console.tui.base.formatting import clock_time, relative
from console.tui.base.notices import notify_once
from console.tui.base.problems import describe
from console.tui.browse.kinds import PAGE_SIZE, Fetched, FilterInvalid, ResourceKind, list_page
from console.tui.browse.row_filter import RowFilter, column_words, parse_row_filter
from console.tui.browse.search import TenantSearch
from console.tui.widgets.row_table import Cell, RowTable, TableColumn
from console.tui.widgets.section_loader import SectionLoader
from console.tui.widgets.section_messages import SectionFailed, StatusChanged
from console.tui.widgets.state_panel import StatePanel

if TYPE_CHECKING:
    from console.client.budget import RequestBudget
    from console.tui.base.shown import JsonObject, Query, Shown

log = logging.getLogger("console.tui")

Row = tuple[Cell, ...]
"""One row's cells, as the kind draws them."""
Pair = tuple["JsonObject", Row]
"""An object as sent and its row's cells."""

PREFETCH_MARGIN = 10
INDEX_KINDS = {"applications": "applications", "proxies": "proxies"}
INDEX_KINDS["reactor_formulas"] = "formulas"
"""A list's kind as the local index names it (console.client.index)."""


LOADED_ROWS_ONLY = "sorted: loaded rows only"
"""The footer's words for a sort of a partly loaded list; the sort's note says them too."""
SEARCH_STATUS_INTERVAL = 0.25
"""Seconds between two progress lines of a search without new matches: a new status lays
the footer out again, and a page can come every few milliseconds."""
LOADING_DELAY = 0.25
"""Seconds a first page may take before "Loading…" replaces the empty table: a quick answer
never flashes it (nor pays for drawing it)."""
OLD_AFTER = 5 * 60
"""Seconds after which a list says how old it is, and is read again when its section is
opened again: objects created meanwhile by the CLI, an undo or another admin then show."""
REFRESH_SHARE = 2
"""A list read again unasked (opened again) may take at most 1/REFRESH_SHARE of the requests
the profile's budget has left this minute; else it only says its age (r still reads it)."""


class AgeNote(Static):
    """One line above an old list: when it was loaded, and how to have it read again."""

    DEFAULT_CSS = """
    AgeNote { height: 1; padding: 0 1; color: $text-muted; background: $boost;
              text-wrap: nowrap; text-overflow: ellipsis; display: none; }
    AgeNote.-shown { display: block; }
    """


def sort_key(cell: Cell) -> tuple[int | str, ...]:
    """A cell's text as it sorts for a person: case-insensitive, numbers by value
    ("9 rules" before "10 rules"); dates as shown (YYYY-MM-DD HH:MM) sort by time."""
    text = cell.plain if isinstance(cell, Text) else str(cell)
    parts = re.split(r"(\d+)", text.casefold())
    return tuple(int(part) if n % 2 else part for n, part in enumerate(parts))


def _answered(requested: Future[JsonObject | None] | None) -> bool:
    """Whether an early page request has already brought a page (not None, no error)."""
    if requested is None or not requested.done() or requested.cancelled():
        return False
    return requested.exception() is None and requested.result() is not None


@dataclass(frozen=True)
class Place:
    """Where the cursor stood before the rows were read again: the ids of the objects to put
    it back on, best first, and its row, for when none of them is there any more."""

    ids: tuple[str, ...]
    row: int


SORT_KEYS = Binding.Group("Sort/Rev")
"""s and S share one footer label: "s S Sort/Rev"."""


class FilterInput(Input):
    """The `/` filter: the loaded rows follow what is typed; enter asks the service or
    searches the tenant, escape clears it."""

    BINDINGS = [Binding("escape", "cancel", "Clear filter", show=True)]

    class Cancelled(Message):
        pass

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())


class ResourceList(Vertical, SectionLoader):
    """The list section of one ResourceKind, with its paging state."""

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
        self._first_page = first_page
        self.page_size = page_size
        self.items: list[JsonObject] = []
        """The loaded objects, as the service sent them, in row order."""
        self.total: int | None = None
        self.has_more = False
        self.pages_fetched: list[int] = []
        self.filter_text = ""
        self.query_params: Query = {}
        self._seen: set[str] = set()
        self.labels: dict[str, str] = {}
        self._typed: tuple[JsonObject, Shown] | None = None
        self._loading_timer: Timer | None = None
        self.rows: list[Row] = []
        self._arrived: list[JsonObject] = []
        """The items in the order the server sent them (for `s` back to server order)."""
        """The table's cells of each item, in the same order as `items`."""
        self.sort: tuple[int, bool] | None = None
        """(column index, descending) while the loaded rows are sorted; None: server order."""
        self.refreshing = False
        """The loaded pages are being read again behind the rows shown (see reload)."""
        self.loading_to_end = False
        """`G` twice (or ctrl+g): the remaining pages are fetched, a few in flight."""
        self._walking_rest = False
        """Whether load all's walk is under way (it, not the cursor, asks for pages)."""
        self._end_armed_row: int | None = None
        """The row a first `G` went to; a `G` from there loads to the end."""
        self.live: RowFilter | None = None
        """The `/` filter of the loaded rows (and of a tenant search's pages); None: none."""
        self._live_before: RowFilter | None = None
        """The live filter in force when `/` was pressed: a refused text goes back to it."""
        self.search: TenantSearch | None = None
        """The tenant search whose matches the table shows (running or not)."""
        self.searching = False
        self.search_stopped = False
        self._found: list[Pair] = []
        """The search's matches with their cells, in the server's order (those the local
        index knows first, until the walk confirms them)."""
        self._indexed: dict[str, JsonObject] = {}
        """Rows shown from the local index that the walk has not confirmed yet, by id."""
        self._gone = 0
        """Rows the index knew that the search's complete walk did not find."""
        self._unconfirmed: dict[str, JsonObject] = {}
        """Loaded rows the search showed at once that its walk has not read again yet, by id:
        the walk puts the service's row in place of each (or marks it no longer found)."""
        self._lost = 0
        """Loaded rows shown by the search that its complete walk did not find again."""
        self._checking: list[Pair] | None = None
        """What enter showed at once while the service's filter is asked (the loaded rows
        that match and what the local index knows), until its answer replaces them."""
        self._budget: RequestBudget | None = None
        """The client's request budget, watched once a walk starts (see _watch_budget)."""
        self.index_caption = ""
        """ "from the index, 3 minutes old" while the search shows rows from the index."""
        self.shown_items: list[JsonObject] = self.items
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
        if _answered(self._first_page):  # the early page is here: show it in the first frame
            self.ensure_loaded()
        follow_clock(self, self.show_age)

    # ---- age -----------------------------------------------------------------------------

    @property
    def age(self) -> float | None:
        """Seconds since the rows shown were read (console.clock: tests move it), or None."""
        if not self.loaded or self.loaded_at is None or self.problem is not None:
            return None
        return max(0.0, (now() - self.loaded_at).total_seconds())

    @property
    def is_old(self) -> bool:
        age = self.age
        return age is not None and age >= OLD_AFTER

    @property
    def age_text(self) -> str:
        """ "Loaded 7 minutes ago, at 14:02 · r or opening it again refreshes" for an old list,
        else ""; a list marked stale (a refresh failed) says its time in the stale banner."""
        if not self.is_old or self.stale_note or self.loaded_at is None:
            return ""
        doing = "refreshing…" if self.refreshing else "r or opening it again refreshes"
        return f"Loaded {relative(self.loaded_at)}, at {clock_time(self.loaded_at)} · {doing}"

    def show_age(self) -> None:
        """The age line as of now (the clock's ticks, and after every load)."""
        if not self.is_mounted:
            return
        note, text = self.query_one(AgeNote), self.age_text
        if text:
            note.update(text)
        note.set_class(bool(text), "-shown")

    def ensure_loaded(self) -> None:
        """On opening the section: the first page, or, for a list older than OLD_AFTER, its
        loaded pages read again in place (rows and cursor stay until the new ones come), when
        the profile's request budget has room for it (see REFRESH_SHARE)."""
        if self.is_old and self._may_refresh_unasked():
            self.reload()
            return
        super().ensure_loaded()

    def _may_refresh_unasked(self) -> bool:
        """Nothing under way that a refresh would drop (a search's matches, load all), and
        the refresh's requests within the share of the budget left this minute."""
        if self.fetching or self.refreshing or self.search is not None or self.loading_to_end:
            return False
        if self._checking is not None:
            return False
        budget = getattr(console_app(self).connected_client(), "budget", None)
        room = budget.room() if budget is not None else None
        return room is None or max(1, len(self.pages_fetched)) <= room // REFRESH_SHARE

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

    @property
    def applied_text(self) -> str:
        """The filter text in force: the live filter's (a search's), else the server's."""
        return self.live.text if self.live is not None else self.filter_text

    @property
    def search_progress(self) -> str:
        """ "page 37 of 100, 4 matches": the walk's pages and the matches shown."""
        search = self.search
        if search is None:
            return ""
        n = self.match_count
        of = f" of {search.pages}" if search.pages is not None else ""
        return f"page {search.page}{of}, {n} match{'' if n == 1 else 'es'}"

    @property
    def match_count(self) -> int:
        """The search's matches the service has confirmed (not those only the index knows,
        nor those it no longer has)."""
        return len(self._found) - len(self._indexed) - self._gone - self._lost

    @property
    def current_item(self) -> Shown | None:
        """The highlighted object as a model (console.models), made when first asked for."""
        row = self.current_row
        if row is None:
            return None
        if self._typed is None or self._typed[0] is not row:
            self._typed = (row, self.kind.model_of(row))
        return self._typed[1]

    @property
    def status_text(self) -> str:
        if self.problem is not None:
            return "failed"
        if not self.loaded and self.fetching:
            return "loading…"
        if not self.loaded:
            return ""
        if self._checking is not None:
            return self._checking_status()
        if self.search is not None:
            return self._search_status()
        if self.live is not None:
            return self._live_status()
        if self.total is None:  # the service sent no totals
            more = ", more available" if self.has_more else ""
            text = f"{len(self.items)} loaded{more}"
        else:
            text = f"{len(self.items)} of {self.total} loaded"
        if self.loading_to_end:
            text += f" · loading all{self._waiting()} (esc stops)…"
        elif self.refreshing:
            text += " · refreshing…"
        elif self.fetching:
            text += " · loading more…"
        if self.sort is not None and self.has_more:
            # The header marks the column (▲/▼); the footer has little room. The sort's
            # notification says the same words (sort_note).
            text += f" · {LOADED_ROWS_ONLY}"
        return text

    def _search_status(self) -> str:
        progress = self.search_progress
        if self.searching:
            indexed = f" · {len(self._indexed)} {self.index_caption}" if self._indexed else ""
            return f"searching: {progress}{indexed}{self._waiting()} · esc stops"
        if self.search_stopped:
            return f"search stopped at {progress}"
        search = self.search
        assert search is not None
        n = self.match_count
        gone = f" · {self._gone} no longer exist" if self._gone else ""
        gone += f" · {self._lost} no longer found" if self._lost else ""
        matches = f"{n} match{'' if n == 1 else 'es'}"
        return f"{matches} in {search.total or 0} {self.kind.title.lower()}{gone}"

    def _checking_status(self) -> str:
        """ "checking the service… · 2 from the index, 3 minutes old": enter's first answer,
        shown while the service's filter is asked."""
        indexed = f" · {len(self._indexed)} {self.index_caption}" if self._indexed else ""
        return f"checking the service…{indexed}{self._waiting()}"

    def _waiting(self) -> str:
        """ " · waiting for the rate limit, 12 s" while a request of this list waits for the
        profile's budget (see _watch_budget), else ""."""
        budget = self._budget
        if budget is None or not budget.waiting:
            return ""
        from console.client.budget import waiting_text

        return f" · {waiting_text(budget.waiting)}"

    def _watch_budget(self) -> None:
        """The footer says when a search or load all waits for the rate limit (once per
        client: a new profile's client is watched anew)."""
        client = console_app(self).connected_client()
        budget = getattr(client, "budget", None)
        if budget is None or budget is self._budget:
            return
        self._budget = budget
        budget.watch(lambda _seconds: self._status() if self.is_mounted else None)

    def _live_status(self) -> str:
        live = self.live
        assert live is not None
        loaded = "loaded rows" if self.has_more else "rows"
        text = f"{len(self.shown_items)} of {len(self.items)} {loaded} match"
        if live.not_a_column:
            text += f" · “{live.not_a_column}” is no column: matched as text"
        elif self.has_more:
            text += " · enter searches the rest"
        if self.loading_to_end:
            text += " · loading all (esc stops)…"
        return text

    @property
    def sort_description(self) -> str:
        """ "by Name ↑", and which rows when not all are loaded ("of 50 loaded rows")."""
        if self.sort is None:
            return "server order"
        column, descending = self.sort
        text = f"by {self.kind.columns[column].label} {'↓' if descending else '↑'}"
        if self.search is not None:
            text += f" (the {len(self._found)} matches found)"
        elif self.has_more:
            text += f" (the {len(self.items)} loaded rows)"
        return text

    def focus_table(self) -> None:
        """The table when it shows, else the list itself, so its keys keep working."""
        if self.table.display:
            self.table.focus()
        else:
            self.focus()

    # ---- loading -------------------------------------------------------------------------

    def reset(self) -> None:
        """Forgets everything (a new profile): the next ensure_loaded starts over."""
        self.reset_load_state()
        if self._first_page is not None:
            self._first_page.cancel()
            self._first_page = None
        self._stop_loading_timer()
        self.items, self.total, self.has_more, self.pages_fetched = [], None, False, []
        self.rows, self._arrived, self.loading_to_end = [], [], False
        self.refreshing = False
        self._walking_rest = False
        self._end_armed_row = None
        self._seen, self.labels, self._typed = set(), {}, None
        self.filter_text, self.query_params = "", {}
        self._end_search()
        self.live = self._live_before = None
        self.shown_items = self.items
        if self.is_mounted:
            self.table.clear()
            with self.filter_input.prevent(Input.Changed):
                self.filter_input.value = ""
            self.filter_input.remove_class("-visible", "-unknown", "-refused")
            self.state_panel.hide()
            self.show_age()
            self._status()

    def reload(self, focus_id: str | None = None) -> None:
        """Loads the list again with the current filter (`r`, after a change). Rows on screen
        stay there until the new ones replace them, the cursor on the same object (`focus_id`
        first, when given: the one just created or changed; after a delete, its neighbour)
        and the view where it was; a failure keeps them, marked stale."""
        if self.loaded and self.problem is None:
            self._refresh_in_place(focus_id)
        else:
            self.start_over()

    def start_over(self) -> None:
        """Starts over from page 1 with the current filter (a new filter, a failed first load)."""
        first_page, self._first_page = self._first_page, None
        filter_text, query, live = self.filter_text, self.query_params, self.live
        self.reset()
        self.filter_text, self.query_params = filter_text, query
        if live is not None:  # the live filter stays; a search is not run again
            self.live = self._live_before = live
            self.shown_items = []
        if self.applied_text:
            with self.filter_input.prevent(Input.Changed):
                self.filter_input.value = self.applied_text
            self.filter_input.add_class("-visible")
            self.filter_input.set_class(bool(live and live.not_a_column), "-unknown")
        self.table.display = True  # reset() hid a failure or an empty answer
        self._loading_timer = self.set_timer(LOADING_DELAY, self._show_loading)
        if first_page is not None and query:
            first_page.cancel()
            first_page = None
        self._fetch(1, first_page)

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

    def _fetch(self, page: int, requested: Future[JsonObject | None] | None = None) -> None:
        envelope = requested.result() if requested is not None and _answered(requested) else None
        if envelope is not None:  # the early page is here already: into the first frame
            self._show_page(page, list_page(envelope, page, self.page_size))
            self.call_after_refresh(self._index_early_page, envelope)
            return
        self.load(
            lambda: self._load_page(page, requested),
            shown=lambda fetched: self._show_page(page, fetched),
            failed=lambda exc: self._failed(exc, page),
            name=f"{self.kind.key}-page-{page}",
        )
        self._status()

    async def _load_page(
        self, page: int, requested: Future[JsonObject | None] | None = None
    ) -> Fetched:
        """One page; `requested` is page 1 asked for early through plain_get (None there
        means the client has to ask, and explain any failure)."""
        envelope = None
        if requested is not None:
            try:
                envelope = await asyncio.wrap_future(requested)
            except Exception:  # the early reader failed: the client asks and explains
                log.exception("The early first-page read failed")
        if envelope is not None:
            self.call_after_refresh(self._index_early_page, envelope)  # once it is shown
            return list_page(envelope, page, self.page_size)
        client = console_app(self).client
        return await self.kind.fetch(client, page, self.page_size, self.query_params)

    def _index_early_page(self, envelope: JsonObject) -> None:
        """The early page (read before the client existed, so not recorded by it) into the
        profile's local index, in a thread, once its rows are on screen."""
        connection = console_app(self).connection
        if connection is None or connection.profile is None:
            return
        from console.tui.browse.first_page import record_in_index

        self.run_worker(
            asyncio.to_thread(record_in_index, connection, self.kind.path, envelope),
            group="local-index",
            exit_on_error=False,
        )

    def _place(self, focus_id: str | None) -> Place:
        """Where the cursor is: the ids to put it back on, best first, and its row."""
        shown, row, kind = self.shown_items, self.table.cursor_row, self.kind
        ids = [focus_id] if focus_id else []
        # The row itself, then its neighbours: the one below takes a deleted row's place.
        ids += [kind.item_id(shown[n]) for n in (row, row + 1, row - 1) if 0 <= n < len(shown)]
        return Place(tuple(i for i in ids if i), row)

    def _refresh_in_place(self, focus_id: str | None) -> None:
        """As many pages as are loaded, read again behind the rows on screen; they replace
        them all at once (see _replace_rows), or stay, marked stale, if a page fails."""
        place = self._place(focus_id)
        pages = max(1, len(self.pages_fetched))
        self.forget_loads()  # a next page on its way would land among the new rows
        self.loading_to_end, self._end_armed_row = False, None
        self.refreshing = True
        self.show_age()
        self.load(
            lambda: self._load_pages(pages),
            shown=lambda fetched: self._replace_rows(fetched, place),
            failed=self._refresh_failed,
            name=f"{self.kind.key}-refresh",
        )
        self._status()

    async def _load_pages(self, count: int) -> list[Fetched]:
        """Pages 1 to `count`, one after another (never more at once: rate limits)."""
        client = console_app(self).client
        pages: list[Fetched] = []
        for page in range(1, count + 1):
            fetched = await self.kind.fetch(client, page, self.page_size, self.query_params)
            pages.append(fetched)
            if not (fetched.has_more and fetched.items):
                break
        return pages

    def _replace_rows(self, pages: list[Fetched], place: Place) -> None:
        """The pages read again replace the rows; the cursor goes back to its object (or its
        neighbour, or its row), the view stays scrolled where it was."""
        self.fetching = False
        self.problem = None
        self.loaded_at = now()
        self.clear_stale()
        self._end_search()
        self.items, self.rows, self._arrived, self._seen = [], [], [], set()
        self.pages_fetched, self.labels, self._typed = [], {}, None
        kind = self.kind
        for fetched in pages:
            self.pages_fetched.append(fetched.page)
            self.total = fetched.total
            self.labels.update(fetched.labels)
            self.has_more = fetched.has_more and bool(fetched.items)
            for item in fetched.items:
                item_id = kind.item_id(item)
                if item_id and item_id in self._seen:
                    continue
                self._seen.add(item_id)
                self.items.append(item)
        self._arrived = list(self.items)
        self.rows = [kind.row_cells(item, self.labels) for item in self.items]
        pairs = self._sorted(list(zip(self.items, self.rows, strict=True)))
        self.items = [item for item, _row in pairs]
        self.rows = [row for _item, row in pairs]
        self._refresh_view(place=place)
        self.refreshing = False
        self._show_state()
        self._status()
        self.show_age()
        self._maybe_fetch_more()

    def _refresh_failed(self, exc: BaseException) -> None:
        """The rows stay as they were, under a note saying since when they are stale."""
        self.fetching = self.refreshing = False
        problem = describe(exc, permission=self.kind.permission, what=self.kind.title.lower())
        self.refresh_failed()
        self._status()
        self.show_age()
        self.post_message(SectionFailed(self, problem))

    def _show_page(self, page: int, fetched: Fetched) -> None:
        self._stop_loading_timer()
        self.fetching = False
        self.loaded = True
        self.problem = None
        self.pages_fetched.append(page)
        if page == 1:
            self.loaded_at = now()
            self.show_age()
        self.total = fetched.total
        self.labels.update(fetched.labels)
        self.has_more = fetched.has_more and bool(fetched.items)
        table = self.table
        new = []
        for item in fetched.items:
            item_id = self.kind.item_id(item)
            if item_id and item_id in self._seen:  # the list shifted between pages
                continue
            self._seen.add(item_id)
            new.append(item)
        self.items.extend(new)
        self._arrived.extend(new)
        kind, labels = self.kind, self.labels
        rows = [kind.row_cells(item, labels) for item in new]
        self.rows.extend(rows)
        # A search, or enter's first answer, shows its own rows; the new ones wait behind.
        if self.search is None and self._checking is None:
            live = self.live
            if live is None:
                table.add_rows(rows)  # shown_items is items
            else:
                pairs = zip(new, rows, strict=True)
                kept = [(item, row) for item, row in pairs if live.matches(kind, item, labels)]
                self.shown_items.extend(item for item, _row in kept)
                table.add_rows(row for _item, row in kept)
            if self.sort is not None and new:
                self._apply_sort()
        self._show_state(first_page=page == 1)
        if self.loading_to_end and not self.has_more:
            self.loading_to_end = False
            table.move_cursor(row=len(self.shown_items) - 1)
        self._status()
        self._maybe_fetch_more()

    def _show_state(self, *, first_page: bool = False) -> None:
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
        text = self.applied_text
        clear = "Press escape to clear the filter."
        if self._checking is not None:
            return f"Asking the service for {title} matching “{text}”…", clear
        if self.search is not None:
            if self.searching:
                return f"No matches yet: searching {title} for “{text}”…", "Press escape to stop."
            where = (
                f"the {self.search.page} pages searched" if self.search_stopped else "the tenant"
            )
            return f"No {title} in {where} match “{text}”.", clear
        if self.live is not None and self.items:
            loaded = f"{len(self.items)} loaded" if self.has_more else f"{len(self.items)}"
            hint = "Press enter to ask the service (new ones too), escape to clear the filter."
            if self.has_more:
                hint = "Press enter to search the rest of the tenant, escape to clear the filter."
            return f"None of the {loaded} {title} match “{text}”.", hint
        hint = clear if self.filter_text else "Press r to refresh."
        return self.kind.empty_message(self.filter_text), hint

    def _failed(self, exc: BaseException, page: int) -> None:
        self._stop_loading_timer()
        self.fetching = False
        self.loading_to_end = False
        problem = describe(exc, permission=self.kind.permission, what=self.kind.title.lower())
        if page == 1 or not self.items:
            self.problem = problem
            refocus = self.table.has_focus
            self.table.display = False
            if refocus or self.screen.focused is None:
                self.focus()
            self.state_panel.show_problem(problem)
        self._status()
        self.post_message(SectionFailed(self, problem))

    def _status(self) -> None:
        self.post_message(StatusChanged(self, self.status_text))

    def stale_banner_anchor(self) -> RowTable:
        return self.table

    def _maybe_fetch_more(self) -> None:
        """The next page when the cursor nears the end of the loaded rows (or all of them,
        loading to the end). Not under a live filter or a search: their few rows would keep
        the cursor near the end, and page after page of the tenant would come."""
        if not self.has_more or self.fetching or self.problem is not None:
            return
        if self._walking_rest:  # load all: its walk asks for the pages
            return
        if self.loading_to_end:
            self._load_rest()
            return
        near_end = self.table.cursor_row >= len(self.items) - PREFETCH_MARGIN
        if near_end and self.live is None and self.search is None:
            self._fetch(len(self.pages_fetched) + 1)

    def _load_rest(self) -> None:
        """Load all (`G G`, ctrl+g): the remaining pages, a few in flight and shown in list
        order as they come (console.client.walk); escape cancels every request in flight."""
        from console.client.walk import PageEnd, walk_pages

        client = console_app(self).client
        kind, size, query = self.kind, self.page_size, dict(self.query_params)
        first = len(self.pages_fetched) + 1
        pages = -(-self.total // size) if self.total is not None else None
        generation = self.generation
        self._walking_rest = True
        self.fetching = True

        def end_of(fetched: Fetched, number: int) -> PageEnd:
            total_pages = -(-fetched.total // size) if fetched.total is not None else None
            return PageEnd(fetched.has_more and bool(fetched.items), total_pages)

        async def run() -> None:
            number = first
            try:
                walking = walk_pages(
                    lambda n: kind.fetch(client, n, size, query),
                    end_of,
                    budget=getattr(client, "budget", None),
                    pages=pages,
                    first=first,
                )
                async with aclosing(walking):
                    async for number, fetched in walking:
                        if not self.is_current(generation) or not self.loading_to_end:
                            return
                        self._show_page(number, fetched)
                        self.fetching = self.has_more
            except Exception as exc:
                log.warning("Loading the rest of %s failed", kind.key, exc_info=True)
                if self.is_current(generation):
                    self._failed(exc, number)
            finally:
                if self.is_current(generation):
                    self._walking_rest = False
                    self.fetching = False
                    self._status()

        self.run_worker(
            run(),
            group=self.load_group,
            name=f"{kind.key}-load-all",
            exclusive=True,
            exit_on_error=False,
        )

    @on(RowTable.RowHighlighted)
    def _row_highlighted(self, event: RowTable.RowHighlighted) -> None:
        event.stop()
        self._maybe_fetch_more()

    @on(RowTable.RowSelected)
    def _row_selected(self, event: RowTable.RowSelected) -> None:
        """Enter opens the highlighted object; one only the local index knows so far is
        read afresh by its id (it may be gone)."""
        event.stop()
        item = self.current_row
        if item is None:
            return
        item_id = self.kind.item_id(item)
        if self._indexed.get(item_id) is item:
            console_app(self).open_detail_by_id(self.kind, item_id)
        else:
            self.post_message(self.Opened(self.kind, item))

    @on(RowTable.EndRequested)
    def _end_requested(self, event: RowTable.EndRequested) -> None:
        """`G` goes to the last loaded row and, when there are more, says so; `G` again from
        there loads the rest, page by page (escape stops)."""
        event.stop()
        if not self.has_more or self.loading_to_end or self.search is not None:
            return
        if event.cursor_row == self._end_armed_row:
            self._end_armed_row = None
            self.load_to_end()
            return
        self._end_armed_row = len(self.shown_items) - 1
        self.notify(
            f"The last loaded row: {len(self.items)} of {self.total}. "
            "Press G again to load the rest (escape stops).",
            title=self.kind.title,
        )

    def load_to_end(self) -> None:
        """Fetches the remaining pages, a few in flight (never the tenant in one request),
        the footer counting them; the cursor goes to the last row once it is loaded."""
        if not self.has_more or self.problem is not None or self.loading_to_end:
            return
        self.loading_to_end = True
        self._watch_budget()
        self.notify(
            f"Loading the rest of {self.total} {self.kind.title.lower()}, "
            f"{self.page_size} at a time; escape stops.",
            title="To the end",
        )
        self._status()
        self._maybe_fetch_more()

    def stop_loading_to_end(self) -> None:
        """Escape: every request of the load in flight is cancelled; the rows stay."""
        if self.loading_to_end:
            self.loading_to_end = False
            if self._walking_rest:
                self.forget_loads()
                self._walking_rest = self.fetching = False
            self._status()
            self.notify(f"Stopped at {len(self.items)} of {self.total}.", title="To the end")

    # ---- sorting -------------------------------------------------------------------------

    def action_sort(self) -> None:
        """`s`: sort the loaded rows by the next column (server order after the last)."""
        if self.sort is None:
            self.sort = (0, False)
        elif self.sort[0] + 1 < len(self.kind.columns):
            self.sort = (self.sort[0] + 1, False)
        else:
            self.sort = None
        self._sort_changed()

    def action_sort_reverse(self) -> None:
        """`S`: reverse the order (descending by the first column if none was sorted)."""
        self.sort = (0, True) if self.sort is None else (self.sort[0], not self.sort[1])
        self._sort_changed()

    def sort_by(self, column: int, descending: bool = False) -> None:
        """Sorts the loaded rows by this column (the palette's "Sort ... by ...")."""
        self.sort = (column, descending)
        self._sort_changed()

    def action_load_all_sorted(self) -> None:
        """ctrl+g: every page, and the sort in force (by the first column if none) covers
        every row."""
        column, descending = self.sort or (0, False)
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
        top = self.has_more
        if self.sort is None:
            self._restore_server_order(top=top)
        else:
            self._apply_sort(top=top)
        self.table.set_sort(*(self.sort or (None, False)))
        notify_once(self.app, "sort", self.sort_note, title=self.kind.title)
        self._status()

    @property
    def sort_note(self) -> str:
        """What a sort's notification says; while pages remain, in the footer's words:
        "Sorted by Name ↑ · sorted: loaded rows only (50 of 200; ctrl+g loads all)."."""
        if self.sort is None or self.search is not None or not self.has_more:
            return f"Sorted {self.sort_description}."
        column, descending = self.sort
        by = f"by {self.kind.columns[column].label} {'↓' if descending else '↑'}"
        of = f"{len(self.items)} of {self.total}" if self.total else f"{len(self.items)}"
        return f"Sorted {by} · {LOADED_ROWS_ONLY} ({of}; ctrl+g loads all, then sorts)."

    def _sorted(self, pairs: list[Pair]) -> list[Pair]:
        if self.sort is None:
            return pairs
        column, descending = self.sort
        return sorted(pairs, key=lambda pair: sort_key(pair[1][column]), reverse=descending)

    def _apply_sort(self, *, top: bool = False) -> None:
        """Sorts `items` and the rows shown by the sort column, keeping the cursor's row
        (a page that arrived), or with the cursor on the first row (`top`: a new sort)."""
        if self.sort is None:
            return
        current = None if top else self.current_row
        pairs = self._sorted(list(zip(self.items, self.rows, strict=True)))
        self.items = [item for item, _row in pairs]
        self.rows = [row for _item, row in pairs]
        self._refresh_view(current)

    def _restore_server_order(self, *, top: bool = False) -> None:
        """Back to the order the pages came in (creation order on the server)."""
        order = {self.kind.item_id(item): n for n, item in enumerate(self._arrived)}
        current = None if top else self.current_row
        pairs = sorted(
            zip(self.items, self.rows, strict=True),
            key=lambda pair: order.get(self.kind.item_id(pair[0]), 0),
        )
        self.items = [item for item, _row in pairs]
        self.rows = [row for _item, row in pairs]
        self._refresh_view(current)

    def _refresh_view(
        self, current: JsonObject | None = None, *, place: Place | None = None
    ) -> None:
        """The table shows again what it should (the loaded rows, the live filter's, the
        search's matches, sorted as asked), the cursor on `current` where it still shows
        (or at `place`: the rows were read again)."""
        fresh = place is not None
        if self._checking is not None:
            pairs = self._sorted(list(self._checking))
        elif self.search is not None:
            pairs = self._sorted(list(self._found))
        elif self.live is not None:
            live, kind, labels = self.live, self.kind, self.labels
            pairs = [
                (item, row)
                for item, row in zip(self.items, self.rows, strict=True)
                if live.matches(kind, item, labels)
            ]
        else:
            self.shown_items = self.items
            self._set_table_rows(self.rows, self._cursor_for(current, place), new_cells=fresh)
            return
        self.shown_items = [item for item, _row in pairs]
        rows = [row for _item, row in pairs]
        self._set_table_rows(rows, self._cursor_for(current, place), new_cells=fresh)

    def _cursor_for(self, current: JsonObject | None, place: Place | None) -> int:
        """The row of `current` among those shown, or of the first of `place`'s ids there
        (else its row, within the rows); 0 when neither is given or found."""
        shown = self.shown_items
        if place is None:
            return next((n for n, item in enumerate(shown) if item is current), 0)
        rows = {self.kind.item_id(item): n for n, item in enumerate(shown)}
        found = next((rows[i] for i in place.ids if i in rows), None)
        return found if found is not None else max(0, min(place.row, len(shown) - 1))

    def _set_table_rows(self, rows: list[Row], cursor: int, *, new_cells: bool = False) -> None:
        """The table's rows, the cursor at `cursor`; the view scrolls only as far as it must
        to show it (a list read again stays where it was). `new_cells`: rows read again,
        whose cells may be wider than those shown (the columns' widths then grow)."""
        table = self.table
        if table.row_count == len(rows) and not new_cells:  # the same, in another order
            table.replace_rows(rows, cursor=cursor)
        else:
            table.set_rows(rows, cursor=cursor)

    # ---- filter --------------------------------------------------------------------------

    def action_filter(self) -> None:
        field = self.filter_input
        field.add_class("-visible")
        self._live_before = self.live
        field.value = self.applied_text
        field.focus()

    def action_escape(self) -> None:
        """Stops a load to the end or a search, else clears the filter."""
        if self.loading_to_end:
            self.stop_loading_to_end()
        elif self.searching:
            self.stop_search()
        else:
            self._apply_filter("")

    @on(Input.Changed, "FilterInput")
    def _filter_edited(self, event: Input.Changed) -> None:
        """Each keystroke filters the loaded rows (a search under way stops: enter starts
        the next)."""
        event.stop()
        field = self.filter_input
        field.remove_class("-refused")
        text = event.value.strip()
        if text == self.applied_text or not field.has_class("-visible"):
            return
        self._end_search()
        live = parse_row_filter(self.kind.columns, text) if text else None
        if live is not None and text == self.filter_text:
            live = None  # the server's filter in force already shows exactly these rows
        field.set_class(live is not None and live.not_a_column is not None, "-unknown")
        self._set_live(live)

    def _set_live(self, live: RowFilter | None) -> None:
        current = self.current_row
        self.live = live
        self._refresh_view(current)
        if self.loaded:
            self._show_state()
        self._status()

    @on(events.DescendantBlur, "FilterInput")
    def _filter_left(self, event: events.DescendantBlur) -> None:
        """Leaving the input without applying it: it shows the filter in force again, so its
        text never disagrees with the rows (a refused filter included; what is typed is in
        force as it is typed)."""
        field = self.filter_input
        if field.has_class("-refused"):
            field.remove_class("-refused")
            self._set_live(self.live)
        if field.value.strip() != self.applied_text:
            with field.prevent(Input.Changed):
                field.value = self.applied_text
        if not self.applied_text:
            field.remove_class("-visible", "-unknown")

    @on(Input.Submitted, "FilterInput")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._apply_filter(event.value.strip())

    @on(FilterInput.Cancelled)
    def _filter_cancelled(self, event: FilterInput.Cancelled) -> None:
        event.stop()
        self._apply_filter("")

    def _apply_filter(self, text: str) -> None:
        """Enter: the server's filter where the API has one, else the live filter stays and,
        when the list is not all loaded, the rest of the tenant is searched. "" clears all."""
        if not text:
            self._end_search()
            self.live = self._live_before = None
            self.filter_input.remove_class("-visible", "-unknown", "-refused")
            changed = bool(self.filter_text)
            self.filter_text, self.query_params = "", {}
            self.focus_table()
            if changed or self.problem is not None:
                self.start_over()
            else:
                self._set_live(None)
            return
        row_filter = parse_row_filter(self.kind.columns, text)
        try:
            query = self.kind.server_query(row_filter)
            if query is None and row_filter.not_a_column and not self._loaded_matches(row_filter):
                raise FilterInvalid(
                    f"There is no column “{row_filter.not_a_column}” "
                    f"(columns: {column_words(self.kind.columns)}), nor a row with this text."
                )
        except FilterInvalid as exc:
            self._refuse(text, exc)
            return
        if query is not None:
            self._end_search()
            self.live = self._live_before = None
            self.filter_text, self.query_params = text, query
            self.focus_table()
            if self.loaded and self.problem is None:
                self._ask_service(row_filter)
            else:
                self.start_over()
            return
        self._live_before = row_filter
        if self.live != row_filter:
            self._end_search()
            self._set_live(row_filter)
        self.focus_table()
        if self.loaded and self.problem is None:  # loaded, all of it or not: ask the service
            self.start_search(row_filter)

    def _ask_service(self, row_filter: RowFilter) -> None:
        """Enter on a filter the service applies (a name, an id): what is known shows at
        once, the cursor where it was (the loaded rows that match, then what the local index
        knows by that name, marked); the service's first page under the filter then
        replaces them (_replace_rows), or its failure shows in their place."""
        place = self._place(None)
        kind, labels = self.kind, self.labels
        pairs = [
            (item, row)
            for item, row in self._arrived_pairs()
            if row_filter.matches(kind, item, labels)
        ]
        known = {kind.item_id(item) for item, _row in pairs}
        pairs += self._from_index(row_filter, known, server_filtered=True)
        self.forget_loads()  # a next page of the old filter would land among the new rows
        self.loading_to_end, self._end_armed_row = False, None
        self._checking = pairs
        self._refresh_view(place=place)
        self._show_state()
        self.load(
            lambda: self._load_pages(1),
            # where the cursor is when the answer comes (it may have moved meanwhile)
            shown=lambda fetched: self._replace_rows(fetched, self._place(None)),
            failed=self._check_failed,
            name=f"{kind.key}-filter",
        )
        self._status()

    def _check_failed(self, exc: BaseException) -> None:
        """The service's filter failed: its problem shows in place of enter's first answer
        (r asks again)."""
        self._checking, self._indexed, self.index_caption = None, {}, ""
        self._refresh_view(self.current_row)
        self._failed(exc, 1)

    def _loaded_matches(self, row_filter: RowFilter) -> bool:
        return any(row_filter.matches(self.kind, item, self.labels) for item in self.items)

    def _refuse(self, text: str, exc: FilterInvalid) -> None:
        """The text stays to be corrected, marked refused; the rows go back to the filter in
        force before it, and leaving the input puts that back (see _filter_left)."""
        self.filter_input.add_class("-refused")
        self.live = self._live_before
        self._refresh_view(self.current_row)
        if self.loaded:
            self._show_state()
        self._status()
        shown = f"“{self.applied_text}”" if self.applied_text else "no filter"
        self.notify(
            f"“{text}” was not applied: {exc} The list still shows {shown}.",
            title="Filter refused",
            severity="warning",
        )

    # ---- the tenant search ---------------------------------------------------------------

    def start_search(self, row_filter: RowFilter) -> None:
        """Walks every page of the tenant (under the server filter in force) for the rows
        `row_filter` matches, in an exclusive worker; the loaded matches show at once, the
        others as their pages arrive. Escape stops it."""
        self._end_search()
        client = console_app(self).client
        search = TenantSearch.of(self.kind, client, row_filter, self.query_params, self.total)
        self.live = row_filter
        self._watch_budget()
        self.search, self.searching, self.search_stopped = search, True, False
        kind, labels = self.kind, self.labels
        self._found = [
            (item, row)
            for item, row in self._arrived_pairs()
            if row_filter.matches(kind, item, labels)
        ]
        self._unconfirmed = {kind.item_id(item): item for item, _row in self._found}
        self._found += self._from_index(row_filter, set(self._unconfirmed))
        self._refresh_view(self.current_row)
        self._show_state()
        self._status()
        self.run_worker(
            self._walk(search),
            group="search",
            name=f"{kind.key}-search",
            exclusive=True,
            exit_on_error=False,
        )

    def _from_index(
        self, row_filter: RowFilter, known: set[str], *, server_filtered: bool = False
    ) -> list[Pair]:
        """What the profile's local index knows by this name, shown at once (marked "from
        the index"), each row replaced by the live one when the walk (or the service's
        filter, `server_filtered`) answers, and marked gone if a walk ends without it.
        Names only: a filter on another column, or under another server filter, is answered
        live only."""
        self._indexed, self.index_caption = {}, ""
        index_kind = INDEX_KINDS.get(self.kind.key)
        index = getattr(console_app(self).connected_client(), "index", None)
        if index is None or index_kind is None or (self.query_params and not server_filtered):
            return []
        if row_filter.column not in (None, "name") or row_filter.not_a_column:
            return []
        from console.client.find import from_index

        try:
            answer = from_index(index, row_filter.term, [index_kind])
        except Exception:
            log.warning("The local index could not be read", exc_info=True)
            return []
        pairs = []
        for row in answer.rows:
            if row.id in known:
                continue
            item: JsonObject = {"id": row.id, "name": row.name}
            self._indexed[row.id] = item
            pairs.append((item, self._index_cells(row.name, gone=False)))
        if pairs:
            self.index_caption = answer.caption
        return pairs

    def _index_cells(self, name: str, *, gone: bool) -> Row:
        """A row the index knows: its name, marked; the other columns wait for the service."""
        if gone:
            first = Text.assemble((name, "strike dim"), (" · no longer exists", "dim red"))
        else:
            first = Text.assemble((name, ""), (" · from the index", "dim"))
        return (first, *(Text("…", "dim") for _ in self.kind.columns[1:]))

    def _lost_cells(self, row: Row) -> Row:
        """A loaded row the search's complete walk did not find again (deleted, or changed so
        that it no longer matches): struck through, and said so."""
        first = row[0].plain if isinstance(row[0], Text) else str(row[0])
        marked = Text.assemble((first, "strike dim"), (" · no longer found", "dim red"))
        return (marked, *row[1:])

    def _take_live(self, items: list[JsonObject]) -> list[JsonObject]:
        """The walk's rows of objects shown before it (from the index, or loaded) take their
        places, the cursor staying on its object; the others are returned (new to the
        search). A loaded row the service sends unchanged stays as it is."""
        others = []
        kind, labels = self.kind, self.labels
        places: dict[int, int] | None = None  # where each row shown is, once one is replaced
        for item in items:
            item_id = kind.item_id(item)
            provisional = self._indexed.pop(item_id, None)
            if provisional is None:
                provisional = self._unconfirmed.pop(item_id, None)
                if provisional is None:
                    others.append(item)
                    continue
                if provisional == item:
                    continue
            if places is None:
                places = {id(shown): n for n, (shown, _row) in enumerate(self._found)}
            self._found[places[id(provisional)]] = (item, kind.row_cells(item, labels))
        if places is not None:
            self._refresh_view(place=self._place(None))
        return others

    def _mark_gone(self) -> None:
        """The walk read the whole tenant without these: the index's rows gone, in the table
        and the index; the loaded ones no longer found."""
        if not self._indexed and not self._unconfirmed:
            return
        gone = {id(item) for item in self._indexed.values()}
        lost = {id(item) for item in self._unconfirmed.values()}
        self._found = [
            (item, self._index_cells(str(item.get("name")), gone=True))
            if id(item) in gone
            else (item, self._lost_cells(row))
            if id(item) in lost
            else (item, row)
            for item, row in self._found
        ]
        index = getattr(console_app(self).connected_client(), "index", None)
        index_kind = INDEX_KINDS.get(self.kind.key)
        if self._indexed and index is not None and index_kind is not None:
            try:
                index.mark_gone(index_kind, list(self._indexed))
            except Exception:
                log.warning("The local index could not be updated", exc_info=True)
        self._gone += len(self._indexed)
        self._lost += len(self._unconfirmed)
        self._indexed, self._unconfirmed = {}, {}
        self._refresh_view(place=self._place(None))

    def _arrived_pairs(self) -> list[Pair]:
        """The loaded objects with their cells, in the server's order (the rows may be sorted)."""
        by_item = {id(item): row for item, row in zip(self.items, self.rows, strict=True)}
        return [(item, by_item[id(item)]) for item in self._arrived]

    async def _walk(self, search: TenantSearch) -> None:
        """The search's pages, each one's matches added as it is read (those shown at the
        start, loaded or from the index, replaced by the service's rows)."""
        kind = self.kind
        said = 0.0
        try:
            async for new in search.walk():
                if self.search is not search:
                    return
                self.labels.update(search.labels)
                fresh = self._take_live(new) if self._indexed or self._unconfirmed else new
                if fresh:
                    self._add_found(fresh)
                moment = time.monotonic()
                if fresh or moment - said >= SEARCH_STATUS_INTERVAL:
                    said = moment
                    self._status()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("The %s search failed", kind.key, exc_info=True)
            if self.search is search:
                problem = describe(exc, permission=kind.permission, what=kind.title.lower())
                self.search_stopped = True
                self.notify(
                    f"{problem.title}: {problem.message} Stopped at {self.search_progress}.",
                    title="Search failed",
                    severity="error",
                )
        finally:
            if self.search is search:
                if search.done:
                    self._mark_gone()
                self.searching = False
                self._show_state()
                self._status()

    def _add_found(self, items: list[JsonObject]) -> None:
        kind, labels = self.kind, self.labels
        pairs = [(item, kind.row_cells(item, labels)) for item in items]
        self._found.extend(pairs)
        if self.sort is not None:
            self._refresh_view(self.current_row)
        else:
            self.shown_items.extend(item for item, _row in pairs)
            self.table.add_rows(row for _item, row in pairs)
        self._show_state()

    def stop_search(self) -> None:
        """Escape: the walk stops where it is; its matches stay, the status says where."""
        if not self.searching:
            return
        self.workers.cancel_group(self, "search")
        self.searching, self.search_stopped = False, True
        self._show_state()
        self._status()
        self.notify(f"Stopped at {self.search_progress}.", title="Search")

    def _end_search(self) -> None:
        """The search, running or done, is dropped with its matches, and so is enter's first
        answer to a server filter (the table goes back to the loaded rows when the caller
        refreshes the view)."""
        if self._checking is not None:
            self._checking, self._indexed, self.index_caption = None, {}, ""
        if self.search is None:
            return
        if self.searching and self.is_mounted:
            self.workers.cancel_group(self, "search")
        self.search, self.searching, self.search_stopped = None, False, False
        self._found, self._indexed, self.index_caption, self._gone = [], {}, "", 0
        self._unconfirmed, self._lost = {}, 0

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "escape":
            return (
                bool(self.filter_text)
                or self.live is not None
                or self.search is not None
                or self.loading_to_end
            )
        return True
