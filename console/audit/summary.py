"""What a profile's log archive reaches, for `tenant-console status` and the console's
overview: how far back it goes, and whether it misses a period or is about to.

Two warnings: a gap *opened* (the last sync found the period since the one before partly gone
from the service), and the archive is *stale* (its last sync is older than the service keeps
logs: a gap is opening now, and the next sync will record it).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console.models.logs import LOG_RETENTION_SECONDS

if TYPE_CHECKING:
    from console.audit.archive import ArchiveReach

log = logging.getLogger("console.audit")


def when_text(moment: datetime) -> str:
    """ "2026-11-28 10:04 UTC": a time as the summaries say it."""
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def age_text(seconds: float) -> str:
    """ "30 h", "3 days": how long ago, roughly."""
    hours = seconds / 3600
    if hours < 48:
        return f"{max(1, round(hours))} h"
    return f"{round(hours / 24)} days"


@dataclass(frozen=True)
class ArchiveState:
    """One profile's archive, as status shows it."""

    profile: str
    path: Path
    reach: ArchiveReach
    stale_seconds: float | None
    """How long ago the last sync was, when longer than the service keeps logs; else None."""

    @property
    def warnings(self) -> list[str]:
        said: list[str] = []
        gap = self.reach.opened_at_last_sync
        if gap is not None:
            said.append(
                f"the log archive misses {when_text(gap[0])} to {when_text(gap[1])}: the sync "
                "before the last was longer ago than the service keeps logs"
            )
        if self.stale_seconds is not None:
            said.append(
                f"the log archive was last synced {age_text(self.stale_seconds)} ago, longer "
                "than the service keeps logs: run `tenant-console logs --archive` (from cron)"
            )
        return said

    def text(self) -> str:
        return reach_text(self.reach)

    def to_json(self) -> dict[str, Any]:
        reach = self.reach

        def shown(moment: datetime | None) -> str | None:
            return moment.isoformat() if moment else None

        return {
            "path": str(self.path),
            "entries": reach.count,
            "oldest": shown(reach.oldest),
            "newest": shown(reach.newest),
            "last_synced": shown(reach.last_synced),
            "gaps": [{"from": s.isoformat(), "to": e.isoformat()} for s, e in reach.gaps],
            "gap_opened": reach.opened_at_last_sync is not None,
            "stale": self.stale_seconds is not None,
            "warnings": self.warnings,
        }


def reach_text(reach: ArchiveReach) -> str:
    """ "logs archived back to 2026-01-03 10:04 UTC (4,512 entries); gap …": one line."""
    if reach.count == 0 or reach.oldest is None:
        text = "log archive empty"
    else:
        noun = "entry" if reach.count == 1 else "entries"
        text = f"logs archived back to {when_text(reach.oldest)} ({reach.count:,} {noun})"
    if reach.last_synced is None:
        text += ", never synced"
    if reach.gaps:
        start, end = reach.gaps[-1]
        more = f" and {len(reach.gaps) - 1} more" if len(reach.gaps) > 1 else ""
        text += f"; gap {when_text(start)} to {when_text(end)}{more}"
    return text


def archive_state(
    profile: str,
    *,
    path: Path | None = None,
    now: datetime | None = None,
    retention_seconds: float = LOG_RETENTION_SECONDS,
) -> ArchiveState | None:
    """`profile`'s archive as status shows it; None when it has none (or it cannot be read,
    which is logged). Opens and closes the file: a few indexed reads."""
    import sqlite3

    from console.audit.archive import LogArchive, archive_path
    from console.clock import now as clock_now

    where = path or archive_path(profile)
    if not where.is_file():
        return None
    try:
        with LogArchive.open(profile, path=where) as archive:
            reach = archive.reach()
    except (OSError, sqlite3.Error):
        log.warning("The log archive %s could not be read", where, exc_info=True)
        return None
    stale = None
    if reach.last_synced is not None:
        ago = ((now or clock_now()) - reach.last_synced).total_seconds()
        if ago > timedelta(seconds=retention_seconds).total_seconds():
            stale = ago
    return ArchiveState(profile, where, reach, stale)


def archive_summary(profile: str, *, path: Path | None = None) -> str | None:
    """One line on `profile`'s archive, its warnings after it; None when it has none. For
    the console's overview (call it off the UI thread: it reads a file)."""
    state = archive_state(profile, path=path)
    if state is None:
        return None
    return "; ".join([state.text(), *state.warnings])
