"""The month-end forecast of monthly active tokens, from this month's snapshots.

Monthly active tokens only grow within a month and start again with the next, so only this
month's snapshots count (UTC months, as the service counts them). The trend is a straight
line fitted (least squares) to the snapshots of the last RECENT_DAYS (all of this month's
when fewer than two fall there), continued from the latest figure to the month's end. The
range is the slope's uncertainty, two standard errors either way (with two snapshots there
is none to measure: the range is then half the slope either way). A slope below zero counts
as zero: monthly active tokens do not fall within a month.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from console.usage_history.store import Snapshot

RECENT_DAYS = 7
MIN_SPAN = timedelta(hours=1)
"""Snapshots closer together than this say nothing about a trend (two reads a minute apart
would extrapolate wildly)."""
WARN_WITHIN = timedelta(days=7)
"""The header warns when the plan will be passed within this long."""
DAY_SECONDS = 86_400.0


def month_start(moment: datetime) -> datetime:
    moment = moment.astimezone(UTC)
    return datetime(moment.year, moment.month, 1, tzinfo=UTC)


def next_month_start(moment: datetime) -> datetime:
    start = month_start(moment)
    return (start + timedelta(days=32)).replace(day=1)


@dataclass(frozen=True)
class Forecast:
    """Where monthly active tokens will stand at the month's end, if the trend holds."""

    now: datetime
    month_end: datetime
    """The first moment of the next month."""
    basis: int
    """How many snapshots the trend rests on (this month's, with monthly active tokens)."""
    reason: str | None = None
    """Why there is no forecast (a sentence); None when there is one."""
    current: int | None = None
    estimate: int | None = None
    low: int | None = None
    high: int | None = None
    per_day: float | None = None
    included: int | None = None
    passes_on: datetime | None = None
    """When the plan's included figure will be passed if the trend holds (this month)."""
    passed_on: datetime | None = None
    """When it was passed already: the first snapshot over it this month."""
    demo: bool = False

    @property
    def available(self) -> bool:
        return self.reason is None

    @property
    def warns(self) -> bool:
        """The plan will be passed within WARN_WITHIN (the header says so)."""
        return self.passes_on is not None and self.passes_on - self.now <= WARN_WITHIN

    def passing_text(self) -> str:
        """When the plan is passed, in words."""
        if self.included is None:
            return "The service did not report the plan's included figure."
        if self.passed_on is not None:
            return f"The plan's {self.included:,} were passed on {day_text(self.passed_on)}."
        if self.passes_on is not None:
            return (
                f"The plan's {self.included:,} will be passed on {day_text(self.passes_on)}"
                f" ({_days_away(self.now, self.passes_on)}) if the trend holds."
            )
        if not self.available:
            return ""
        return f"The plan's {self.included:,} will not be passed this month at this rate."

    def summary(self) -> str:
        """One or two lines: the estimate with its range and basis, then the plan."""
        if not self.available:
            return f"Cannot forecast yet: {self.reason}"
        assert self.estimate is not None and self.low is not None and self.high is not None
        line = (
            f"Month-end estimate {self.estimate:,} monthly active tokens"
            f" (range {self.low:,} to {self.high:,}), from {self.basis} snapshots"
        )
        passing = self.passing_text()
        return f"{line}.\n{passing}" if passing else f"{line}."

    def header_warning(self) -> str:
        """The header's warning ("" when none): the plan will be passed within seven days."""
        if not self.warns or self.passes_on is None:
            return ""
        demo = " (demo data)" if self.demo else ""
        return f"⚠ passes the plan ~{day_text(self.passes_on)}{demo}"

    def to_json(self) -> dict[str, object]:
        def text(moment: datetime | None) -> str | None:
            return moment.astimezone(UTC).isoformat().replace("+00:00", "Z") if moment else None

        return {
            "available": self.available,
            "reason": self.reason,
            "basis": self.basis,
            "month_end": text(self.month_end),
            "current": self.current,
            "estimate": self.estimate,
            "low": self.low,
            "high": self.high,
            "per_day": round(self.per_day, 1) if self.per_day is not None else None,
            "included": self.included,
            "passes_on": text(self.passes_on),
            "passed_on": text(self.passed_on),
            "warning": self.warns,
            "demo": self.demo,
        }


