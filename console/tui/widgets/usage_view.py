"""The Usage section: fetches the usage report and hands it to the UsageDashboard widget."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from console.clock import now
from console.tui.base.app_access import session_host, usage_host
from console.tui.base.problems import describe
from console.tui.widgets.section_loader import SectionLoader
from console.tui.widgets.section_messages import SectionFailed, StatusChanged
from console.tui.widgets.usage_dashboard import UsageDashboard

if TYPE_CHECKING:
    from console.models import UsageReport
    from console.usage_history.forecast import Forecast

log = logging.getLogger(__name__)

FRESH_SECONDS = 60.0
"""Without auto-refresh, a report older than this is fetched again when the section opens
(usage moves slowly; a minute spares the service a request on every visit)."""


class UsageView(Vertical, SectionLoader):
    """Fetches GET /tenants/self/reports/usage when shown, on r, and when the dashboard asks."""

    title = "Usage"
    permission = "report:read"
    load_group = "usage"

    class Loaded(Message):
        def __init__(self, report: UsageReport) -> None:
            super().__init__()
            self.report = report

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.report: UsageReport | None = None

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

    def reset(self) -> None:
        shown = self.report is not None or self.problem is not None
        self.reset_load_state()
        self.report = None
        if shown and self.is_mounted:
            # Another tenant now: its report must not appear under the old one's figures.
            self.dashboard.remove()
            self.mount(UsageDashboard())

    def ensure_loaded(self) -> None:
        """On opening the section: the first report, or a new one when the one shown is
        older than the refresh period (it stays on screen, marked as refreshing, meanwhile)."""
        if self.loaded and not self.fetching and self.problem is None and self.is_old():
            self.reload()
            return
        super().ensure_loaded()

    def refresh_period(self) -> float:
        """The dashboard's auto-refresh interval when one is set, else FRESH_SECONDS."""
        seconds = self.dashboard.auto_refresh_seconds if self.is_mounted else None
        return float(seconds or FRESH_SECONDS)

    def is_old(self) -> bool:
        """Whether the report shown was fetched more than a refresh period ago."""
        if self.loaded_at is None:
            return False
        return (now() - self.loaded_at).total_seconds() > self.refresh_period()

    def reload(self) -> None:
        """A new report; one on screen stays there, marked as refreshing, until it comes."""
        self.forget_loads()
        self.problem = None
        self.dashboard.show_loading()
        self.load(
            lambda: session_host(self).client.tenant.usage(),
            shown=self._show,
            failed=self._failed,
        )
        self.post_message(StatusChanged(self, self.status_text))

    @on(UsageDashboard.RefreshRequested)
    def _refresh_requested(self, event: UsageDashboard.RefreshRequested) -> None:
        event.stop()
        if not self.fetching:
            self.reload()

    def stale_banner_anchor(self) -> UsageDashboard:
        return self.dashboard

    def _failed(self, exc: Exception) -> None:
        self.fetching = False
        problem = describe(exc, permission=self.permission, what="usage report")
        if self.report is not None:  # the report shown stays, as last loaded
            self.dashboard.refresh_failed()
            self.refresh_failed()
        else:
            self.problem = problem
            hint = problem.hint if problem.unauthorized else None
            self.dashboard.show_error(exc, hint=hint)
        self.post_message(SectionFailed(self, problem))
        self.post_message(StatusChanged(self, self.status_text))

    def _show(self, report: UsageReport) -> None:
        self.report, self.loaded, self.fetching = report, True, False
        self.loaded_at = fetched_at = now()
        self.clear_stale()
        self.dashboard.show_report(report, fetched_at)
        self.post_message(self.Loaded(report))
        self.post_message(StatusChanged(self, self.status_text))
        connection = session_host(self).connection
        if connection is not None:  # issue 28: kept, then the history and its forecast
            dashboard = self.dashboard
            usage_host(self).record_usage(
                connection.base_url,
                report,
                reader="dashboard",
                done=lambda snapshots, forecast: _show_history(dashboard, snapshots, forecast),
            )


def _show_history(dashboard: UsageDashboard, snapshots: list, forecast: Forecast) -> None:
    """The history on the dashboard that asked for it (not one mounted since, for another
    tenant)."""
    if dashboard.is_attached:
        dashboard.show_history(snapshots, forecast)
