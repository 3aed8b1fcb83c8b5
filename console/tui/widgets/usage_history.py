"""The usage dashboard over time (issue 28): the forecast, monthly active tokens through the
month against the plan line (with the previous months, when recorded) and the token types
over time, drawn by textual-plotext.

Imported with the dashboard, when the Usage section first opens: plotext (~17 ms) stays out
of the console's start-up (tests/test_import_hygiene.py checks it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static
from textual_plotext import PlotextPlot

from console.usage_history.forecast import (
    DAY_SECONDS,
    Forecast,
    day_text,
    month_start,
    next_month_start,
)
from console.usage_history.store import Snapshot

PREVIOUS_MONTHS = 2
"""Previous months drawn beside this one (when recorded)."""
TYPES_SHOWN = 6
"""Token types drawn over time: the largest ones (a legend of more would not fit)."""
LINE_COLORS = ("cyan", "green", "orange", "magenta", "blue", "yellow")
DEMO_LABEL = "demo data"


def thousands(value: float) -> str:
    """An axis label in few cells: 0, 950, 12k, 226k, 1.2M."""
    value = round(value)
    if abs(value) < 1000:
        return str(value)
    if abs(value) < 1_000_000:
        return f"{value / 1000:.0f}k"
    return f"{value / 1_000_000:.1f}M".replace(".0M", "M")


def _day_of_month(moment: datetime) -> float:
    """1.0 at the month's first moment, 31.0 at the 31st's."""
    return 1.0 + (moment - month_start(moment)).total_seconds() / DAY_SECONDS


def _ticks(top: float, count: int = 4) -> tuple[list[float], list[str]]:
    step = top / count if top > 0 else 1.0
    values = [step * k for k in range(count + 1)]
    return values, [thousands(v) for v in values]


def month_series(
    snapshots: Sequence[Snapshot], now: datetime
) -> list[tuple[str, list[float], list[int]]]:
    """(month name, days of month, monthly active tokens) for this month and up to
    PREVIOUS_MONTHS before it that have snapshots, this month first."""
    series = []
    start = month_start(now)
    for back in range(PREVIOUS_MONTHS + 1):
        first = start
        for _ in range(back):
            first = month_start(first - timedelta(days=1))
        end = next_month_start(first)
        points = [
            s
            for s in snapshots
            if first <= s.at < end and s.at <= now and s.monthly_active is not None
        ]
        if points:
            name = f"{first:%B}" if back else f"{first:%B} (this month)"
            series.append(
                (
                    name,
                    [_day_of_month(s.at) for s in points],
                    [s.monthly_active or 0 for s in points],
                )
            )
    return series


def forecast_text(result: Forecast, snapshots: Sequence[Snapshot]) -> str:
    """The forecast panel's lines (Textual markup)."""
    if not snapshots:
        return (
            "[b]No usage recorded yet for this tenant.[/b] Every report the console reads is "
            "kept from now on; `tenant-console usage --record` from a timer keeps one regularly."
        )
    if not result.available:
        return (
            f"[b]Cannot forecast yet:[/b] {result.reason} Each visit records one; "
            "`tenant-console usage --record` from a timer records them regularly."
        )
    assert result.estimate is not None
    line = (
        f"Month-end estimate [b]{result.estimate:,}[/b] "
        f"[dim](range {result.low:,} to {result.high:,}, from {result.basis} snapshots"
        f", +{thousands(result.per_day or 0)} a day)[/dim]"
    )
    passing = result.passing_text()
    if result.passed_on is not None:
        passing = f"[$error]{passing}[/]"
    elif result.warns:
        passing = f"[b $warning]⚠ {passing}[/]"
    return f"{line}\n{passing}"


class MonthChart(PlotextPlot):
    """Monthly active tokens through the month: this month, the previous ones, the plan line
    and the forecast to the month's end with its range."""

    DEFAULT_CSS = "MonthChart { height: 14; }"

    def show(self, snapshots: Sequence[Snapshot], result: Forecast) -> None:
        plt = self.plt
        plt.clear_figure()
        now = result.now
        series = month_series(snapshots, now)
        days_in_month = (next_month_start(now) - month_start(now)).days
        end_day = days_in_month + 1.0
        top = 0.0
        included = result.included
        if included is None:
            included = next(
                (s.included for s in reversed(snapshots) if s.included is not None), None
            )
        if included is not None:  # first: every line is drawn over it
            plt.plot(
                [1, end_day], [included, included], label="plan", marker="braille", color="red"
            )
            top = max(top, included)
        for index, (name, days, values) in reversed(list(enumerate(series))):
            color = "cyan" if index == 0 else ("gray" if index == 1 else "white")
            plt.plot(days, values, label=name, marker="braille", color=color)
            top = max(top, *values)
        if result.available and result.estimate is not None and series:
            _, days, values = series[0]
            for bound in (result.low, result.high):
                if bound is not None and bound != result.estimate:
                    plt.plot(
                        [days[-1], end_day], [values[-1], bound], marker="braille", color="gray"
                    )
            plt.plot(
                [days[-1], end_day],
                [values[-1], result.estimate],
                label="forecast",
                marker="braille",
                color="orange",
            )
            top = max(top, result.high or 0)
        top = top * 1.1 or 1.0
        plt.ylim(0, top)
        plt.xlim(1, end_day)
        ticks, labels = _ticks(top)
        plt.yticks(ticks, labels)
        marks: list[float] = [d for d in (1, 8, 15, 22, 29) if d <= days_in_month]
        plt.xticks(marks, [f"{now:%b} {d}" for d in marks])
        self.refresh()


