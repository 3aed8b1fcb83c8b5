"""One line on a profile's log archive, for `tenant-console status` and the console's
overview: how far back it reaches, and whether it misses a period."""

from __future__ import annotations

import logging
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.audit.archive import ArchiveReach

log = logging.getLogger("console.audit")


def when_text(moment: datetime) -> str:
    """ "2026-11-28 10:04 UTC": a time as the summaries say it."""
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def reach_text(reach: ArchiveReach) -> str:
    """ "logs archived back to 2026-01-03 10:04 UTC (4,512 entries); gap 2026-03-01 … to
    2026-03-04 …": what `archive_summary` says of an open archive."""
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


def archive_summary(profile: str, *, path: Path | None = None) -> str | None:
    """The line for `profile`'s archive; None when it has none (or it cannot be read, which
    is logged). Opens and closes the file: cheap (a few indexed reads), but a file read, so
    the console calls it off its UI thread."""
    import sqlite3

    from console.audit.archive import LogArchive, archive_path

    where = path or archive_path(profile)
    if not where.is_file():
        return None
    try:
        with LogArchive.open(profile, path=where) as archive:
            return reach_text(archive.reach())
    except (OSError, sqlite3.Error):
        log.warning("The log archive %s could not be read", where, exc_info=True)
        return None
