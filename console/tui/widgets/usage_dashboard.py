"""The usage dashboard (issue 7): where the tenant stands against its plan, at a glance.

The Usage section mounts `UsageDashboard`, fetches `GET /tenants/self/reports/usage` and hands
the result to `show_report` / `show_error`. The dashboard never fetches by itself: on `r` and on
each auto-refresh tick it posts `UsageDashboard.RefreshRequested` for the section to act on.
Its parts: the gauge (usage_gauge), the chart (usage_chart); its palette commands are in
usage_commands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import ContentSwitcher, DataTable, LoadingIndicator, Static

from console import clock
from console.models.tenants import UsageReport
from console.tui.base.formatting import clock_time, local_time, relative, when
from console.tui.base.shell import PreferenceHost
from console.tui.widgets.key_scroll import KeyScroll
from console.tui.widgets.key_table import KeyTable
from console.tui.widgets.usage_chart import TokenBarChart
from console.tui.widgets.usage_gauge import UsageGauge
from console.tui.widgets.usage_history import UsageHistoryPanel
from console.tui.widgets.usage_math import (
    STATE_LABELS,
    GaugeState,
    TokenTypeRow,
    format_count,
    format_share,
    is_empty,
    plan_figures,
    plan_status_text,
    token_type_rows,
    usage_state,
)
from console.usage_history.forecast import day_text

if TYPE_CHECKING:
    from console.usage_history.forecast import Forecast
    from console.usage_history.store import Snapshot

AUTO_REFRESH_CHOICES: tuple[int | None, ...] = (None, 30, 60, 300)
"""The auto-refresh intervals the command palette offers (None: off)."""

WIDE_WIDTH = 160
"""From this width on, the table and the bar chart sit side by side; below it the chart goes
under the table, where its bars get the whole width (at 120 columns beside a table of large
counts they would be a few cells long)."""

META_TICK_SECONDS = 30
"""How often "fetched 2 minutes ago" is brought up to date."""


def describe_interval(seconds: int | None) -> str:
    """ "off", "every 30 seconds", "every minute", "every 5 minutes"."""
    if not seconds:
        return "off"
    if seconds % 60:
        return "every second" if seconds == 1 else f"every {seconds} seconds"
    minutes = seconds // 60
    return "every minute" if minutes == 1 else f"every {minutes} minutes"


class UsageDashboard(Widget):
    """Monthly active tokens against the plan, tokens by type, and when it was fetched.

    States: "idle" (nothing yet), "loading", "error", "empty" (no tokens yet) and "report".
    A refresh while a report is shown keeps it on screen (`refreshing` is True meanwhile).
    Its layout is app layout, in the console's stylesheet (later.tcss): an app that hosts
    it loads that sheet (the dashboard tests' hosts do, through CSS_PATH).
    """

    class RefreshRequested(Message):
        """The dashboard wants a new report: `r` was pressed or the auto-refresh timer fired."""

        def __init__(self, dashboard: UsageDashboard, automatic: bool) -> None:
            super().__init__()
            self.dashboard = dashboard
            self.automatic = automatic

        @property
        def control(self) -> UsageDashboard:
            return self.dashboard

    BINDINGS = [Binding("r", "refresh", "Refresh")]

    auto_refresh_seconds: reactive[int | None] = reactive(None, init=False)
    """Seconds between automatic refreshes; None (the default) for off."""

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.report: UsageReport | None = None
        self.fetched_at: datetime | None = None
        self.error_message: str | None = None
        self.refreshing = False
        self._state = "idle"
        self._auto_timer: Timer | None = None
        self._ready = False
        self._pending: Callable[[], None] | None = None

    # -- composition -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="usage-meta-bar"):
            yield Static("", id="usage-totals")
            yield Static("", id="usage-fetched")
        with ContentSwitcher(id="usage-switcher", initial="usage-idle"):
            yield Static("No usage report yet. Press r to load it.", id="usage-idle")
            with Vertical(id="usage-loading"):
                yield LoadingIndicator()
                yield Static("Loading the usage report…", id="usage-loading-label")
            with Vertical(id="usage-error"), Vertical(id="usage-error-panel"):
                yield Static("", id="usage-error-message")
                yield Static("", id="usage-error-hint")
            with KeyScroll(id="usage-report"):
                with Vertical(id="usage-plan"):
                    with Horizontal(id="usage-plan-line"):
                        yield Static("", id="usage-plan-numbers")
                        yield Static("", id="usage-plan-status")
                    yield UsageGauge(id="usage-gauge")
                    yield Static("", id="usage-plan-forecast")
                yield Static("", id="usage-empty")
                with Vertical(id="usage-types"):
                    with Vertical(id="usage-table-panel"):
                        yield KeyTable(id="usage-table", cursor_type="row", zebra_stripes=True)
                    with Vertical(id="usage-chart-panel"):
                        yield TokenBarChart(id="usage-chart")
                yield UsageHistoryPanel(id="usage-history")

    def on_mount(self) -> None:
        self.query_one("#usage-plan").border_title = "Monthly active tokens"
        self.query_one("#usage-table-panel").border_title = "Tokens by type"
        self.query_one("#usage-chart-panel").border_title = "Share of all tokens"
        self.query_one("#usage-error-panel").border_title = "Could not load the usage report"
        self.query_one("#usage-plan-forecast").display = False  # until there is a history
        self.query_one(UsageHistoryPanel).display = False
        table = self.query_one("#usage-table", DataTable)
        table.add_column("Type", key="type")
        table.add_column("Count", key="count")
        table.add_column("Share", key="share")
        table.add_column("Last created", key="last_created")
        self.set_interval(META_TICK_SECONDS, self._update_meta)
        # A reusable widget: an app other than the console's (a test's host) has no
        # preferences, so the app is asked whether it keeps them, not assumed to.
        app = self.app
        preferences = app.preferences if isinstance(app, PreferenceHost) else None
        saved = preferences.usage_auto_refresh if preferences is not None else None
        if saved in AUTO_REFRESH_CHOICES:  # the setting survives a restart
            self.auto_refresh_seconds = saved
        self._ready = True
        pending, self._pending = self._pending, None
        if pending is not None:
            pending()  # shown before the dashboard was mounted
        self._update_meta()

    def _defer(self, show: Callable[[], None]) -> bool:
        """Keep the latest show_* call for on_mount when the widgets do not exist yet."""
        if self._ready:
            return False
        self._pending = show
        return True

    def on_resize(self, event: events.Resize) -> None:
        self.set_class(event.size.width >= WIDE_WIDTH, "-wide")

    # -- the section's interface -----------------------------------------------------------

    @property
    def state(self) -> str:
        """ "idle", "loading", "error", "empty" or "report"."""
        return self._state

    @property
    def gauge_state(self) -> GaugeState | None:
        """ "normal", "warning" or "over" for the shown report; None without one."""
        if self.report is None or self._state not in ("report", "empty"):
            return None
        return usage_state(self.report)

    def show_loading(self) -> None:
        """A request is under way. A report on screen stays there, marked as refreshing."""
        if self._defer(self.show_loading):
            return
        if self._state in ("report", "empty"):
            self.refreshing = True
        else:
            self._switch("loading")
        self._update_meta()

    def refresh_failed(self) -> None:
        """A refresh failed: the report shown stays (its section says it is stale)."""
        if self._defer(self.refresh_failed):
            return
        self.refreshing = False
        self._update_meta()

    def show_report(self, report: UsageReport, fetched_at: datetime) -> None:
        """Render the report: the gauge, the totals, the table and the bar chart."""
        if self._defer(lambda: self.show_report(report, fetched_at)):
            return
        self.report = report
        self.fetched_at = fetched_at
        self.error_message = None
        self.refreshing = False
        tokens = report.token_report
        state = usage_state(report)
        for name in ("normal", "warning", "over"):
            self.set_class(name == state, f"-{name}")

        figures = plan_figures(report)
        plan = self.query_one("#usage-plan", Vertical)
        plan.border_subtitle = STATE_LABELS[state] if figures else "Not reported"
        if figures is not None:
            used, included = figures
            self.query_one("#usage-plan-numbers", Static).update(
                f"[b]{format_count(used)}[/b] of {format_count(included)} included"
            )
            self.query_one(UsageGauge).set_usage(used, included)
        else:
            self.query_one("#usage-plan-numbers", Static).update(
                "This service did not report monthly active tokens or the plan's amount."
            )
        self.query_one(UsageGauge).display = figures is not None
        self.query_one("#usage-plan-status", Static).update(plan_status_text(report))

        rows = token_type_rows(report)
        empty = is_empty(report)
        no_breakdown = tokens.metrics_by_type is None
        message = self.query_one("#usage-empty", Static)
        message.display = empty or no_breakdown
        self.query_one("#usage-types").display = not (empty or no_breakdown)
        if no_breakdown:
            total = tokens.token_total
            counted = f"[b]{format_count(total)}[/b] tokens in all. " if total is not None else ""
            message.update(f"{counted}This service did not report the breakdown by token type.")
        elif empty:
            message.update(
                "[b]No tokens yet[/b]\n\n"
                "This tenant has not created any tokens. Once its applications tokenize data, "
                "the counts by type, their shares and when each was last created show here."
            )
        self._fill_table(rows)
        self.query_one(TokenBarChart).set_rows(rows)
        self._switch("empty" if empty else "report")
        self._update_meta()

    def show_error(self, message: str | BaseException, *, hint: str | None = None) -> None:
        """Show why there is no report (e.g. the 403 sentence) in place, with how to retry.

        An `ApiError` may be passed as is: its sentence is shown, and a 403 gets a title and
        a hint about the missing permission.
        """
        if self._defer(lambda: self.show_error(message, hint=hint)):
            return
        status = getattr(message, "status", None)
        text = str(message)
        permission = status == 403 or "report:read" in text
        self.error_message = text
        self.refreshing = False
        panel = self.query_one("#usage-error-panel", Vertical)
        panel.border_title = (
            "Permission needed" if permission else "Could not load the usage report"
        )
        if hint is None:
            hint = (
                "Retrying will not help: the usage report needs a key with report:read. "
                "Switch to a profile whose key has it ([b]p[/b])."
                if permission
                else "Press [b]r[/b] to try again."
            )
        self.query_one("#usage-error-message", Static).update(Text(text))
        self.query_one("#usage-error-hint", Static).update(hint)
        for name in ("normal", "warning", "over"):
            self.remove_class(f"-{name}")
        self._switch("error")
        self._update_meta()

    def show_history(self, snapshots: Sequence[Snapshot], forecast: Forecast) -> None:
        """The usage over time (issue 28): the forecast and the charts, from the history."""
        if self._defer(lambda: self.show_history(snapshots, forecast)):
            return
        panel = self.query_one(UsageHistoryPanel)
        panel.display = True
        panel.show(snapshots, forecast)
        line = self.query_one("#usage-plan-forecast", Static)
        line.display = True
        line.update(forecast_line(forecast, bool(snapshots)))

    @property
    def history_panel(self) -> UsageHistoryPanel:
        return self.query_one(UsageHistoryPanel)

    def set_auto_refresh(self, seconds: int | None) -> None:
        """Refresh every `seconds` (posting RefreshRequested), or stop with None or 0."""
        self.auto_refresh_seconds = seconds or None

    # -- texts shown, for tests and the section -----------------------------------------------

    @property
    def plan_text(self) -> str:
        """The numbers above the gauge and the status beside them, as one plain line."""
        numbers = str(self.query_one("#usage-plan-numbers", Static).content)
        status = str(self.query_one("#usage-plan-status", Static).content)
        return f"{_plain(numbers)} · {status}"

    @property
    def totals_text(self) -> str:
        return _plain(str(self.query_one("#usage-totals", Static).content))

    @property
    def fetched_text(self) -> str:
        return _plain(str(self.query_one("#usage-fetched", Static).content))

    @property
    def error_text(self) -> str:
        return self.error_message or ""

    @property
    def table_rows(self) -> list[tuple[str, ...]]:
        """The table's cells as shown, top row first."""
        table = self.query_one("#usage-table", DataTable)
        return [
            tuple(str(cell) for cell in table.get_row_at(index)) for index in range(table.row_count)
        ]

    # -- actions and timers -----------------------------------------------------------------

    def action_refresh(self) -> None:
        """`r`: ask the section for a new report, unless one is already on its way."""
        if self._state == "loading" or self.refreshing:
            self.notify("The usage report is already loading.", timeout=2)
            return
        self.post_message(self.RefreshRequested(self, automatic=False))

    def watch_auto_refresh_seconds(self, seconds: int | None) -> None:
        if self._auto_timer is not None:
            self._auto_timer.stop()
            self._auto_timer = None
        if seconds:
            self._auto_timer = self.set_interval(seconds, self._on_auto_refresh_tick)
        self._update_meta()

    def _on_auto_refresh_tick(self) -> None:
        if self._state == "loading" or self.refreshing:
            return
        self.post_message(self.RefreshRequested(self, automatic=True))

    # -- internals --------------------------------------------------------------------------

    def _switch(self, state: str) -> None:
        self._state = state
        body = "usage-report" if state == "empty" else f"usage-{state}"
        self.query_one("#usage-switcher", ContentSwitcher).current = body

    def _fill_table(self, rows: list[TokenTypeRow]) -> None:
        table = self.query_one("#usage-table", DataTable)
        table.clear()
        now = clock.now()
        counts = [format_count(row.count) for row in rows]
        shares = [format_share(row.share) for row in rows]
        # Numbers right-aligned by padding: the cells stay plain strings, easy to read back.
        count_width = max([len("Count"), *map(len, counts)])
        share_width = max([len("Share"), *map(len, shares)])
        for row, count, share in zip(rows, counts, shares, strict=True):
            table.add_row(
                Text(row.name),  # a plain Text: a type name is never read as markup
                count.rjust(count_width),
                share.rjust(share_width),
                when(row.last_created_at, zone=False, missing="never", reference=now),
                key=row.name,
            )

    def _update_meta(self) -> None:
        """The bar above the body: totals on the left, fetch time and auto-refresh on the right."""
        if not self.is_mounted:
            return
        totals = self.query_one("#usage-totals", Static)
        fetched = self.query_one("#usage-fetched", Static)
        if self.report is not None and self._state in ("report", "empty"):
            tokens = self.report.token_report
            total = tokens.token_total
            text = f"Total tokens [b]{format_count(total) if total is not None else 'n/a'}[/b]"
            if tokens.metrics_by_type is not None:
                types = len(tokens.metrics)
                text += f" [dim]in {types} {'type' if types == 1 else 'types'}[/dim]"
            if tokens.missing:
                text += f" [dim]· not reported: {', '.join(tokens.missing)}[/dim]"
            totals.update(text)
        elif self._state == "error":
            totals.update("Usage report unavailable")
        else:
            totals.update("")
        parts: list[str] = []
        if self.refreshing or self._state == "loading":
            parts.append("Refreshing…" if self.refreshing else "Loading…")
        elif self.fetched_at is not None and self._state in ("report", "empty"):
            parts.append(f"Fetched {self._fetched_label(self.fetched_at)}")
        if self.auto_refresh_seconds:
            parts.append(f"auto-refresh {describe_interval(self.auto_refresh_seconds)}")
        fetched.update(" · ".join(parts))

    @staticmethod
    def _fetched_label(fetched_at: datetime) -> str:
        now = clock.now()
        same_day = fetched_at.astimezone().date() == now.astimezone().date()
        moment = (
            clock_time(fetched_at, seconds=True)
            if same_day
            else local_time(fetched_at, seconds=True, zone=False)
        )
        return f"{moment} ({relative(fetched_at, reference=now)})"


def forecast_line(forecast: Forecast, recorded: bool) -> str:
    """The forecast in one line under the gauge (the history panel below has the rest)."""
    demo = " [dim](demo data)[/dim]" if forecast.demo else ""
    if not recorded:
        return "[dim]Forecast: no usage recorded yet (see Over time below)[/dim]"
    if not forecast.available:
        return f"[dim]Forecast: cannot forecast yet, {forecast.basis} snapshot(s) this month[/dim]"
    estimate = f"Forecast: [b]{forecast.estimate:,}[/b] by month end{demo}"
    if forecast.passed_on is not None:
        return f"{estimate} · [$text-error]plan passed {day_text(forecast.passed_on)}[/]"
    if forecast.passes_on is not None:
        style = "b $text-warning" if forecast.warns else "$text-warning"
        return f"{estimate} · [{style}]passes the plan {day_text(forecast.passes_on)}[/]"
    return f"{estimate} · within plan this month"


def _plain(markup: str) -> str:
    """Markup as the plain text a person reads."""
    return Content.from_markup(markup).plain
