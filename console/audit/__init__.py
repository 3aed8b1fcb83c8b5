"""The audit logs kept beyond the service's retention: the local archive, its sync, the
follower and `tenant-console logs` (issue 36).

The hosted service answers logs for a day (its "Log Retention" quota); an access review or an
investigation needs months. So each profile keeps its own archive (`archive.LogArchive`, one
SQLite file in the user data directory, 0600), filled by `logs --archive` (from cron), by
every read of `tenant-console logs` and by the console's Logs section, and read by the review
and the evidence pack. `follow.LogFollower` polls for new entries, one request an interval.

Layer: a workflow, as console/estate is: it imports the client and the models, never the TUI;
the TUI and the entry points import it (`archive_summary` for the overview line).

    from console.audit.archive import LogArchive
    archive = LogArchive.open("prod")
    result = await archive.sync(client, retention_seconds=86_400, keep_days=400)
    archive.query(entity_type="proxy", since=..., limit=50)
"""

from __future__ import annotations


def archive_summary(profile: str) -> str | None:
    """One line on `profile`'s log archive (how far back, gaps, staleness), or None when it
    has none: console.audit.summary. Reads a file: call it off the UI thread."""
    from console.audit.summary import archive_summary as summary

    return summary(profile)


__all__ = ["archive_summary"]