def day_text(moment: datetime) -> str:
    """ "Nov 29" (UTC, as the months are)."""
    moment = moment.astimezone(UTC)
    return f"{moment:%b} {moment.day}"


def _days_away(now: datetime, then: datetime) -> str:
    days = (then - now).total_seconds() / DAY_SECONDS
    if days < 1:
        return "within a day"
    whole = round(days)
    return f"in {whole} day{'s' if whole != 1 else ''}"


def this_month(snapshots: Sequence[Snapshot], now: datetime) -> list[Snapshot]:
    """This month's snapshots up to now that have monthly active tokens, oldest first."""
    start = month_start(now)
    return sorted(
        (s for s in snapshots if start <= s.at <= now and s.monthly_active is not None),
        key=lambda s: s.at,
    )


def forecast(snapshots: Sequence[Snapshot], now: datetime) -> Forecast:
    """The forecast for the month `now` is in."""
    end = next_month_start(now)
    month = this_month(snapshots, now)
    demo = any(s.demo for s in month)
    base = Forecast(now=now, month_end=end, basis=len(month), demo=demo)
    if month:
        base = _with(base, current=month[-1].monthly_active, included=month[-1].included)
    if len(month) < 2:
        said = "no snapshot" if not month else "one snapshot"
        return _with(base, reason=f"{said} this month; a trend needs at least two.")
    if month[-1].at - month[0].at < MIN_SPAN:
        return _with(base, reason="this month's snapshots span less than an hour.")
    recent = [s for s in month if month[-1].at - s.at <= timedelta(days=RECENT_DAYS)]
    points = recent if len(recent) >= 2 and recent[-1].at - recent[0].at >= MIN_SPAN else month
    slope, spread = _trend(points)
    last = month[-1]
    assert last.monthly_active is not None
    remaining = max(0.0, (end - last.at).total_seconds() / DAY_SECONDS)
    estimate = last.monthly_active + slope * remaining
    low = last.monthly_active + max(0.0, slope - 2 * spread) * remaining
    high = last.monthly_active + (slope + 2 * spread) * remaining
    result = _with(
        base,
        basis=len(points),
        estimate=round(estimate),
        low=round(low),
        high=round(high),
        per_day=slope,
    )
    included = last.included
    if included is None:
        return result
    if last.monthly_active > included:
        first = next(s for s in month if (s.monthly_active or 0) > included)
        return _with(result, passed_on=first.at)
    if slope > 0:
        passes = last.at + timedelta(days=(included - last.monthly_active) / slope)
        if passes < end:
            return _with(result, passes_on=passes)
    return result


def _trend(points: Sequence[Snapshot]) -> tuple[float, float]:
    """(tokens per day, its standard error) of a least-squares line through the points."""
    origin = points[0].at
    xs = [(p.at - origin).total_seconds() / DAY_SECONDS for p in points]
    ys = [float(p.monthly_active or 0) for p in points]
    n = len(points)
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mean_x) ** 2 for x in xs)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    slope = sxy / sxx
    if n < 3:
        spread = abs(slope) / 2
    else:
        intercept = mean_y - slope * mean_x
        residual = sum((y - (intercept + slope * x)) ** 2 for x, y in zip(xs, ys, strict=True))
        spread = math.sqrt(residual / (n - 2) / sxx)
    return max(0.0, slope), spread


def _with(value: Forecast, **changes: object) -> Forecast:
    from dataclasses import replace

    return replace(value, **changes)  # type: ignore[arg-type]