class TypesChart(PlotextPlot):
    """Tokens by type over the recorded time: the largest types, one line each."""

    DEFAULT_CSS = "TypesChart { height: 12; }"

    def show(self, snapshots: Sequence[Snapshot], now: datetime) -> None:
        plt = self.plt
        plt.clear_figure()
        points = [s for s in snapshots if s.by_type]
        if not points:
            return
        latest = points[-1].by_type or {}
        names = sorted(latest, key=lambda n: (-latest[n], n))[:TYPES_SHOWN]
        first = points[0].at
        top = 0
        for index, name in enumerate(names):
            xs = [(s.at - first).total_seconds() / DAY_SECONDS for s in points]
            ys = [(s.by_type or {}).get(name, 0) for s in points]
            plt.plot(
                xs,
                ys,
                label=_label(name),
                marker="braille",
                color=LINE_COLORS[index % len(LINE_COLORS)],
            )
            top = max(top, *ys)
        span = max((points[-1].at - first).total_seconds() / DAY_SECONDS, 1.0)
        plt.xlim(0, span)
        plt.ylim(0, top * 1.1 or 1)
        ticks, labels = _ticks(top * 1.1)
        plt.yticks(ticks, labels)
        marks = [span * k / 3 for k in range(4)]
        plt.xticks(marks, [day_text(first + timedelta(days=m)) for m in marks])
        self.refresh()


def _label(name: str) -> str:
    """A legend label: printable, short."""
    cleaned = "".join(c if c.isprintable() else "?" for c in name)
    return cleaned if len(cleaned) <= 20 else cleaned[:19] + "…"


class UsageHistoryPanel(Vertical):
    """The forecast and the two charts; `show(snapshots, forecast)` fills them."""

    DEFAULT_CSS = """
    UsageHistoryPanel { height: auto; }
    UsageHistoryPanel #usage-forecast { height: auto; padding: 0 1; }
    UsageHistoryPanel .-hidden { display: none; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.snapshots: list[Snapshot] = []
        self.forecast: Forecast | None = None

    def compose(self) -> ComposeResult:
        yield Static("Reading the usage history…", id="usage-forecast")
        yield MonthChart(id="usage-month-chart")
        yield TypesChart(id="usage-types-chart")

    def on_mount(self) -> None:
        self.border_title = "Over time"
        self.query_one(MonthChart).display = False
        self.query_one(TypesChart).display = False

    @property
    def forecast_plain(self) -> str:
        from textual.content import Content

        return Content.from_markup(str(self.query_one("#usage-forecast", Static).content)).plain

    def show(self, snapshots: Sequence[Snapshot], result: Forecast) -> None:
        self.snapshots, self.forecast = list(snapshots), result
        demo = any(s.demo for s in snapshots)
        self.border_title = f"Over time · {DEMO_LABEL}" if demo else "Over time"
        self.border_subtitle = (
            f"{len(snapshots)} snapshots since {day_text(snapshots[0].at)}" if snapshots else ""
        )
        self.query_one("#usage-forecast", Static).update(forecast_text(result, snapshots))
        charted = bool(month_series(snapshots, result.now))
        month = self.query_one(MonthChart)
        month.display = charted
        if charted:
            month.show(snapshots, result)
        types = self.query_one(TypesChart)
        typed = sum(1 for s in snapshots if s.by_type) >= 2
        types.display = typed
        if typed:
            types.show(snapshots, result.now)

    def show_unavailable(self, sentence: str) -> None:
        self.query_one("#usage-forecast", Static).update(sentence)
        self.query_one(MonthChart).display = False
        self.query_one(TypesChart).display = False


__all__ = ["MonthChart", "TypesChart", "UsageHistoryPanel", "forecast_text", "month_series"]
