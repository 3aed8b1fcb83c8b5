"""A screen that reads the whole tenant's applications page by page and shows rows as they
come: the access review and who-holds-a-permission share it.

The walk asks for the largest page the service allows, a few requests in flight
(console.client.walk), never the whole tenant at once; the progress line says how far it
is ("page 3 of 100") and when it waits for the rate limit; escape stops it and every request
in flight (the rows read stay), `r` reads again from the start, and escape again goes back.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from console.tui.base.app_access import key_prompts, notices, router, session_host
from console.tui.base.problems import describe
from console.tui.browse.kinds import APPLICATIONS
from console.tui.widgets.console_header import ConsoleHeader
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.row_table import Cell, RowTable, TableColumn
from console.tui.widgets.state_panel import StatePanel

if TYPE_CHECKING:
    from console.client.budget import RequestBudget
    from console.client.client import AdminClient

log = logging.getLogger(__name__)

PROGRESS_EVERY = 1.0
"""Seconds between redraws of the progress while pages arrive: a line that changes size
costs a layout of the screen, and a hundred of those would cost more than the walk."""
LOADING_DELAY = 0.25
"""Seconds the first page may take before "Loading…" shows (a quick one never flashes it)."""


class WalkPage(Protocol):
    """What the walk reads of every page (console.client.review's ReviewPage, HoldersPage)."""

    @property
    def number(self) -> int: ...
    @property
    def total_items(self) -> int | None: ...
    @property
    def total_pages(self) -> int | None: ...


PageT = TypeVar("PageT", bound=WalkPage)


class TenantWalkScreen(Screen[None], Generic[PageT]):
    """Subclasses say what a page becomes (`walk`, `page_rows`) and what the rows are."""

    DEFAULT_CSS = """
    TenantWalkScreen > .walk-progress { height: auto; padding: 0 1; background: $boost; }
    TenantWalkScreen > .walk-progress.-stopped { color: $warning; }
    TenantWalkScreen > .walk-progress.-failed { color: $error; }
    TenantWalkScreen > RowTable { height: 1fr; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "stop_or_back", "Back"),
        Binding("r", "restart", "Read again"),
        Binding("K", "enter_key", "Enter key", show=False),
    ]

    title_text = ""
    """The first words of the progress line ("Access review")."""
    permission = APPLICATIONS.permission
    """What reading applications needs (named by a 403)."""
    columns: ClassVar[Sequence[TableColumn]] = ()

    def __init__(self) -> None:
        super().__init__()
        self.walking = False
        self.stopped = False
        self.complete = False
        self.pages_read = 0
        self.applications_read = 0
        self.total_items: int | None = None
        self.total_pages: int | None = None
        self.problem_text = ""
        self._worker: Worker[None] | None = None
        self._loading: Timer | None = None
        self._shown_at = 0.0
        self._pending_rows: list[Sequence[Cell]] = []
        self._budget: RequestBudget | None = None
        self._unwatch: Callable[[], None] | None = None
        self._countdown: Timer | None = None

    def compose(self) -> ComposeResult:
        yield ConsoleHeader()
        yield Static("", classes="walk-progress", markup=False)
        yield from self.compose_above_table()
        yield RowTable(self.columns, zebra_stripes=True)
        yield from self.compose_below_table()
        yield StatePanel()
        yield KeyBar()

    def compose_above_table(self) -> ComposeResult:
        yield from ()

    def compose_below_table(self) -> ComposeResult:
        yield from ()

    def on_mount(self) -> None:
        header = self.query_one(ConsoleHeader)
        header.section = APPLICATIONS.key
        header.trail = self.title_text
        self.table.focus()
        self.start()

    @property
    def table(self) -> RowTable:
        return self.query_one(RowTable)

    @property
    def progress_line(self) -> str:
        return str(self.query_one(".walk-progress", Static).content)

    # ---- the walk ------------------------------------------------------------------------

    def start(self) -> None:
        """Forgets what was read and reads the tenant again from its first page."""
        self.clear()
        self.walking, self.stopped, self.complete = True, False, False
        self.pages_read = self.applications_read = 0
        self.total_items = self.total_pages = None
        self.problem_text = ""
        self._shown_at = 0.0
        self._show_progress()
        self._loading = self.set_timer(LOADING_DELAY, self._show_loading)
        self._worker = self.run_worker(
            self._walk(), group="tenant-walk", exclusive=True, exit_on_error=False
        )
        self._watch_budget()
        self.refresh_bindings()

    def _watch_budget(self) -> None:
        """The progress line says when the walk waits for the rate limit, counting down."""
        if self._unwatch is not None:
            return
        client = session_host(self).connected_client()
        if client is None:
            return
        budget = self._budget = client.budget

        def changed(seconds: float) -> None:
            self._show_progress()
            if seconds > 0 and self._countdown is None:
                self._countdown = self.set_interval(1.0, self._count_down)

        self._unwatch = budget.watch(changed)

    def _count_down(self) -> None:
        self._show_progress()
        waiting = self._budget is not None and self._budget.waiting > 0
        if not waiting and self._countdown is not None:
            self._countdown.stop()
            self._countdown = None

    def on_unmount(self) -> None:
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None

    def waiting_text(self) -> str:
        """ "waiting for the rate limit, 12 s" while a request of the walk waits for it."""
        budget = self._budget
        if not self.walking or budget is None or not budget.waiting:
            return ""
        from console.client.budget import waiting_text

        return waiting_text(budget.waiting)

    def _stop_loading(self) -> None:
        if self._loading is not None:
            self._loading.stop()
            self._loading = None

    def _show_loading(self) -> None:
        if self.walking and self.pages_read == 0:
            self.show_state(lambda panel: panel.show_loading(APPLICATIONS.plural))

    async def _walk(self) -> None:
        client = session_host(self).client
        try:
            async for page in self.walk(client):
                self.pages_read = page.number
                self.total_items = page.total_items
                self.total_pages = page.total_pages
                self.take_page(page)
                if page.number == 1:
                    self._stop_loading()
                    self.hide_state()
                if page.number == 1 or time.monotonic() - self._shown_at >= PROGRESS_EVERY:
                    self.show_totals()
        except Exception as exc:
            log.warning("%s: the applications could not be read", self.title_text, exc_info=True)
            problem = describe(exc, permission=self.permission, what=APPLICATIONS.plural)
            self._stop_loading()
            self.walking = False
            self.problem_text = f"{problem.title}: {problem.message}"
            if self.pages_read == 0:
                self.show_state(lambda panel: panel.show_problem(problem))
            notices(self).report_problem(problem)
            self.show_totals()  # the rows read before the failure stay, every one shown
            self.refresh_bindings()
            return
        self.walking, self.complete = False, True
        self.finished()
        self.show_totals()
        self.refresh_bindings()

    def walk(self, client: AdminClient) -> AsyncIterator[PageT]:
        """The pages (console.client.review's ReviewPage or HoldersPage)."""
        raise NotImplementedError

    def take_page(self, page: PageT) -> None:
        """Keeps a page's rows and shows those that pass the view's filter."""
        raise NotImplementedError

    def finished(self) -> None:
        """The last page was read: an empty result says so."""

    def clear(self) -> None:
        self._pending_rows = []
        self.table.clear()

    def show_totals(self) -> None:
        """The rows held back, the progress line and whatever else counts the rows (the
        review's flags)."""
        self._shown_at = time.monotonic()
        self.flush_rows()
        self._show_progress()

    def show_state(self, show: Callable[[StatePanel], None]) -> None:
        """The state panel (loading, empty, failed) in place of the table."""
        show(self.query_one(StatePanel))
        self.table.display = False

    def hide_state(self) -> None:
        self.query_one(StatePanel).hide()
        self.table.display = True
        if self.focused is None:  # hidden, the table lost the focus: its keys need it
            self.table.focus()

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is self._worker and event.state == WorkerState.CANCELLED:
            self.walking = False
            self._show_progress()
            self.refresh_bindings()

    def stop(self) -> None:
        """Stops the walk where it is: what was read stays on screen."""
        if not self.walking:
            return
        if self._worker is not None:
            self._worker.cancel()
        self.walking, self.stopped = False, True
        self.show_totals()
        if self.pages_read == 0:
            self.show_state(
                lambda panel: panel.show_empty(
                    "Stopped before the first page.", "Press r to read the applications."
                )
            )
        self._show_progress()
        self.refresh_bindings()

    # ---- the progress line ---------------------------------------------------------------

    def where(self) -> str:
        """ "page 3 of 100, 300 of 10,000 applications"."""
        pages = f"page {self.pages_read}"
        if self.total_pages:
            pages += f" of {self.total_pages}"
        total = f" of {self.total_items:,}" if self.total_items is not None else ""
        return f"{pages}, {self.applications_read:,}{total} {APPLICATIONS.plural}"

    def summary(self) -> str:
        """What the rows amount to ("12 flagged"), after the progress."""
        return ""

    def progress_text(self) -> str:
        summary = self.summary()
        tail = f" · {summary}" if summary else ""
        if self.problem_text:
            where = f"stopped at {self.where()}: {self.problem_text}"
            return f"{self.title_text} · {where} · r reads again"
        if self.walking:
            waiting = self.waiting_text()
            wait = f" · {waiting}" if waiting else ""
            if self.pages_read == 0:
                return f"{self.title_text} · reading the first page…{wait} (esc stops)"
            return f"{self.title_text} · reading {self.where()}{tail}{wait} · esc stops"
        if self.stopped:
            return f"{self.title_text} · stopped at {self.where()}{tail} · r reads again"
        read = f"{self.applications_read:,} {APPLICATIONS.plural}"
        return f"{self.title_text} · {read}{tail}"

    def _show_progress(self) -> None:
        line = self.query_one(".walk-progress", Static)
        line.update(self.progress_text())
        line.set_class(self.stopped and not self.problem_text, "-stopped")
        line.set_class(bool(self.problem_text), "-failed")

    # ---- keys ------------------------------------------------------------------------------

    def action_stop_or_back(self) -> None:
        if self.walking:
            self.stop()
        else:
            self.app.pop_screen()

    def action_restart(self) -> None:
        self.start()

    def action_enter_key(self) -> None:
        """After a 401 (the problem says "Press K"): the new-key prompt, as on the console."""
        key_prompts(self).prompt_new_key()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "restart":
            return not self.walking
        if action == "enter_key":
            return session_host(self).key_rejected
        return True

    def open_application(self, application_id: str) -> None:
        """The application's detail, above this screen (escape comes back here)."""
        if not application_id:
            return
        router(self).open_detail_by_id(APPLICATIONS, application_id, over=self)

    def add_rows(self, rows: Sequence[Sequence[Cell]]) -> None:
        """Rows for the table, added with the next progress redraw (see PROGRESS_EVERY): the
        table's growth takes a layout of the screen, once per batch instead of per page."""
        self._pending_rows.extend(rows)

    def replace_table_rows(self, rows: Sequence[Sequence[Cell]]) -> None:
        """Other rows in the table (a filter): cleared and added, not `replace_rows`, as the
        number of rows, and so the scroll size, changes; the cursor goes to the top."""
        self._pending_rows = []
        self.table.clear()
        self.table.add_rows(rows)

    def flush_rows(self) -> None:
        if self._pending_rows:
            rows, self._pending_rows = self._pending_rows, []
            self.table.add_rows(rows)
