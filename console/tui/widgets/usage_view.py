"""The Usage section: fetches the usage report and hands it to the UsageDashboard widget."""

from __future__ import annotations

import logging
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from console.clock import now
from console.tui.problems import Problem, describe
from console.tui.widgets.section_messages import SectionFailed, StatusChanged
from console.tui.widgets.usage_dashboard import UsageDashboard

log = logging.getLogger(__name__)


class UsageView(Vertical):
    """Fetches GET /tenants/self/reports/usage when shown, on r, and when the dashboard asks."""

    title = "Usage"
    permission = "report:read"

    class Loaded(Message):
        def __init__(self, report: Any) -> None:
            super().__init__()
            self.report = report

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report: Any = None
        self.loaded = False
        self.fetching = False
        """A request is under way. (Not Widget.loading: that covers the widget with a spinner.)"""
        self.problem: Problem | None = None
        self._generation = 0

    def compose(self) -> ComposeResult:
        yield UsageDashboard()

    def focus(self, scroll_visible: bool = True) -> UsageView:
        """The report's scroll takes the keys, so that every panel is a key away (down, j,
        pagedown, G) without knowing Tab."""
        self.query_one("#usage-report").focus(scroll_visible)
        return self

    @property
    def dashboard(self) -> UsageDashboard:
        return self.query_one(UsageDashboard)

    @property
    def status_text(self) -> str:
        if self.problem is not None:
            return "failed"
        return "loading…" if self.fetching else ""

    def ensure_loaded(self) -> None:
        if not self.loaded and not self.fetching and self.problem is None:
            self.reload()

    def reset(self) -> None:
        shown = self.report is not None or self.problem is not None
        self._generation += 1
        self.report, self.loaded, self.fetching, self.problem = None, False, False, None
        if shown and self.is_mounted:
            # Another tenant now: its report must not appear under the old one's figures.
            self.dashboard.remove()
            self.mount(UsageDashboard())

    def reload(self) -> None:
        self._generation += 1
        self.fetching, self.problem = True, None
        self.dashboard.show_loading()
        self.run_worker(self._load(self._generation), group="usage", exit_on_error=False)
        self.post_message(StatusChanged(self, self.status_text))

    @on(UsageDashboard.RefreshRequested)
    def _refresh_requested(self, event: UsageDashboard.RefreshRequested) -> None:
        event.stop()
        if not self.fetching:
            self.reload()

    async def _load(self, generation: int) -> None:
        try:
            report = await self.app.client.tenant.usage()  # type: ignore[attr-defined]
        except Exception as exc:
            log.warning("The usage report could not be read", exc_info=True)
            if generation == self._generation:
                self.fetching = False
                self.problem = describe(exc, permission=self.permission, what="usage report")
                hint = self.problem.hint if self.problem.unauthorized else None
                self.dashboard.show_error(exc, hint=hint)
                self.post_message(SectionFailed(self, self.problem))
                self.post_message(StatusChanged(self, self.status_text))
            return
        if generation != self._generation:
            return
        self.report, self.loaded, self.fetching = report, True, False
        self.dashboard.show_report(report, now())
        self.post_message(self.Loaded(report))
        self.post_message(StatusChanged(self, self.status_text))
