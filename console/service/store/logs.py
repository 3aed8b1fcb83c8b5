"""Audit logs: rows written by console.service.changes, read by `GET /logs`, newest first.

Entries older than the service's log retention (`serve --log-retention`) are never read, and
the periodic sweep deletes them (`delete_older`).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterable
from typing import Any

from console.service.changes import INSERT, Change, row_of
from console.service.store.listing import NEWEST_FIRST_BY_SEQ, PageRequest, page_of


def insert_many(
    conn: sqlite3.Connection, changes: Iterable[Change], *, ids: Iterable[str] | None = None
) -> int:
    """Store many entries at once (the demo's history, benchmarks' seeding), in the caller's
    transaction and in the order given (which orders entries of the same time); returns how
    many. `ids`: the entries' own (the demo's are fixed), else new UUIDs. Handlers record
    their changes one by one through console.service.changes."""
    chosen = iter(ids) if ids is not None else None
    rows = (
        row_of(next(chosen) if chosen is not None else str(uuid.uuid4()), change)
        for change in changes
    )
    return conn.executemany(INSERT, rows).rowcount


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


SWEEP_BATCH = 5_000
"""At most this many entries are deleted a transaction: a sweep after a long pause (or a
shorter retention) does not hold the write lock for seconds."""


def delete_older(conn: sqlite3.Connection, kept_since: str, *, limit: int = SWEEP_BATCH) -> int:
    """Deletes up to `limit` entries made before `kept_since`, of any tenant (a deleted
    tenant's too); returns how many (fewer than `limit`: none older is left).

    Tenant by tenant, each a range of the (tenant_id, created_at) index, and the next tenant
    found on that index too: a plain `WHERE created_at < ?` would read the whole table, with
    the write lock held, on every sweep."""
    removed = 0
    tenant = conn.execute("SELECT min(tenant_id) FROM logs").fetchone()[0]
    while tenant is not None and removed < limit:
        removed += conn.execute(
            "DELETE FROM logs WHERE seq IN (SELECT seq FROM logs"
            " WHERE tenant_id = ? AND created_at < ? LIMIT ?)",
            (tenant, kept_since, limit - removed),
        ).rowcount
        tenant = conn.execute(
            "SELECT min(tenant_id) FROM logs WHERE tenant_id > ?", (tenant,)
        ).fetchone()[0]
    return removed


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
