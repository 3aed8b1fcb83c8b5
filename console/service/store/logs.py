"""Audit logs: rows written by console.service.changes, read by `GET /logs`, newest first.

Entries older than the service's log retention (`serve --log-retention`) are never read, and
the periodic sweep deletes them (`delete_older`).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from console.service.store.listing import NEWEST_FIRST_BY_SEQ, PageRequest, page_of

if TYPE_CHECKING:
    from console.service.changes import Change

_INSERT = (
    "INSERT INTO logs (id, tenant_id, actor_id, actor_type, entity_type, entity_id,"
    " operation, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _row(log_id: str, change: Change) -> tuple[str | None, ...]:
    return (
        log_id,
        change.tenant_id,
        change.actor.id,
        change.actor.type,
        change.entity_type,
        change.entity_id,
        change.operation,
        change.message,
        change.at,
    )


def insert(conn: sqlite3.Connection, change: Change) -> str:
    """Store one entry in the caller's transaction; returns its id."""
    log_id = str(uuid.uuid4())
    conn.execute(_INSERT, _row(log_id, change))
    return log_id


def insert_many(
    conn: sqlite3.Connection, changes: Iterable[Change], *, ids: Iterable[str] | None = None
) -> int:
    """Store many entries at once (the demo's history, benchmarks' seeding), in the caller's
    transaction and in the order given (which orders entries of the same time); returns how
    many. `ids`: the entries' own (the demo's are fixed), else new UUIDs. Handlers record
    their changes one by one through console.service.changes."""
    chosen = iter(ids) if ids is not None else None
    rows = (
        _row(next(chosen) if chosen is not None else str(uuid.uuid4()), change)
        for change in changes
    )
    return conn.executemany(_INSERT, rows).rowcount


def page(
    conn: sqlite3.Connection,
    tenant_id: str,
    request: PageRequest,
    *,
    kept_since: str,
    entity_type: str | None = None,
    entity_id: str | None = None,
    start: str | None = None,
    end: str | None = None,
) -> dict[str, Any]:
    """One page of the tenant's entries, newest first: those made at or after `kept_since`
    (the retention's edge) and `start`, before `end`, about `entity_type`/`entity_id`."""
    where = ["tenant_id = ?", "created_at >= ?"]
    params: list[Any] = [tenant_id, kept_since]
    if entity_type is not None:
        where.append("entity_type = ?")
        params.append(entity_type)
    if entity_id is not None:
        where.append("entity_id = ?")
        params.append(entity_id)
    if start is not None:
        where.append("created_at >= ?")
        params.append(start)
    if end is not None:
        where.append("created_at < ?")
        params.append(end)
    return page_of(
        conn, "logs", " AND ".join(where), params, request, view, order=NEWEST_FIRST_BY_SEQ
    )


def delete_older(conn: sqlite3.Connection, kept_since: str) -> int:
    """Deletes every tenant's entries made before `kept_since`; returns how many."""
    return conn.execute("DELETE FROM logs WHERE created_at < ?", (kept_since,)).rowcount


def view(row: sqlite3.Row) -> dict[str, Any]:
    """A stored entry as `GET /logs` answers it."""
    from console.service.timestamps import shown

    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "actor_id": row["actor_id"],
        "actor_type": row["actor_type"],
        "entity_type": row["entity_type"],
        "entity_id": row["entity_id"],
        "operation": row["operation"],
        "message": row["message"],
        "created_at": shown(row["created_at"]),
    }
