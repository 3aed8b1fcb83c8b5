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

import console.service.store.application_keys as application_keys
from console.service.keys import hash_key
from console.service.schema import MOVED_KEY_PREFIX
from console.service.store.listing import PageRequest, in_clause, page_of
from console.service.timestamps import shown

LIVE = "(expires_at IS NULL OR expires_at > ?)"


def live_id(reference: str, *, alias: str) -> str:
    """A select-list column: the application `reference` (a column holding its id) names,
    while it lives, as `alias`; its one parameter is now."""
    return (
        f"(SELECT a.id FROM applications a WHERE a.id = {reference}"
        f" AND (a.expires_at IS NULL OR a.expires_at > ?)) AS {alias}"
    )


def view(
    row: sqlite3.Row, key: str | None = None, keys: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """An application as the API shows it; the key only right after create or regenerate.
    `keys` are its Application Keys' entries (no material), as the hosted service has them."""
    body: dict[str, Any] = {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "name": row["name"],
        "type": row["type"],
        "permissions": json.loads(row["permissions"]),
        "rules": json.loads(row["rules"]),
        "keys": keys if keys is not None else [],
        "expires_at": shown(row["expires_at"]),
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }
    if key is not None:
        body["key"] = key
    return body


def shown_with_keys(
    conn: sqlite3.Connection, row: sqlite3.Row, key: str | None = None
) -> dict[str, Any]:
    """`view` with the application's keys read from the store."""
    return view(
        row, key=key, keys=application_keys.views_by_application(conn, [row["id"]])[row["id"]]
    )


def by_key(conn: sqlite3.Connection, key: str, now: str) -> sqlite3.Row | None:
    """The live application one of whose keys is `key`."""
    return conn.execute(
        "SELECT applications.* FROM application_keys JOIN applications"
        " ON applications.id = application_keys.application_id"
        f" WHERE application_keys.key_hash = ? AND {LIVE}",
        (hash_key(key), now),
    ).fetchone()


def get(conn: sqlite3.Connection, tenant_id: str, app_id: str, now: str) -> sqlite3.Row | None:
    return conn.execute(
        f"SELECT * FROM applications WHERE id = ? AND tenant_id = ? AND {LIVE}",
        (app_id, tenant_id, now),
    ).fetchone()


def page(
    conn: sqlite3.Connection,
    tenant_id: str,
    ids: Sequence[str],
    request: PageRequest,
    now: str,
    *,
    types: Sequence[str] = (),
) -> dict[str, Any]:
    where = f"tenant_id = ? AND {LIVE}"
    params: list[Any] = [tenant_id, now]
    if ids:
        where += " AND " + in_clause("id", ids)
        params += ids
    if types:
        where += " AND " + in_clause("type", types)
        params += types
    envelope = page_of(conn, "applications", where, params, request, view)
    keys = application_keys.views_by_application(conn, [item["id"] for item in envelope["data"]])
    for item in envelope["data"]:
        item["keys"] = keys[item["id"]]
    return envelope


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
    create_key: bool = True,
) -> tuple[sqlite3.Row, str | None]:
    """Creates an application with its first key (unless `create_key` is false); returns its
    row and that key (the only time the key exists), or None."""
    app_id = app_id or str(uuid.uuid4())
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
            MOVED_KEY_PREFIX + app_id,
            by,
            at,
            by,
            at,
        ),
    )
    key = application_keys.add(conn, app_id, by=by, at=at)[1] if create_key else None
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
    """One new key replaces all of the application's keys: the old ones stop working when
    this transaction commits (the spec's regenerate)."""
    _, key = application_keys.replace_all(conn, app_id, by=by, at=at)
    conn.execute(
        "UPDATE applications SET modified_by = ?, modified_at = ? WHERE id = ?", (by, at, app_id)
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
