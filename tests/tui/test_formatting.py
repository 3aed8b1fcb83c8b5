"""One time formatter: every time shown, and every time typed, is local time."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from console.tui.base.formatting import clock_time, local_time, parse_local_time, short_date, when

MOMENT = datetime(2026, 12, 31, 17, 0, 41, tzinfo=UTC)


@pytest.fixture
def berlin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()


def test_times_show_in_the_local_zone(berlin: None) -> None:
    assert local_time(MOMENT) == "2026-12-31 18:00 CET"
    assert local_time(MOMENT, zone=False) == short_date(MOMENT) == "2026-12-31 18:00"
    assert local_time(MOMENT, seconds=True, zone=False) == "2026-12-31 18:00:41"
    assert clock_time(MOMENT) == "18:00" and clock_time(MOMENT, seconds=True) == "18:00:41"
    assert local_time(None) == "—" and local_time(None, missing="never") == "never"
    assert when(None, missing="never") == "never"
    assert when(MOMENT, reference=MOMENT).startswith("2026-12-31 18:00 CET (")


def test_typed_times_are_local_unless_they_name_an_offset(berlin: None) -> None:
    assert parse_local_time("2026-12-31 18:00") == datetime(2026, 12, 31, 17, 0, tzinfo=UTC)
    assert parse_local_time("2026-12-31") == datetime(2026, 12, 30, 23, 0, tzinfo=UTC)
    assert parse_local_time("2026-12-31T17:00Z") == datetime(2026, 12, 31, 17, 0, tzinfo=UTC)
    assert parse_local_time("2026-12-31 20:00+03:00") == datetime(2026, 12, 31, 17, 0, tzinfo=UTC)
    assert parse_local_time("  ") is None


def test_a_time_shown_reads_back_as_the_same_time(berlin: None) -> None:
    shown = local_time(MOMENT.replace(second=0), zone=False)
    assert parse_local_time(shown) == MOMENT.replace(second=0)


def test_an_unreadable_time_says_how_to_write_one() -> None:
    with pytest.raises(ValueError, match="2026-12-31 17:00 \\(local time\\)"):
        parse_local_time("next tuesday")
