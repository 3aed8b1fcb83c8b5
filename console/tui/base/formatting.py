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


def local_time(
    moment: datetime | None, *, seconds: bool = False, zone: bool = True, missing: str = "—"
) -> str:
    """A time in the local zone (TZ), to the minute: `2026-11-20 10:00 UTC`; `seconds` adds
    them, `zone=False` leaves the zone's name out. Every time the console shows is made here.
    """
    if moment is None:
        return missing
    pattern = "%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M"
    return moment.astimezone().strftime(f"{pattern} %Z" if zone else pattern).strip()


def clock_time(moment: datetime, *, seconds: bool = False) -> str:
    """The local time of day: `10:02` (`10:02:41` with `seconds`), for "as of" notes."""
    return moment.astimezone().strftime("%H:%M:%S" if seconds else "%H:%M")


def short_date(moment: datetime | None) -> str:
    """A list's cell: local time without the zone's name, `2026-11-20 10:00`."""
    return local_time(moment, zone=False)


def parse_local_time(text: str) -> datetime | None:
    """What a person typed: ISO 8601, `2026-12-31 17:00` or `2026-12-31`, in local time
    unless it names an offset (`+01:00`, `Z`). Returns an aware UTC datetime.

    Raises ValueError with a sentence for a person; empty text means "not set".
    """
    text = text.strip()
    if not text:
        return None
    candidate = text.replace("Z", "+00:00").replace("z", "+00:00")
    try:
        value = datetime.fromisoformat(candidate)
    except ValueError:
        raise ValueError(
            f'"{text}" is not a date and time: use e.g. 2026-12-31 17:00 (local time) or '
            "ISO 8601 with an offset."
        ) from None
    if value.tzinfo is None:
        value = value.astimezone()  # a naive time is read in the local zone
    return value.astimezone(UTC)


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


def when(
    moment: datetime | None,
    *,
    zone: bool = True,
    missing: str = "—",
    reference: datetime | None = None,
) -> str:
    """Local time and relative time together: `2026-11-19 10:00 UTC (3 days ago)`."""
    if moment is None:
        return missing
    return f"{local_time(moment, zone=zone)} ({relative(moment, reference=reference)})"


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


def mask_secret(value: str) -> str:
    """A configuration value (a secret) shown as dots and its length: none of it, unlike a
    key's last four characters, which name the key without revealing it."""
    return f"{MASK} ({len(value)} characters)" if value else "(empty)"


def _masked_values(configuration: dict[str, object]) -> dict[str, object]:
    """A configuration's names with their text values masked (a null stays null)."""
    return {k: mask_secret(v) if isinstance(v, str) else v for k, v in configuration.items()}


def yes_no(value: bool | None) -> str:
    return "yes" if value else "no"


def mask_secrets(data: object) -> object:
    """A JSON-like value with every `key` field and every value of a `configuration` map (a
    reactor's or a proxy's: secrets) masked, for the raw view."""
    if isinstance(data, dict):
        return {
            k: (
                mask_key(v)
                if k == "key" and isinstance(v, str)
                else _masked_values(v)
                if k == "configuration" and isinstance(v, dict)
                else mask_secrets(v)
            )
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [mask_secrets(v) for v in data]
    return data
