"""The deliveries as the deliverer reads and settles them (`webhook_deliveries`, schema v9).

A delivery is `pending` until it is `delivered` (a 2xx answer) or `failed` (its attempts
used up, or its webhook disabled). Every function takes the connection of a short
transaction of the deliverer's own: it never holds the write lock while a request is sent.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

PENDING = "pending"
DELIVERED = "delivered"
FAILED = "failed"
STATES = (PENDING, DELIVERED, FAILED)

DROPPED = "Not sent: the webhook was disabled."
"""A pending delivery's `last_error` when its webhook is disabled before it is sent; one
tried already keeps its last error, followed by DROPPED_AFTER."""
DROPPED_AFTER = "; not sent again: the webhook was disabled."


@dataclass(frozen=True)
class Due:
    """A delivery whose attempt is due: where it goes and the event it carries."""

    seq: int
    webhook_id: str
    tenant_id: str
    url: str
    attempts: int
    event: dict[str, Any]
    """The event as stored (the delivery's `event`; `delivered_at` is added when sent)."""


_DUE = (
    "SELECT d.seq, d.webhook_id, w.tenant_id, w.url, d.attempts, e.body, MIN(d.seq)"
    " FROM webhook_deliveries d"
    " JOIN webhooks w ON w.id = d.webhook_id AND w.status = 'enabled'"
    " JOIN webhook_events e ON e.id = d.event_id"
    " WHERE d.state = 'pending' AND d.next_at <= ?"
    " GROUP BY d.webhook_id"
)


def due(conn: sqlite3.Connection, now: str, busy: Collection[str], limit: int) -> list[Due]:
    """At most `limit` due deliveries, the oldest of each enabled webhook not in `busy`
    (webhooks with a delivery in flight), those waiting longest first: one webhook's
    backlog never keeps another's deliveries waiting."""
    if limit <= 0:
        return []
    rows = conn.execute(_DUE, (now,)).fetchall()
    found = [
        Due(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]))
        for row in rows
        if row[1] not in busy
    ]
    found.sort(key=lambda d: d.seq)
    return found[:limit]


def next_due(conn: sqlite3.Connection, busy: Collection[str] = ()) -> str | None:
    """When the earliest pending delivery of an enabled webhook not in `busy` is due (stored
    time), or None."""
    rows = conn.execute(
        "SELECT d.webhook_id, MIN(d.next_at) FROM webhook_deliveries d"
        " JOIN webhooks w ON w.id = d.webhook_id AND w.status = 'enabled'"
        " WHERE d.state = 'pending' GROUP BY d.webhook_id"
    ).fetchall()
    return min((row[1] for row in rows if row[0] not in busy), default=None)


def delivered(conn: sqlite3.Connection, seq: int, webhook_id: str, status: int, at: str) -> None:
    """A 2xx answer: the delivery is done and its webhook's failures in a row start over."""
    conn.execute(
        "UPDATE webhook_deliveries SET state = 'delivered', attempts = attempts + 1,"
        " last_status = ?, last_error = NULL, finished_at = ? WHERE seq = ?",
        (status, at, seq),
    )
    conn.execute("UPDATE webhooks SET failures = 0 WHERE id = ? AND failures != 0", (webhook_id,))


@dataclass(frozen=True)
class Failed:
    """A failed attempt as recorded: the delivery's attempts and the webhook's failures in a
    row (None if the webhook is gone), and whether the webhook is still enabled."""

    attempts: int
    failures: int | None
    enabled: bool
    given_up: bool


def failed_attempt(
    conn: sqlite3.Connection,
    seq: int,
    webhook_id: str,
    *,
    status: int | None,
    error: str,
    at: str,
    retry_at: str,
    max_attempts: int,
) -> Failed:
    """An attempt that failed (a status other than 2xx, or no answer): counted on the
    delivery (failed for good after `max_attempts`, else due again at `retry_at`) and on its
    webhook's failures in a row."""
    row = conn.execute(
        "UPDATE webhook_deliveries SET attempts = attempts + 1, last_status = ?,"
        " last_error = ?, next_at = ?,"
        " state = CASE WHEN attempts + 1 >= ? THEN 'failed' ELSE 'pending' END,"
        " finished_at = CASE WHEN attempts + 1 >= ? THEN ? ELSE NULL END"
        " WHERE seq = ? AND state = 'pending' RETURNING attempts, state",
        (status, error, retry_at, max_attempts, max_attempts, at, seq),
    ).fetchone()
    hook = conn.execute(
        "UPDATE webhooks SET failures = failures + 1 WHERE id = ? RETURNING failures, status",
        (webhook_id,),
    ).fetchone()
    return Failed(
        attempts=row[0] if row else 0,
        failures=hook[0] if hook else None,
        enabled=bool(hook and hook[1] == "enabled"),
        given_up=bool(row and row[1] == FAILED),
    )


@dataclass(frozen=True)
class Disabled:
    """A webhook the deliverer disabled: what the log line and the audit entry name."""

    tenant_id: str
    name: str
    url: str
    notify_email: str | None
    dropped: int


def disable(conn: sqlite3.Connection, webhook_id: str, reason: str, at: str) -> Disabled | None:
    """Disables an enabled webhook with `reason` kept, and fails its pending deliveries;
    None if it is gone or no longer enabled."""
    row = conn.execute(
        "UPDATE webhooks SET status = 'disabled', disabled_reason = ?, modified_at = ?"
        " WHERE id = ? AND status = 'enabled' RETURNING tenant_id, name, url, notify_email",
        (reason, at, webhook_id),
    ).fetchone()
    if row is None:
        return None
    dropped = drop_pending(conn, at, webhook_id)
    return Disabled(row[0], row[1], row[2], row[3], dropped)


def drop_pending(conn: sqlite3.Connection, at: str, webhook_id: str | None = None) -> int:
    """Fails the pending deliveries of `webhook_id` (default: of every webhook not
    enabled, which a person disabled since they were queued); returns how many."""
    where = (
        "webhook_id = ?"
        if webhook_id is not None
        else ("webhook_id IN (SELECT id FROM webhooks WHERE status != 'enabled')")
    )
    params: tuple[Any, ...] = (at, DROPPED, DROPPED_AFTER)
    params += (webhook_id,) if webhook_id is not None else ()
    cursor = conn.execute(
        "UPDATE webhook_deliveries SET state = 'failed', finished_at = ?,"
        " last_error = CASE WHEN last_error IS NULL THEN ? ELSE last_error || ? END"
        f" WHERE state = 'pending' AND {where}",
        params,
    )
    return cursor.rowcount


def sweep(conn: sqlite3.Connection, finished_before: str, keep_per_webhook: int) -> int:
    """Deletes finished deliveries finished before `finished_before`, or beyond the latest
    `keep_per_webhook` of their webhook, then the events no delivery carries any more;
    returns how many deliveries went."""
    old = conn.execute(
        "DELETE FROM webhook_deliveries WHERE state != 'pending' AND finished_at < ?",
        (finished_before,),
    ).rowcount
    beyond = conn.execute(
        "DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM ("
        " SELECT seq, ROW_NUMBER() OVER (PARTITION BY webhook_id ORDER BY seq DESC) AS n"
        " FROM webhook_deliveries WHERE state != 'pending') WHERE n > ?)",
        (keep_per_webhook,),
    ).rowcount
    conn.execute(
        "DELETE FROM webhook_events WHERE NOT EXISTS"
        " (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)"
    )
    return old + beyond
