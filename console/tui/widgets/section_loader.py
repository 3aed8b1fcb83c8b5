"""The load lifecycle every section shares: loaded / fetching / problem, one load at a time in
an exclusive worker, and a result that arrives after a reset (another profile, a reload) is
dropped, never shown. The lists, the Tenant view and the Usage view mix it in.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from console.clock import now
from console.tui.base.formatting import clock_time

if TYPE_CHECKING:
    from console.tui.base.problems import ConsoleProblem

log = logging.getLogger(__name__)

T = TypeVar("T")


class StaleBanner(Static):
    """One line above a section whose content may be out of date (see mark_stale)."""

    DEFAULT_CSS = """
    StaleBanner { height: 1; padding: 0 1; background: $warning 20%; color: $text-warning;
                  text-wrap: nowrap; text-overflow: ellipsis; }
    """


class SectionLoader(Widget):
    """A section's loading state, and the worker that loads it.

    `loaded`, `fetching` (a request is under way; not Widget.loading, which covers the widget
    with a spinner) and `problem` are the state the footer and the screen read. `load` runs
    one request in the section's worker group, exclusively: a new load cancels the one under
    way, and `forget_loads` (a reset) makes any result still coming stale, so it is dropped.
    """

    load_group: ClassVar[str] = "load"
    """The worker group of this section's loads."""

    loaded: var[bool] = var(False)
    fetching: var[bool] = var(False)
    problem: var[ConsoleProblem | None] = var(None)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._generation = 0
        self.loaded_at: datetime | None = None
        self.stale_note = ""
        """Set once a refresh failed while content was shown: it is as last loaded."""

    @property
    def status_text(self) -> str:
        if self.problem is not None:
            return "failed"
        return "loading…" if self.fetching else ""

    def ensure_loaded(self) -> None:
        """Loads unless it is loaded already, loading, or failed (r retries a failure)."""
        if not self.loaded and not self.fetching and self.problem is None:
            self.reload()

    def reload(self) -> None:
        raise NotImplementedError

    def shown_list(self) -> SectionLoader:
        """The part the section's keys act on: the section itself, or the list in use of a
        section of several (People: members or invitations)."""
        return self

    def reset(self) -> None:
        """A new connection: forget what is shown (each section says what it holds)."""
        raise NotImplementedError

    def forget_loads(self) -> None:
        """Whatever load is under way is stale from now on: cancelled, its result dropped."""
        self._generation += 1
        self.workers.cancel_group(self, self.load_group)

    def reset_load_state(self) -> None:
        """Back to nothing loaded (a new profile); the next ensure_loaded starts over."""
        self.forget_loads()
        self.loaded, self.fetching, self.problem = False, False, None
        self.loaded_at, self.stale_note = None, ""
        self.clear_stale()

    def clear_stale(self) -> None:
        """Fresh content replaced what was shown: no stale note any more."""
        self.stale_note = ""
        if self.is_mounted:
            self.query(StaleBanner).remove()

    def load(
        self,
        request: Callable[[], Awaitable[T]],
        *,
        shown: Callable[[T], Awaitable[None] | None],
        failed: Callable[[Exception], Awaitable[None] | None],
        name: str = "",
    ) -> None:
        """Runs `request` in this section's exclusive worker; hands its result to `shown` (or
        its exception to `failed`) unless a reset came in between. Either may be async."""
        generation = self._generation
        self.fetching = True

        async def run() -> None:
            try:
                result = await request()
            except Exception as exc:
                log.warning("%s could not be read", name or type(self).__name__, exc_info=True)
                if generation == self._generation:
                    await _completed(failed(exc))
                return
            if generation == self._generation:
                await _completed(shown(result))

        self.run_worker(
            run(), group=self.load_group, name=name, exclusive=True, exit_on_error=False
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A load cancelled as stale is no news to anyone above."""
        if event.state == WorkerState.CANCELLED and event.worker.group == self.load_group:
            event.stop()

    def is_current(self, generation: int) -> bool:
        """Whether nothing reset the section since `generation` (see `generation`)."""
        return generation == self._generation

    @property
    def generation(self) -> int:
        """Taken before an await, compared after it with `is_current`."""
        return self._generation

    # ---- stale content -------------------------------------------------------------------

    def stale_banner_anchor(self) -> Widget | None:
        """The widget the stale banner goes above; None: this section shows no banner."""
        return None

    def mark_stale(self, failed_at: str) -> None:
        """The service failed meanwhile (elsewhere, or for a later page): what is shown is as
        last loaded, and says so above the content until a reload succeeds."""
        anchor = self.stale_banner_anchor()
        if anchor is None or self.loaded_at is None or self.problem is not None:
            return
        loaded = clock_time(self.loaded_at)
        self.stale_note = f"Stale — last loaded {loaded}, refresh failed at {failed_at}."
        text = f"⚠ {self.stale_note} Press r to retry."
        banners = self.query(StaleBanner)
        if banners:
            banners.first().update(text)
        else:
            self.mount(StaleBanner(text), before=anchor)

    def refresh_failed(self) -> None:
        """A refresh failed while content was shown: the content stays, marked stale as of
        now (only a successful load replaces it; see clear_stale)."""
        self.mark_stale(clock_time(now()))


async def _completed(outcome: Awaitable[None] | None) -> None:
    if inspect.isawaitable(outcome):
        await outcome
