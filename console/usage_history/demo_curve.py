"""The demo tenant's usage through the month: deterministic, so screenshots and tests see the
same figures for the same moment, and growing, so the demo's dashboard has a trend to show.

Monthly active tokens start each month with a quick climb (the regular users of the first
days), then grow by about DAILY_GROWTH a day, each day a little faster or slower (a fixed
pattern from the date). Token counts grow steadily. At DEMO_ANCHOR (the screenshots' frozen
time) the figures are exactly the ones the demo always had. Used by the local service (its
demo tenant's report) and by `tenant-console demo` (its month of recorded history).
"""

from __future__ import annotations

import hashlib
import math
from datetime import UTC, datetime, timedelta

from console.usage_history.store import Snapshot

DEMO_ANCHOR = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
DEMO_INCLUDED = 250_000
DEMO_ANCHOR_ACTIVE = 226_480
DAILY_GROWTH = 3_000.0
RAMP_DAYS = 1.5
WIGGLE = 0.1
"""Each day's growth is DAILY_GROWTH times 1 ± WIGGLE, from a hash of the date."""
DEMO_COUNTS: dict[str, tuple[int, float]] = {
    "card": (184_213, 1_150.0),
    "token": (97_354, 610.0),
    "bank": (22_907, 140.0),
    "email": (61_442, 380.0),
    "social_security_number": (8_120, 45.0),
    "card_number": (1_206, 0.0),
}
"""Each type's count at DEMO_ANCHOR and how many it gains a day."""
HISTORY_DAYS = 30
HISTORY_STEP = timedelta(hours=6)
DAY = 86_400.0


def _weight(day: datetime) -> float:
    digest = hashlib.sha256(f"demo-usage/{day:%Y-%m-%d}".encode()).digest()
    return 1.0 + WIGGLE * (digest[0] / 127.5 - 1.0)


def _linear_days(moment: datetime) -> float:
    """Days since the month began, each weighted by its own pace."""
    start = datetime(moment.year, moment.month, 1, tzinfo=UTC)
    elapsed = (moment - start).total_seconds() / DAY
    whole = int(elapsed)
    total = sum(_weight(start + timedelta(days=k)) for k in range(whole))
    return total + (elapsed - whole) * _weight(start + timedelta(days=whole))


def _ramp(moment: datetime) -> float:
    start = datetime(moment.year, moment.month, 1, tzinfo=UTC)
    elapsed = (moment - start).total_seconds() / DAY
    return 1.0 - math.exp(-elapsed / RAMP_DAYS)


_RAMP_HEIGHT = (DEMO_ANCHOR_ACTIVE - DAILY_GROWTH * _linear_days(DEMO_ANCHOR)) / _ramp(DEMO_ANCHOR)


def monthly_active(moment: datetime) -> int:
    """The demo tenant's monthly active tokens at `moment`."""
    moment = moment.astimezone(UTC)
    return round(_RAMP_HEIGHT * _ramp(moment) + DAILY_GROWTH * _linear_days(moment))


def counts(moment: datetime) -> dict[str, int]:
    """The demo tenant's count per token type at `moment`."""
    days = (moment - DEMO_ANCHOR).total_seconds() / DAY
    return {name: max(0, round(base + rate * days)) for name, (base, rate) in DEMO_COUNTS.items()}


def demo_history(now: datetime) -> list[Snapshot]:
    """A month of snapshots before `now`, every HISTORY_STEP (the demo's recorded history)."""
    step_seconds = HISTORY_STEP.total_seconds()
    first = now - timedelta(days=HISTORY_DAYS)
    # On the step's grid from the epoch, so the same moments come back each run.
    start = datetime.fromtimestamp(
        math.ceil(first.timestamp() / step_seconds) * step_seconds, tz=UTC
    )
    snapshots = []
    moment = start
    while moment < now:
        by_type = counts(moment)
        snapshots.append(
            Snapshot(
                at=moment,
                monthly_active=monthly_active(moment),
                included=DEMO_INCLUDED,
                total=sum(by_type.values()),
                by_type=by_type,
                reader="demo",
                demo=True,
            )
        )
        moment += HISTORY_STEP
    return snapshots
