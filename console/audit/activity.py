"""The access review's activity with the local archive: the logs read now and those kept.

console.client.review_activity reads what the service still keeps (a day or so); the
profile's archive (console.audit.archive) keeps what earlier reads saw. Here the archive is
brought up to date (`sync`: the logs read now go into it), then asked each application's last
activity. Without an archive (no profile, or it cannot be opened), the logs read now alone.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING

from console.client.review_activity import Activity, LastActivity, read_activity

if TYPE_CHECKING:
    from console.audit.archive import LogArchive
    from console.client.client import AdminClient

log = logging.getLogger(__name__)


def open_archive(profile: str | None) -> LogArchive | None:
    """The profile's archive, or None (no profile: a connection from the environment only;
    or it could not be opened, which is logged)."""
    if not profile:
        return None
    try:
        from console.audit.archive import LogArchive

        return LogArchive.open(profile)
    except Exception:
        log.warning("The log archive of profile %s could not be opened", profile, exc_info=True)
        return None


async def review_activity(
    client: AdminClient, archive: LogArchive | None, *, sync: bool = True
) -> Activity:
    """What is known of every actor's activity: the archive synced with the service and asked
    (`lookup`), or, without one, the logs read now. A sync that fails leaves what the archive
    already held, with the failure as `problem` (inactivity is still judged by it, unless the
    archive holds nothing: then nothing is judged). `sync` False (the console, whose event
    loop must not write a day of entries to SQLite): the logs read now, and the archive only
    asked."""
    if archive is None:
        return await read_activity(client)
    if not sync:
        read = await read_activity(client)
        oldest = _oldest(archive)
        known = [moment for moment in (read.known_since, oldest) if moment is not None]
        return Activity(
            read.last,
            lookup=_asked(archive, read.problem, oldest),
            known_since=min(known) if known else None,
            problem=read.problem,
        )
    problem = None
    try:
        await archive.sync(client)
    except Exception as error:
        log.warning("The log archive could not be brought up to date", exc_info=True)
        problem = f"The audit logs could not be read now ({error}); the archive's are used."
    oldest = _oldest(archive)
    if problem is not None and oldest is None:
        problem = problem.replace("the archive's are used", "the archive holds none either")
    return Activity(
        {}, lookup=_asked(archive, problem, oldest), known_since=oldest, problem=problem
    )


def _asked(
    archive: LogArchive, problem: str | None, oldest: datetime | None
) -> LastActivity | None:
    """The archive's lookup, unless the logs could not be read and it holds nothing either:
    an empty archive would make every application look inactive."""
    return archive.last_activity if problem is None or oldest is not None else None


def _oldest(archive: LogArchive) -> datetime | None:
    try:
        return archive.reach().oldest
    except Exception:
        log.warning("The log archive's reach could not be read", exc_info=True)
        return None
