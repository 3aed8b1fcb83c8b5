"""How the service stores and shows times: fixed-width UTC text that sorts like time."""

from __future__ import annotations

from datetime import UTC, datetime

from console.clock import now


def stamp(moment: datetime) -> str:
    """UTC, ISO 8601, always with microseconds, so that text order is time order in SQL."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def now_stamp() -> str:
    """The project clock's now, as stored."""
    return stamp(now())


def shown(value: str | None) -> str | None:
    """A stored time as the API shows it: whole seconds lose the `.000000`."""
    if value is None:
        return None
    return value.replace(".000000+", "+")
