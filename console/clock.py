"""The one clock of the project, frozen by `TENANT_CONSOLE_FROZEN_NOW` for reproducible output.

Snapshot tests and screenshots set the variable (an ISO 8601 time) for the service and the
console alike, so that demo data, "3 days ago" and expiry highlights come out the same each run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

FROZEN_NOW_ENV = "TENANT_CONSOLE_FROZEN_NOW"


def frozen_now() -> datetime | None:
    """The frozen time, if the environment sets one."""
    value = os.environ.get(FROZEN_NOW_ENV)
    if not value:
        return None
    moment = datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def now() -> datetime:
    """The current time in UTC, or the frozen one."""
    return frozen_now() or datetime.now(UTC)
