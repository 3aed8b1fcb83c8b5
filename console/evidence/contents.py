"""What goes into an evidence pack: the period's logs from the archive after a sync, the
access review (grants, people, activity by the same archive) as JSON and CSV, and the
configuration as `export` writes it, redacted."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from console.evidence.manifest import (
    CONFIGURATION,
    LOG_FIELDS,
    LOGS,
    REVIEW_CSV,
    REVIEW_JSON,
    Period,
)

if TYPE_CHECKING:
    from console.audit.archive import LogArchive
    from console.client.client import AdminClient

log = logging.getLogger(__name__)


def log_line(entry: Any) -> str:
    """One archived entry as a line: LOG_FIELDS only, times in ISO 8601."""
    record: dict[str, Any] = {}
    for name in LOG_FIELDS:
        value = getattr(entry, name, None)
        record[name] = value.isoformat() if isinstance(value, datetime) else value
    return json.dumps(record, ensure_ascii=False)


def logs_jsonl(entries: Sequence[Any]) -> bytes:
    """The entries oldest first (the archive answers newest first)."""
    ordered = sorted(
        entries, key=lambda e: getattr(e, "created_at", None) or datetime.min.replace(tzinfo=UTC)
    )
    return "".join(log_line(entry) + "\n" for entry in ordered).encode("utf-8")


def _gaps_in(gaps: Iterable[tuple[datetime, datetime]], period: Period) -> list[list[str]]:
    """The archive's gaps that overlap the period: entries there may be missing."""
    out = []
    for start, end in gaps:
        if end > (period.since or start) and start < period.until:
            out.append([start.isoformat(), end.isoformat()])
    return out


async def archived_logs(
    client: AdminClient, archive: LogArchive, period: Period, tenant_id: str | None = None
) -> tuple[bytes, dict[str, Any]]:
    """The period's entries, from the archive after bringing it up to date (a sync that
    fails is said in the manifest, and what the archive held is used), and what the manifest
    says of them (count, oldest, newest, gaps, sync problem). With `tenant_id`, only that
    tenant's entries (and those that name none): a profile whose key once reached another
    tenant has that tenant's entries in its archive too."""
    problem = None
    try:
        await archive.sync(client)
    except Exception as error:
        log.warning("The log archive could not be brought up to date", exc_info=True)
        problem = f"The service's logs could not be read ({error}): the archive's are used."
    entries = archive.query(since=period.since, until=period.until)
    if tenant_id is not None:
        entries = [e for e in entries if (e.tenant_id or "").lower() in ("", tenant_id.lower())]
    gaps: list[list[str]] = []
    try:
        gaps = _gaps_in(archive.reach().gaps, period)
    except Exception:
        log.warning("The log archive's gaps could not be read", exc_info=True)
        problem = problem or "The archive's gaps could not be read."
    times = [e.created_at for e in entries if e.created_at is not None]
    about = {
        "entries": len(entries),
        "oldest": min(times).isoformat() if times else None,
        "newest": max(times).isoformat() if times else None,
        "gaps": gaps,
        "problem": problem,
    }
    return logs_jsonl(entries), about


async def gather(
    client: AdminClient,
    archive: LogArchive,
    period: Period,
    *,
    key_age_days: int,
    inactive_days: int,
    created_at: datetime,
) -> tuple[dict[str, bytes], dict[str, Any], str | None]:
    """Every file's bytes, what the manifest says of the logs, and the tenant's id. The
    archive is synced first, so the review's activity sees the logs read now too."""
    from console.client.review import full_review, reactor_grants
    from console.client.review_activity import Activity
    from console.client.review_export import to_csv, to_json
    from console.client.review_people import read_people
    from console.estate.document import dumps, redact
    from console.estate.tenant import read_tenant

    tenant = await client.tenant.get()
    logs, about_logs = await archived_logs(client, archive, period, str(tenant.id))
    activity = Activity(
        {},
        lookup=archive.last_activity,
        known_since=_oldest(archive),
        problem=about_logs["problem"],
    )

    async def known() -> Activity:
        return activity

    rows, catalogue = await full_review(
        client, key_age_days=key_age_days, activity=known(), inactive_days=inactive_days
    )
    names = {row.id: row.name for row in rows}
    reactors = [grant.named(names) for grant in await reactor_grants(client)]
    people = await read_people(client)
    snapshot = await read_tenant(client)
    review_json = to_json(
        rows,
        reactors=reactors,
        catalogue=catalogue,
        people=people,
        activity=activity,
        inactive_days=inactive_days,
        generated_at=created_at,
    )
    files = {
        REVIEW_JSON: review_json.encode("utf-8"),
        REVIEW_CSV: to_csv(rows, reactors, people).encode("utf-8"),
        CONFIGURATION: dumps(redact(snapshot.document), "json").encode("utf-8"),
        LOGS: logs,
    }
    return files, about_logs, str(tenant.id)


def _oldest(archive: LogArchive) -> datetime | None:
    try:
        return archive.reach().oldest
    except Exception:
        log.warning("The log archive's reach could not be read", exc_info=True)
        return None
