"""Applications: rows, views and the queries the API and the bootstrap need.

Expiry is applied in every query (`expires_at > now`), so an expired application is gone
the moment its time passes, whether or not the sweep has deleted the row yet.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Sequence
from typing import Any

from console.service.keys import hash_key, new_api_key
from console.service.store.listing import PageRequest, in_clause, page_of
from console.service.timestamps import shown

LIVE = "(expires_at IS NULL OR expires_at > ?)"


def view(row: sqlite3.Row, key: str | None = None) -> dict[str, Any]:
    """An application as the API shows it; the key only right after create or regenerate."""
    body: dict[str, Any] = {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "name": row["name"],
        "type": row["type"],
        "permissions": json.loads(row["permissions"]),
        "rules": json.loads(row["rules"]),
        "expires_at": shown(row["expires_at"]),
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }
    if key is not None:
        body["key"] = key
    return body


def by_key(conn: sqlite3.Connection, key: str, now: str) -> sqlite3.Row | None:
    return conn.execute(
        f"SELECT * FROM applications WHERE key_hash = ? AND {LIVE}", (hash_key(key), now)
    ).fetchone()


def get(conn: sqlite3.Connection, tenant_id: str, app_id: str, now: str) -> sqlite3.Row | None:
    return conn.execute(
        f"SELECT * FROM applications WHERE id = ? AND tenant_id = ? AND {LIVE}",
        (app_id, tenant_id, now),
    ).fetchone()


def page(
    conn: sqlite3.Connection, tenant_id: str, ids: Sequence[str], request: PageRequest, now: str
) -> dict[str, Any]:
    where = f"tenant_id = ? AND {LIVE}"
    params: list[Any] = [tenant_id, now]
    if ids:
        where += " AND " + in_clause("id", ids)
        params += ids
    return page_of(conn, "applications", where, params, request, view)


def insert(
    conn: sqlite3.Connection,
    *,
    tenant_id: str,
    name: str,
    type: str,
    permissions: list[str],
    rules: list[dict[str, Any]],
    expires_at: str | None,
    by: str | None,
    at: str,
    app_id: str | None = None,
) -> tuple[sqlite3.Row, str]:
    """Creates an application; returns its row and its key (the only time the key exists)."""
    app_id = app_id or str(uuid.uuid4())
    key = new_api_key()
    conn.execute(
        "INSERT INTO applications (id, tenant_id, name, type, permissions, rules, expires_at,"
        " key_hash, created_by, created_at, modified_by, modified_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            app_id,
            tenant_id,
            name,
            type,
            json.dumps(permissions),
            json.dumps(rules),
            expires_at,
            hash_key(key),
            by,
            at,
            by,
            at,
        ),
    )
    row = conn.execute("SELECT * FROM applications WHERE id = ?", (app_id,)).fetchone()
    return row, key


def update(
    conn: sqlite3.Connection,
    app_id: str,
    *,
    name: str,
    permissions: list[str],
    rules: list[dict[str, Any]],
    by: str,
    at: str,
) -> sqlite3.Row:
    conn.execute(
        "UPDATE applications SET name = ?, permissions = ?, rules = ?, modified_by = ?,"
        " modified_at = ? WHERE id = ?",
        (name, json.dumps(permissions), json.dumps(rules), by, at, app_id),
    )
    return conn.execute("SELECT * FROM applications WHERE id = ?", (app_id,)).fetchone()


def regenerate(
    conn: sqlite3.Connection, app_id: str, *, by: str, at: str
) -> tuple[sqlite3.Row, str]:
    """Replaces the key hash: the old key stops working when this transaction commits."""
    key = new_api_key()
    conn.execute(
        "UPDATE applications SET key_hash = ?, modified_by = ?, modified_at = ? WHERE id = ?",
        (hash_key(key), by, at, app_id),
    )
    row = conn.execute("SELECT * FROM applications WHERE id = ?", (app_id,)).fetchone()
    return row, key


def delete(conn: sqlite3.Connection, app_id: str) -> None:
    conn.execute("DELETE FROM applications WHERE id = ?", (app_id,))


def sweep_expired(conn: sqlite3.Connection, now: str) -> int:
    """Deletes every application whose expiry has passed; returns how many."""
    cursor = conn.execute(
        "DELETE FROM applications WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,)
    )
    return cursor.rowcount
