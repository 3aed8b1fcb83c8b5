"""The access review's activity with the local archive: the logs read now and those kept.

console.client.review_activity reads what the service still keeps (a day or so); the
profile's archive (console.audit.archive) keeps what earlier reads saw. Here the archive is
brought up to date (`sync`: the logs read now go into it), then asked each application's last
activity. Without an archive (no profile, or it cannot be opened), the logs read now alone.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from console.client.review_activity import Activity, read_activity

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


async def review_activity(client: AdminClient, archive: LogArchive | None) -> Activity:
    """What is known of every actor's activity: the archive synced with the service and asked
    (`lookup`), or, without one, the logs read now. A sync that fails leaves what the archive
    already held, with the failure as `problem` (inactivity is still judged by it)."""
    if archive is None:
        return await read_activity(client)
    problem = None
    try:
        await archive.sync(client)
    except Exception as error:
        log.warning("The log archive could not be brought up to date", exc_info=True)
        problem = f"The audit logs could not be read now ({error}); the archive's are used."
    try:
        oldest = archive.reach().oldest
    except Exception:
        log.warning("The log archive's reach could not be read", exc_info=True)
        oldest = None
    return Activity({}, lookup=archive.last_activity, known_since=oldest, problem=problem)
