"""`--since WHEN` and `--until WHEN`: a time as a person gives it on the command line.

WHEN is an ISO 8601 date (`2026-11-28`: midnight UTC) or date-time (`2026-11-28T10:00`,
`2026-11-28T10:00:00Z`, `...+02:00`; without an offset, UTC), or a span back from now: a
whole number and a unit, `90s`, `30m`, `24h`, `7d`, `2w`. Anything else is refused whole
(ValueError, one sentence), never guessed at. Shared by `logs` and `review --evidence`.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

_SPAN = re.compile(r"(\d{1,6})([smhdw])")
_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_TIME = re.compile(
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?"
)

EXAMPLES = "2026-11-28, 2026-11-28T10:00:00Z, or a span back from now such as 30m, 24h, 7d"


def span_back(text: str, *, now: datetime | None = None) -> datetime | None:
    """The moment a span back from now names (`30m`, `24h`, `7d`), in UTC; None if `text` is
    no span. The Logs section's `since:` and `until:` take spans too."""
    span = _SPAN.fullmatch(text.strip())
    if span is None:
        return None
    from console.clock import now as clock_now

    amount = timedelta(**{_UNITS[span.group(2)]: int(span.group(1))})
    return (now or clock_now()).astimezone(UTC) - amount


def parse_when(text: str, *, now: datetime | None = None) -> datetime:
    """The moment `text` names, in UTC; ValueError saying what is accepted."""
    value = text.strip()
    back = span_back(value, now=now)
    if back is not None:
        return back
    try:
        if _DATE.fullmatch(value):
            day = date.fromisoformat(value)
            return datetime(day.year, day.month, day.day, tzinfo=UTC)
        if _DATE_TIME.fullmatch(value):
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            return moment.astimezone(UTC)
    except ValueError:
        raise ValueError(f"{text!r} is not a real date or time (give {EXAMPLES})") from None
    raise ValueError(f"{text!r} is not a time: give an ISO 8601 date or date-time ({EXAMPLES})")
