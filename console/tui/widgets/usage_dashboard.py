"""The usage dashboard (issue 7): where the tenant stands against its plan, at a glance.

The Usage section mounts `UsageDashboard`, fetches `GET /tenants/self/reports/usage` and hands
the result to `show_report` / `show_error`. The dashboard never fetches by itself: on `r` and on
each auto-refresh tick it posts `UsageDashboard.RefreshRequested` for the section to act on.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import ContentSwitcher, DataTable, LoadingIndicator, Static

from console import clock
from console.models.tenants import UsageReport
from console.tui.formatting import clock_time, local_time, relative, when
from console.tui.widgets.key_scroll import KeyScroll
from console.tui.widgets.usage_math import (
    STATE_LABELS,
    GaugeState,
    TokenTypeRow,
    format_count,
    format_plan_percent,
    format_share,
    gauge_state,
    is_empty,
    plan_figures,
    plan_status_text,
    token_type_rows,
    usage_state,
    usage_summary,
    usage_summary_markup,
)

EIGHTHS = " ▏▎▍▌▋▊▉"
"""Left-aligned block characters from 0/8 to 7/8 of a cell, for sub-cell bar lengths."""

FULL_BLOCK = "█"

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


def bar_cells(fraction: float, width: int) -> tuple[int, int]:
    """Full cells and eighths of a further cell for a bar `fraction` (0..1) of `width` long."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    return divmod(eighths, 8)


def bar_text(fraction: float, width: int, fill: Style, track: Style | None = None) -> Text:
    """A horizontal bar `width` cells wide, filled to `fraction` with eighth-cell precision.

    With a `track` style the unfilled part is drawn as a dim track (the gauge); without one it
    is blank (the bar chart).
    """
    full, partial = bar_cells(fraction, width)
    text = Text(FULL_BLOCK * full, style=fill)
    remaining = width - full
    if partial and remaining > 0:
        partial_style = fill + Style(bgcolor=track.color) if track and track.color else fill
        text.append(EIGHTHS[partial], style=partial_style)
        remaining -= 1
    if remaining > 0:
        text.append((FULL_BLOCK if track else " ") * remaining, style=track or Style())
    return text


class UsageGauge(Widget):
    """Monthly active tokens against the plan, coloured by threshold; copes with > 100%.

    Within plan the bar's full length is the plan. Over plan it is the use, with a marker
    where the plan ends, so "how far over" is visible as the length past the marker.
    """

    COMPONENT_CLASSES = {
        "usage-gauge--normal",
        "usage-gauge--warning",
        "usage-gauge--over",
        "usage-gauge--track",
        "usage-gauge--marker",
        "usage-gauge--scale",
    }

    DEFAULT_CSS = """
    UsageGauge {
        height: 3;
        & > .usage-gauge--normal { color: $success; }
        & > .usage-gauge--warning { color: $warning; }
        & > .usage-gauge--over { color: $error; }
        & > .usage-gauge--track { color: $foreground 12%; }
        & > .usage-gauge--marker { color: $foreground; text-style: bold; }
        & > .usage-gauge--scale { color: $text-muted; }
    }
    """

    used: reactive[int] = reactive(0)
    included: reactive[int] = reactive(0)

    def set_usage(self, used: int, included: int) -> None:
        self.used = used
        self.included = included

    @property
    def state(self) -> GaugeState:
        return gauge_state(self.used, self.included)

    def render(self) -> Text:
        width = max(self.content_size.width, 10)
        bar_lines = max(self.content_size.height - 1, 1)
        fill = self.get_component_rich_style(f"usage-gauge--{self.state}")
        track = self.get_component_rich_style("usage-gauge--track")
        marker = self.get_component_rich_style("usage-gauge--marker")
        scale_style = self.get_component_rich_style("usage-gauge--scale")

        used, included = self.used, self.included
        scale_max = max(used, included, 1)
        bar = bar_text(used / scale_max, width, fill, track)
        if used > included and included:
            # The plan's end, drawn over the bar: the filled length past it is the overage.
            plan_cell = min(width - 1, round(included / scale_max * width))
            bar = bar[:plan_cell] + Text("┃", style=fill + marker) + bar[plan_cell + 1 :]

        lines = [bar.copy() for _ in range(bar_lines)]
        lines.append(self._scale_line(width, scale_style))
        return Text("\n").join(lines)

    def _scale_line(self, width: int, style: Style) -> Text:
        """ "0 … plan 10,000" under the bar, and the use at the right end when over plan."""
        used, included = self.used, self.included
        scale = [" "] * width
        left = "0"
        scale[: len(left)] = left
        plan_label = f"plan {format_count(included)}"
        if used > included and included:
            end_label = format_count(used)
            plan_cell = min(width - 1, round(included / used * width))
            start = max(len(left) + 1, plan_cell - len(plan_label) + 1)
            end_start = width - len(end_label)
            if start + len(plan_label) < end_start:
                scale[start : start + len(plan_label)] = plan_label
            scale[end_start:] = end_label
        else:
            start = max(len(left) + 1, width - len(plan_label))
            scale[start : start + len(plan_label)] = plan_label[: width - start]
        return Text("".join(scale)[:width], style=style)


