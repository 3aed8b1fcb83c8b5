"""Webhooks: where the service sends a tenant's events. `events` is stored as a JSON array of
event types (console.service.changes finds the subscribed ones with `json_each`); `failures`
counts the deliveries failed in a row, and `disabled_reason` says why the service disabled
one (the deliverer sets both; enabling a webhook again clears them)."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Sequence
from typing import Any

from console.service.store.listing import DEFAULT_PAGE_SIZE
from console.service.timestamps import shown

ENABLED = "enabled"
DISABLED = "disabled"


def _stored(events: Sequence[str]) -> str:
    return json.dumps(list(events))


def view(row: sqlite3.Row) -> dict[str, Any]:
    """A webhook as the API answers one (the vendor SDKs' `Webhook`, with the local
    service's `disabled_reason`)."""
    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "status": row["status"],
        "name": row["name"],
        "url": row["url"],
        "notify_email": row["notify_email"],
        "events": json.loads(row["events"]),
        "disabled_reason": row["disabled_reason"],
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }


def listing(conn: sqlite3.Connection, tenant_id: str) -> dict[str, Any]:
    """`GET /webhooks`: every webhook of the tenant, oldest first, in one page (a tenant has
    at most five), in the envelope the vendor SDKs read (`WebhookList`). `page_size` is the
    lists' usual page, larger than any tenant's count, and `next` is null: a reader that
    judges by either finds no second page."""
    rows = of_tenant(conn, tenant_id)
    pagination = {"page_size": DEFAULT_PAGE_SIZE, "next": None}
    return {"pagination": pagination, "data": [view(r) for r in rows]}


def of_tenant(conn: sqlite3.Connection, tenant_id: str) -> list[sqlite3.Row]:
    return conn.execute(
        "SELECT * FROM webhooks WHERE tenant_id = ? ORDER BY created_at, id", (tenant_id,)
    ).fetchall()


def count(conn: sqlite3.Connection, tenant_id: str) -> int:
    (found,) = conn.execute(
        "SELECT count(*) FROM webhooks WHERE tenant_id = ?", (tenant_id,)
    ).fetchone()
    return int(found)


def get(conn: sqlite3.Connection, tenant_id: str, webhook_id: str) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM webhooks WHERE id = ? AND tenant_id = ?", (webhook_id, tenant_id)
    ).fetchone()


def insert(
    conn: sqlite3.Connection,
    tenant_id: str,
    *,
    name: str,
    url: str,
    notify_email: str | None,
    events: Sequence[str],
    by: str | None,
    at: str,
    webhook_id: str | None = None,
) -> sqlite3.Row:
    """A new webhook, enabled."""
    new_id = webhook_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO webhooks (id, tenant_id, name, url, notify_email, events, status,"
        " created_by, created_at, modified_by, modified_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (new_id, tenant_id, name, url, notify_email, _stored(events), ENABLED, by, at, by, at),
    )
    return get(conn, tenant_id, new_id)  # type: ignore[return-value]


def update(
    conn: sqlite3.Connection,
    tenant_id: str,
    webhook_id: str,
    *,
    name: str,
    url: str,
    notify_email: str | None,
    events: Sequence[str],
    status: str,
    by: str,
    at: str,
    enable: bool = False,
) -> sqlite3.Row:
    """The whole webhook replaced. `enable` (the request set it `enabled`) clears why it was
    disabled and its count of failures in a row: it starts again with a clean slate."""
    conn.execute(
        "UPDATE webhooks SET name = ?, url = ?, notify_email = ?, events = ?, status = ?,"
        " disabled_reason = CASE WHEN ? THEN NULL ELSE disabled_reason END,"
        " failures = CASE WHEN ? THEN 0 ELSE failures END,"
        " modified_by = ?, modified_at = ? WHERE id = ? AND tenant_id = ?",
        (
            *(name, url, notify_email, _stored(events), status, enable, enable),
            *(by, at, webhook_id, tenant_id),
        ),
    )
    return get(conn, tenant_id, webhook_id)  # type: ignore[return-value]


def delete(conn: sqlite3.Connection, tenant_id: str, webhook_id: str) -> None:
    """Deletes the webhook; its pending deliveries go with it (foreign keys cascade)."""
    conn.execute("DELETE FROM webhooks WHERE id = ? AND tenant_id = ?", (webhook_id, tenant_id))
