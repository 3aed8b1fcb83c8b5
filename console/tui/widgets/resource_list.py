"""A paginated browser of one resource: server-side pages, server-side filter, k9s-style.

Only the pages the cursor reaches are fetched: the first shows as soon as it arrives, the next
when the cursor comes within PREFETCH_MARGIN rows of the end of what is loaded. Rows are the
objects as the service sent them (dicts); `current_item` makes the model of the highlighted one.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from datetime import datetime
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.worker import Worker, WorkerState

from console.clock import now
from console.tui.problems import Problem, describe
from console.tui.resources import PAGE_SIZE, Fetched, FilterInvalid, ResourceKind, page_of
from console.tui.widgets.row_table import RowTable, TableColumn
from console.tui.widgets.section_messages import SectionFailed, StatusChanged
from console.tui.widgets.state_panel import StatePanel

PREFETCH_MARGIN = 10
LOADING_DELAY = 0.25
"""Seconds a first page may take before "Loading…" replaces the empty table: a quick answer
never flashes it (nor pays for drawing it)."""


def _answered(requested: Future[Any] | None) -> bool:
    """Whether an early page request has already brought a page (not None, no error)."""
    if requested is None or not requested.done() or requested.cancelled():
        return False
    return requested.exception() is None and requested.result() is not None


class FilterInput(Input):
    """The `/` filter: enter applies it on the server, escape clears it."""

    BINDINGS = [Binding("escape", "cancel", "Clear filter", show=True)]

    class Cancelled(Message):
        pass

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())


class StaleBanner(Static):
    """One line above a list whose rows may be out of date (see ResourceList.mark_stale)."""

    DEFAULT_CSS = """
    StaleBanner { height: 1; padding: 0 1; background: $warning 20%; color: $text-warning;
                  text-wrap: nowrap; text-overflow: ellipsis; }
    """


class ResourceList(Vertical):
    """The list section of one ResourceKind, with its paging state."""

    BINDINGS = [
        Binding("slash", "filter", "Filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False),
    ]

    class Opened(Message):
        """The admin asked to open an item (enter); `item` is the row as sent."""

        def __init__(self, kind: ResourceKind, item: Any) -> None:
            super().__init__()
            self.kind = kind
            self.item = item

    can_focus = True

    def __init__(
        self,
        kind: ResourceKind,
        *,
        page_size: int = PAGE_SIZE,
        first_page: Future[dict[str, Any] | None] | None = None,
        **kwargs: Any,
    ) -> None:
        """`first_page`: page 1 (unfiltered, `page_size` rows), requested before the list was
        composed so that the request and the composing overlap; the first load uses it."""
        super().__init__(**kwargs)
        self.kind = kind
        self._first_page = first_page
        self.page_size = page_size
        self.items: list[dict[str, Any]] = []
        """The loaded objects, as the service sent them, in row order."""
        self.total: int | None = None
        self.has_more = False
        self.pages_fetched: list[int] = []
        self.filter_text = ""
        self.query_params: dict[str, Any] = {}
        self.loaded = False
        self.problem: Problem | None = None
        self.fetching = False
        """A request is under way. (Not Widget.loading: that covers the widget with a spinner.)"""
        self._generation = 0
        self._seen: set[str] = set()
        self.labels: dict[str, str] = {}
        self._typed: tuple[dict[str, Any], Any] | None = None
        self._loading_timer: Timer | None = None
        self.loaded_at: datetime | None = None
        self.stale_note = ""
        """Set once a refresh failed while rows were shown: they are as last loaded."""

    def compose(self) -> ComposeResult:
        placeholder = f"/ filter {self.kind.title.lower()} by {self.kind.filter_placeholder}"
        yield FilterInput(placeholder=placeholder, classes="filter")
        columns = [TableColumn(c.key, c.label, c.width) for c in self.kind.columns]
        yield RowTable(columns, zebra_stripes=True)
        yield StatePanel()

    def on_mount(self) -> None:
        if _answered(self._first_page):  # the early page is here: show it in the first frame
            self.ensure_loaded()

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
    def current_row(self) -> dict[str, Any] | None:
        """The highlighted object as the service sent it."""
        row = self.table.cursor_row
        return self.items[row] if self.items and 0 <= row < len(self.items) else None

    @property
    def current_item(self) -> Any | None:
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
        if self.total is None:
            return ""
        text = f"{len(self.items)} of {self.total} loaded"
        if self.fetching:
            text += " · loading more…"
        return text

    def focus_table(self) -> None:
        """The table when it shows, else the list itself, so its keys keep working."""
        if self.table.display:
            self.table.focus()
        else:
            self.focus()

    # ---- loading -------------------------------------------------------------------------

    def ensure_loaded(self) -> None:
        """Loads the first page unless it is already loaded or loading."""
        if not self.loaded and not self.fetching and self.problem is None:
            self.reload()

    def reset(self) -> None:
        """Forgets everything (a new profile): the next ensure_loaded starts over."""
        self._generation += 1
        if self._first_page is not None:
            self._first_page.cancel()
            self._first_page = None
        self.workers.cancel_group(self, "pages")
        self._stop_loading_timer()
        self.items, self.total, self.has_more, self.pages_fetched = [], None, False, []
        self._seen, self.labels, self._typed = set(), {}, None
        self.loaded, self.fetching, self.problem = False, False, None
        self.filter_text, self.query_params = "", {}
        self.loaded_at, self.stale_note = None, ""
        if self.is_mounted:
            self.query(StaleBanner).remove()
            self.table.clear()
            self.filter_input.value = ""
            self.filter_input.remove_class("-visible")
            self.state_panel.hide()
            self._status()

    def reload(self) -> None:
        """Starts over from page 1 with the current filter."""
        first_page, self._first_page = self._first_page, None
        filter_text, query = self.filter_text, self.query_params
        self.reset()
        self.filter_text, self.query_params = filter_text, query
        if filter_text:
            self.filter_input.value = filter_text
            self.filter_input.add_class("-visible")
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

    def _fetch(self, page: int, requested: Future[Any] | None = None) -> None:
        if _answered(requested):  # the early page is here already: into the first frame
            self._show_page(page, page_of(requested.result()))  # type: ignore[union-attr]
            return
        self.fetching = True
        self._status()
        self.run_worker(
            self._load_page(page, self._generation, requested),
            group="pages",
            name=f"{self.kind.key}-page-{page}",
            exit_on_error=False,
        )

    async def _load_page(
        self, page: int, generation: int, requested: Future[Any] | None = None
    ) -> None:
        """One page; `requested` is page 1 asked for early through plain_get (None there
        means the client has to ask, and explain any failure)."""
        try:
            envelope = await asyncio.wrap_future(requested) if requested is not None else None
            if envelope is not None:
                fetched = page_of(envelope)
            else:
                client = self.app.client  # type: ignore[attr-defined]
                fetched = await self.kind.fetch(client, page, self.page_size, self.query_params)
        except Exception as exc:
            if generation == self._generation:
                self._failed(exc, page)
            return
        if generation == self._generation:
            self._show_page(page, fetched)

    def _show_page(self, page: int, fetched: Fetched) -> None:
        self._stop_loading_timer()
        self.fetching = False
        self.loaded = True
        self.problem = None
        self.pages_fetched.append(page)
        if page == 1:
            self.loaded_at = now()
        self.total = fetched.total
        self.labels.update(fetched.labels)
        self.has_more = fetched.has_more and bool(fetched.items)
        table = self.table
        new = []
        for item in fetched.items:
            item_id = self.kind.item_id(item)
            if item_id in self._seen:  # the list shifted between pages
                continue
            self._seen.add(item_id)
            new.append(item)
        self.items.extend(new)
        columns, labels = self.kind.columns, self.labels
        table.add_rows([tuple(c.cell(item, labels) for c in columns) for item in new])
        if self.items:
            if self.state_panel.kind is not None:
                self.state_panel.hide()
            table.display = True
            # "Loading…" hid the table and gave the list the focus; the first page gives it
            # back (also when nothing holds the focus yet, as at start).
            if page == 1 and self.display and self.screen.focused in (None, self, table):
                table.focus()
        else:
            refocus = table.has_focus or self.screen.focused is None
            table.display = False
            if refocus and self.display:
                self.focus()
            hint = "Press r to refresh."
            if self.filter_text:
                hint = "Press escape to clear the filter."
            self.state_panel.show_empty(self.kind.empty_message(self.filter_text), hint)
        self._status()
        self._maybe_fetch_more()

    def _failed(self, exc: BaseException, page: int) -> None:
        self._stop_loading_timer()
        self.fetching = False
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

    def mark_stale(self, failed_at: str) -> None:
        """The service failed meanwhile (elsewhere, or for a later page): the rows shown are
        as last loaded, and say so above the table until a reload succeeds."""
        if self.loaded_at is None or self.problem is not None:
            return
        loaded = self.loaded_at.astimezone().strftime("%H:%M")
        self.stale_note = f"Stale — last loaded {loaded}, refresh failed at {failed_at}."
        text = f"⚠ {self.stale_note} Press r to retry."
        banners = self.query(StaleBanner)
        if banners:
            banners.first().update(text)
        else:
            self.mount(StaleBanner(text), before=self.table)

    def _maybe_fetch_more(self) -> None:
        if not self.has_more or self.fetching or self.problem is not None:
            return
        if self.table.cursor_row >= len(self.items) - PREFETCH_MARGIN:
            self._fetch(len(self.pages_fetched) + 1)

    @on(RowTable.RowHighlighted)
    def _row_highlighted(self, event: RowTable.RowHighlighted) -> None:
        event.stop()
        self._maybe_fetch_more()

    @on(RowTable.RowSelected)
    def _row_selected(self, event: RowTable.RowSelected) -> None:
        event.stop()
        item = self.current_row
        if item is not None:
            self.post_message(self.Opened(self.kind, item))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state == WorkerState.CANCELLED and event.worker.group == "pages":
            event.stop()

    # ---- filter --------------------------------------------------------------------------

    def action_filter(self) -> None:
        field = self.filter_input
        field.add_class("-visible")
        field.value = self.filter_text
        field.focus()

    def action_clear_filter(self) -> None:
        self._apply_filter("")

    @on(Input.Submitted, "FilterInput")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._apply_filter(event.value.strip())

    @on(FilterInput.Cancelled)
    def _filter_cancelled(self, event: FilterInput.Cancelled) -> None:
        event.stop()
        self._apply_filter("")

    def _apply_filter(self, text: str) -> None:
        if text:
            try:
                query = self.kind.parse_filter(text)
            except FilterInvalid as exc:
                self.notify(str(exc), title="Filter", severity="warning")
                return
        else:
            query = {}
            self.filter_input.remove_class("-visible")
        changed = text != self.filter_text
        self.filter_text, self.query_params = text, query
        self.focus_table()
        if changed or self.problem is not None:
            self.reload()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "clear_filter":
            return bool(self.filter_text)
        return True
