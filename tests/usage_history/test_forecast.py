"""The month-end forecast (issue 28): no data, one point, a trend that passes the plan, one
that does not, a new month, a plan already passed; the range, the basis and the warning."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

from console.usage_history import demo_curve
from console.usage_history.forecast import forecast, month_start, next_month_start
from console.usage_history.store import Snapshot

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
PLAN = 10_000


def snap(at: datetime, used: int, included: int | None = PLAN) -> Snapshot:
    return Snapshot(at=at, monthly_active=used, included=included, total=used, by_type={})


def daily(start_day: int, end_day: int, per_day: int, base: int = 0) -> list[Snapshot]:
    """One snapshot a day at noon, from the start day to the end day of November."""
    return [
        snap(datetime(2026, 11, day, 12, tzinfo=UTC), base + per_day * (day - start_day))
        for day in range(start_day, end_day + 1)
        if datetime(2026, 11, day, 12, tzinfo=UTC) <= NOW
    ]


def test_no_data_cannot_forecast() -> None:
    result = forecast([], NOW)
    assert not result.available and result.basis == 0
    assert result.summary() == (
        "Cannot forecast yet: no snapshot this month; a trend needs at least two."
    )
    assert result.estimate is None and not result.warns and result.header_warning() == ""


def test_one_point_cannot_forecast_but_knows_where_it_stands() -> None:
    result = forecast([snap(NOW - timedelta(hours=2), 4_000)], NOW)
    assert not result.available and result.basis == 1
    assert "one snapshot this month" in result.summary()
    assert result.current == 4_000 and result.included == PLAN


def test_points_within_an_hour_say_nothing_about_a_trend() -> None:
    points = [snap(NOW - timedelta(minutes=30), 4_000), snap(NOW, 4_100)]
    result = forecast(points, NOW)
    assert not result.available and "less than an hour" in (result.reason or "")


def test_a_trend_that_passes_the_plan_says_when_and_warns_within_seven_days() -> None:
    # 400 a day from 1,000 on Nov 1: 9,000 on Nov 21 at noon; the plan (10,000) goes 2.5
    # days later, on Nov 24 at midnight: within seven days of Nov 22.
    points = daily(1, 21, 400, base=1_000)
    result = forecast(points, NOW)
    assert result.available and result.basis == 8  # the last seven days: Nov 14 to 21
    assert abs((result.per_day or 0) - 400) < 1e-6
    last = points[-1]
    remaining = (next_month_start(NOW) - last.at).total_seconds() / 86_400
    assert result.estimate == round(last.monthly_active + 400 * remaining)  # type: ignore[operator]
    assert result.low == result.high == result.estimate  # a perfect line: no spread
    expected = last.at + timedelta(days=(PLAN - last.monthly_active) / 400)  # type: ignore[operator]
    assert result.passes_on == expected
    assert result.passes_on == datetime(2026, 11, 24, tzinfo=UTC)
    assert result.warns and result.header_warning() == "⚠ passes the plan ~Nov 24"
    assert "will be passed on Nov 24 (in 2 days) if the trend holds" in result.summary()
    assert "from 8 snapshots" in result.summary()


def test_a_trend_that_does_not_pass_the_plan_this_month() -> None:
    points = daily(1, 21, 200)  # 4,000 on Nov 21: about 5,900 by the month's end
    result = forecast(points, NOW)
    assert result.available and result.passes_on is None and not result.warns
    assert result.summary().endswith("will not be passed this month at this rate.")
    assert result.estimate is not None and result.estimate < PLAN


def test_a_trend_passing_late_in_the_month_is_forecast_without_a_warning() -> None:
    points = daily(1, 21, 320, base=1_000)  # 7,400 on Nov 21: 10,000 on Nov 29 at about 12:00
    result = forecast(points, NOW)
    assert result.passes_on is not None and result.passes_on.day == 29
    assert result.passes_on - NOW > timedelta(days=7) and not result.warns


def test_a_flat_or_falling_trend_never_forecasts_less_than_now() -> None:
    points = [snap(NOW - timedelta(days=3), 5_000), snap(NOW - timedelta(days=1), 4_800)]
    result = forecast(points, NOW)
    assert result.available and result.per_day == 0
    assert result.estimate == result.low == 4_800 and result.passes_on is None


def test_the_range_widens_with_scatter_and_holds_the_estimate() -> None:
    wobble = [0, 300, -200, 250, -150, 100, -50]
    points = [
        snap(datetime(2026, 11, 15 + k, 12, tzinfo=UTC), 5_000 + 200 * k + w)
        for k, w in enumerate(wobble)
    ]
    result = forecast(points, NOW)
    assert result.low is not None and result.high is not None and result.estimate is not None
    assert result.low < result.estimate < result.high
    assert result.low >= points[-1].monthly_active  # type: ignore[operator]


def test_two_points_give_a_range_of_half_the_slope_either_way() -> None:
    points = [snap(NOW - timedelta(days=2), 2_000), snap(NOW - timedelta(days=1), 2_500)]
    result = forecast(points, NOW)
    assert result.basis == 2 and result.per_day == 500
    remaining = (next_month_start(NOW) - points[-1].at).total_seconds() / 86_400
    assert result.low == 2_500  # max(0, 500 - 2 * 250)
    assert result.high == round(2_500 + 1_000 * remaining)


def test_a_new_month_starts_again() -> None:
    """Last month's snapshots do not make this month's trend."""
    december = datetime(2026, 12, 1, 3, 0, tzinfo=UTC)
    points = daily(1, 21, 400, base=1_000)
    result = forecast(points, december)
    assert not result.available and result.basis == 0
    assert month_start(december) == datetime(2026, 12, 1, tzinfo=UTC)
    # One snapshot in the new month: still not enough.
    fresh = [*points, snap(december - timedelta(hours=2), 800)]
    assert forecast(fresh, december).basis == 1


def test_a_plan_already_passed_says_since_when() -> None:
    points = [
        snap(datetime(2026, 11, 18, tzinfo=UTC), 9_000),
        snap(datetime(2026, 11, 20, tzinfo=UTC), 10_500),
        snap(datetime(2026, 11, 21, tzinfo=UTC), 11_000),
    ]
    result = forecast(points, NOW)
    assert result.passed_on == datetime(2026, 11, 20, tzinfo=UTC)
    assert result.passes_on is None and not result.warns
    assert "were passed on Nov 20" in result.summary()


def test_without_a_plan_figure_there_is_an_estimate_and_no_date() -> None:
    points = [snap(NOW - timedelta(days=2), 100, None), snap(NOW - timedelta(days=1), 200, None)]
    result = forecast(points, NOW)
    assert result.available and result.passes_on is None and result.included is None
    assert "did not report the plan" in result.summary()


def test_json_says_everything_the_table_does() -> None:
    result = forecast(daily(1, 21, 400, base=1_000), NOW)
    document = result.to_json()
    assert document["available"] is True and document["basis"] == 8
    assert document["passes_on"] == result.passes_on.isoformat().replace("+00:00", "Z")  # type: ignore[union-attr]
    assert document["warning"] is True and document["month_end"] == "2026-12-01T00:00:00Z"


def test_the_demo_history_forecasts_passing_on_the_last_day_without_a_header_warning() -> None:
    history = demo_curve.demo_history(NOW)
    assert all(s.demo for s in history) and len(history) == 120
    result = forecast(history, NOW)
    assert result.available and result.demo
    assert result.passes_on is not None and result.passes_on.date().isoformat() == "2026-11-30"
    assert not result.warns  # the screenshots' header stays as it was


def test_the_demo_curve_grows_through_the_month_and_starts_again() -> None:
    assert demo_curve.monthly_active(demo_curve.DEMO_ANCHOR) == demo_curve.DEMO_ANCHOR_ACTIVE
    days = [datetime(2026, 11, d, 12, tzinfo=UTC) for d in range(1, 31)]
    values = [demo_curve.monthly_active(d) for d in days]
    assert values == sorted(values) and values[0] < 60_000
    assert demo_curve.monthly_active(datetime(2026, 12, 1, 1, tzinfo=UTC)) < values[0]
    assert demo_curve.counts(demo_curve.DEMO_ANCHOR)["card"] == 184_213


def test_a_warning_from_demo_data_says_so() -> None:
    points = [replace(s, demo=True) for s in daily(1, 21, 400, base=1_000)]
    result = forecast(points, NOW)
    assert result.demo and result.header_warning() == "⚠ passes the plan ~Nov 24 (demo data)"