class TokenBarChart(Widget):
    """Tokens by type as horizontal bars scaled to the largest count, readable at 80 columns."""

    COMPONENT_CLASSES = {"token-bar-chart--bar", "token-bar-chart--label", "token-bar-chart--count"}

    DEFAULT_CSS = """
    TokenBarChart {
        height: auto;
        & > .token-bar-chart--bar { color: $primary; }
        & > .token-bar-chart--label { color: $text; }
        & > .token-bar-chart--count { color: $text-muted; }
    }
    """

    LABEL_MAX = 16
    """Longest type label before it is shortened with "…" (LABEL_MAX_WIDE from 100 columns)."""
    LABEL_MAX_WIDE = 24

    def __init__(self, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self.rows: list[TokenTypeRow] = []

    def set_rows(self, rows: list[TokenTypeRow]) -> None:
        self.rows = rows
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[override]
        return max(len(self.rows), 1)

    def render(self) -> Text:
        if not self.rows:
            return Text("")
        width = max(self.content_size.width, 20)
        bar_style = self.get_component_rich_style("token-bar-chart--bar")
        label_style = self.get_component_rich_style("token-bar-chart--label")
        count_style = self.get_component_rich_style("token-bar-chart--count")

        label_max = self.LABEL_MAX_WIDE if width >= 100 else self.LABEL_MAX
        label_width = min(max(len(row.name) for row in self.rows), label_max)
        counts = [format_count(row.count) for row in self.rows]
        shares = [format_share(row.share) for row in self.rows]
        count_width = max(len(c) for c in counts)
        share_width = max(len(s) for s in shares)
        bar_width = max(width - label_width - count_width - share_width - 4, 1)
        largest = max(row.count for row in self.rows) or 1

        lines = []
        for row, count, share in zip(self.rows, counts, shares, strict=True):
            label = row.name if len(row.name) <= label_width else row.name[: label_width - 1] + "…"
            line = Text(label.ljust(label_width), style=label_style)
            line.append(" ")
            line.append_text(bar_text(row.count / largest, bar_width, bar_style))
            line.append(" ")
            line.append(count.rjust(count_width), style=label_style)
            line.append("  ")
            line.append(share.rjust(share_width), style=count_style)
            lines.append(line)
        return Text("\n").join(lines)


class UsageBadge(Static):
    """The one-line usage summary for the header or the Tenant section, coloured by state."""

    DEFAULT_CSS = """
    UsageBadge {
        width: auto;
        height: 1;
        padding: 0 1;
        &.-normal { color: $text-success; }
        &.-warning { color: $text-warning; }
        &.-over { color: $text-error; text-style: bold; }
    }
    """

    def show_report(self, report: UsageReport | None) -> None:
        """Show the report's summary, or nothing when there is none (e.g. no report:read)."""
        self.remove_class("-normal", "-warning", "-over")
        if report is None:
            self.update("")
            return
        self.add_class(f"-{usage_state(report)}")
        self.update(usage_summary(report))


class UsageDashboard(Widget):
    """Monthly active tokens against the plan, tokens by type, and when it was fetched.

    States: "idle" (nothing yet), "loading", "error", "empty" (no tokens yet) and "report".
    A refresh while a report is shown keeps it on screen (`refreshing` is True meanwhile).
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

    DEFAULT_CSS = """
    UsageDashboard {
        height: 1fr;
        background: $background;

        #usage-meta-bar {
            height: 1;
            padding: 0 1;
            background: $panel;
            color: $text-muted;
        }
        #usage-totals { width: 1fr; color: $text; }
        #usage-fetched { width: auto; color: $text-muted; }

        #usage-switcher { height: 1fr; }
        #usage-report { height: 1fr; padding: 0 1; scrollbar-size-vertical: 1; }

        #usage-plan {
            height: auto;
            border: round $success;
            border-title-color: $text;
            border-title-style: bold;
            padding: 0 1;
        }
        &.-warning #usage-plan { border: round $warning; }
        &.-over #usage-plan { border: round $error; }
        #usage-plan-line { height: 1; }
        #usage-plan-numbers { width: 1fr; }
        #usage-plan-status { width: auto; text-style: bold; color: $text-success; }
        &.-warning #usage-plan-status { color: $text-warning; }
        &.-over #usage-plan-status { color: $text-error; }
        #usage-gauge { margin-top: 1; }

        #usage-types { height: auto; }
        &.-wide #usage-types { layout: horizontal; }
        #usage-table-panel, #usage-chart-panel {
            height: auto;
            border: round $border-blurred;
            border-title-color: $text;
            border-title-style: bold;
            padding: 0 1;
        }
        #usage-table-panel { padding: 0; }  /* the table's cells carry their own padding */
        #usage-table-panel:focus-within { border: round $border; }
        &.-wide #usage-table-panel { width: auto; margin-right: 1; }
        &.-wide #usage-chart-panel { width: 1fr; }
        #usage-table { height: auto; width: auto; background: $surface; }

        #usage-empty {
            height: auto;
            border: round $border-blurred;
            padding: 1 2;
            color: $text-muted;
            content-align: center middle;
            text-align: center;
        }

        #usage-loading { height: 1fr; align: center middle; }
        #usage-loading LoadingIndicator { height: 3; }
        #usage-loading-label { width: 100%; text-align: center; color: $text-muted; }

        #usage-error { height: 1fr; padding: 1 2; align: center top; }
        #usage-error-panel {
            height: auto;
            max-width: 90;
            border: round $error;
            border-title-color: $text-error;
            border-title-style: bold;
            padding: 1 2;
            background: $error 8%;
        }
        #usage-error-message { color: $text; }
        #usage-error-hint { margin-top: 1; color: $text-muted; }

        #usage-idle { height: 1fr; content-align: center middle; color: $text-muted; }
    }
    """

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
                yield Static("", id="usage-empty")
                with Vertical(id="usage-types"):
                    with Vertical(id="usage-table-panel"):
                        yield DataTable(id="usage-table", cursor_type="row", zebra_stripes=True)
                    with Vertical(id="usage-chart-panel"):
                        yield TokenBarChart(id="usage-chart")

    def on_mount(self) -> None:
        self.query_one("#usage-plan").border_title = "Monthly active tokens"
        self.query_one("#usage-table-panel").border_title = "Tokens by type"
        self.query_one("#usage-chart-panel").border_title = "Share of all tokens"
        self.query_one("#usage-error-panel").border_title = "Could not load the usage report"
        table = self.query_one("#usage-table", DataTable)
        table.add_column("Type", key="type")
        table.add_column("Count", key="count")
        table.add_column("Share", key="share")
        table.add_column("Last created", key="last_created")
        self.set_interval(META_TICK_SECONDS, self._update_meta)
        saved = getattr(getattr(self.app, "preferences", None), "usage_auto_refresh", None)
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
    def percent_text(self) -> str | None:
        return format_plan_percent(self.report) if self.report else None

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


def _plain(markup: str) -> str:
    """Markup as the plain text a person reads."""
    return Content.from_markup(markup).plain


class UsageCommands(Provider):
    """Palette commands for the dashboard on screen: auto-refresh interval and refresh now.

    The app adds this to its `COMMANDS`; it offers nothing while no dashboard is mounted.
    """

    def _usage_dashboard(self) -> UsageDashboard | None:
        dashboards = self.screen.query(UsageDashboard)
        return dashboards.first() if dashboards else None

    def _usage_commands(self) -> list[tuple[str, str, object]]:
        dashboard = self._usage_dashboard()
        if dashboard is None:
            return []
        commands: list[tuple[str, str, object]] = []
        for seconds in AUTO_REFRESH_CHOICES:
            current = (dashboard.auto_refresh_seconds or None) == seconds
            label = f"Usage: auto-refresh {describe_interval(seconds)}"
            help_text = "The current setting" if current else "Refetch the usage report on a timer"
            if seconds is None:
                help_text = "The current setting" if current else "Refresh only when asked (r)"
            commands.append((label, help_text, _setter(dashboard, seconds)))
        commands.append(
            ("Usage: refresh now", "Fetch the usage report again", dashboard.action_refresh)
        )
        return commands

    async def discover(self) -> Hits:
        for label, help_text, callback in self._usage_commands():
            yield DiscoveryHit(label, callback, help=help_text)  # type: ignore[arg-type]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, help_text, callback in self._usage_commands():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), callback, help=help_text)  # type: ignore[arg-type]


def _setter(dashboard: UsageDashboard, seconds: int | None):
    def apply() -> None:
        dashboard.set_auto_refresh(seconds)
        dashboard.notify(f"Usage auto-refresh {describe_interval(seconds)}.", timeout=3)
        remember = getattr(dashboard.app, "set_preference", None)
        if remember is not None:
            remember(usage_auto_refresh=seconds)

    return apply


__all__ = [
    "AUTO_REFRESH_CHOICES",
    "TokenBarChart",
    "UsageBadge",
    "UsageCommands",
    "UsageDashboard",
    "UsageGauge",
    "describe_interval",
    "usage_state",
    "usage_summary",
    "usage_summary_markup",
]
