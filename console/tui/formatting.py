"""How values read in the console: local times with "3 days ago", masked keys, counts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from console.clock import now

NEAR_EXPIRY = timedelta(days=7)
MASK = "••••••••"


def wire_time(value: str | None) -> datetime | None:
    """A timestamp as the service sends it (ISO 8601; naive means UTC), as an aware datetime."""
    if value is None:
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def local_time(moment: datetime | None) -> str:
    """A time in the local zone, to the minute: `2026-11-20 10:00 UTC`."""
    if moment is None:
        return "—"
    local = moment.astimezone()
    return local.strftime("%Y-%m-%d %H:%M %Z").strip()


def short_date(moment: datetime | None) -> str:
    if moment is None:
        return "—"
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def relative(moment: datetime | None, *, reference: datetime | None = None) -> str:
    """`3 days ago`, `in 2 hours`, `just now`."""
    if moment is None:
        return ""
    delta = moment - (reference or now())
    future = delta.total_seconds() > 0
    seconds = abs(int(delta.total_seconds()))
    if seconds < 60:
        return "just now"
    for size, name in ((86400 * 365, "year"), (86400 * 30, "month"), (86400, "day")):
        if seconds >= size:
            amount, unit = seconds // size, name
            break
    else:
        if seconds >= 3600:
            amount, unit = seconds // 3600, "hour"
        else:
            amount, unit = seconds // 60, "minute"
    words = f"{amount} {unit}{'s' if amount != 1 else ''}"
    return f"in {words}" if future else f"{words} ago"


def when(moment: datetime | None) -> str:
    """Local time and relative time together."""
    if moment is None:
        return "—"
    return f"{local_time(moment)} ({relative(moment)})"


def expiry_style(moment: datetime | None) -> str:
    """Rich style for an expiry: red when past or within a day, yellow within a week."""
    if moment is None:
        return ""
    left = moment - now()
    if left <= timedelta(days=1):
        return "bold red"
    if left <= NEAR_EXPIRY:
        return "bold yellow"
    return ""


def mask_key(key: str | None) -> str:
    """A secret shown as dots and its last four characters, never whole."""
    if not key:
        return "—"
    return f"{MASK}{key[-4:]}" if len(key) > 12 else MASK


def yes_no(value: bool | None) -> str:
    return "yes" if value else "no"


def mask_secrets(data: object) -> object:
    """A JSON-like value with every `key` field masked, for the raw view."""
    if isinstance(data, dict):
        return {
            k: (mask_key(v) if k == "key" and isinstance(v, str) else mask_secrets(v))
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [mask_secrets(v) for v in data]
    return data
