"""Application Keys: the keys of an application, each stored only as a hash.

An application holds one key or more; a request authenticates with any of them. Revoking a
key deletes its row, so it stops working when that transaction commits. Each key has a
version, counted per application from 1 (the hosted service's SDKs read it as a string).
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from typing import Any

from console.service.keys import hash_key, new_api_key
from console.service.store.listing import in_clause
from console.service.timestamps import shown


def view(row: sqlite3.Row, key: str | None = None) -> dict[str, Any]:
    """A key as the API shows it: never its material, except right after it was made."""
    body: dict[str, Any] = {
        "id": row["id"],
        "version": str(row["version"]),
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
    }
    if key is not None:
        body["key"] = key
    return body


def of_application(
    conn: sqlite3.Connection, app_id: str, ids: Sequence[str] = ()
) -> list[sqlite3.Row]:
    """The application's keys, oldest first (`ids` narrows them)."""
    where = "application_id = ?"
    params: list[Any] = [app_id]
    if ids:
        where += " AND " + in_clause("id", ids)
        params += list(ids)
    return conn.execute(
        f"SELECT * FROM application_keys WHERE {where} ORDER BY created_at, version, id", params
    ).fetchall()


def views_by_application(
    conn: sqlite3.Connection, app_ids: Sequence[str]
) -> dict[str, list[dict[str, Any]]]:
    """The `keys` of several applications at once (one query for a page)."""
    found: dict[str, list[dict[str, Any]]] = {app_id: [] for app_id in app_ids}
    if not app_ids:
        return found
    rows = conn.execute(
        "SELECT * FROM application_keys WHERE "
        + in_clause("application_id", app_ids)
        + " ORDER BY created_at, version, id",
        list(app_ids),
    ).fetchall()
    for row in rows:
        found[row["application_id"]].append(view(row))
    return found


def get(conn: sqlite3.Connection, app_id: str, key_id: str) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM application_keys WHERE id = ? AND application_id = ?", (key_id, app_id)
    ).fetchone()


def add(
    conn: sqlite3.Connection, app_id: str, *, by: str | None, at: str
) -> tuple[sqlite3.Row, str]:
    """A new key beside the others; returns its row and its material (the only time it exists)."""
    key = new_api_key()
    key_id = str(uuid.uuid4())
    (latest,) = conn.execute(
        "SELECT COALESCE(MAX(version), 0) FROM application_keys WHERE application_id = ?",
        (app_id,),
    ).fetchone()
    conn.execute(
        "INSERT INTO application_keys (id, application_id, version, key_hash, created_by,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (key_id, app_id, latest + 1, hash_key(key), by, at),
    )
    row = conn.execute("SELECT * FROM application_keys WHERE id = ?", (key_id,)).fetchone()
    return row, key


def replace_all(
    conn: sqlite3.Connection, app_id: str, *, by: str | None, at: str
) -> tuple[sqlite3.Row, str]:
    """Regenerate: one new key, every other key revoked in the same transaction. The version
    goes on counting, so a regenerated key is never mistaken for an older one."""
    (latest,) = conn.execute(
        "SELECT COALESCE(MAX(version), 0) FROM application_keys WHERE application_id = ?",
        (app_id,),
    ).fetchone()
    conn.execute("DELETE FROM application_keys WHERE application_id = ?", (app_id,))
    key = new_api_key()
    key_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO application_keys (id, application_id, version, key_hash, created_by,"
        " created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (key_id, app_id, latest + 1, hash_key(key), by, at),
    )
    row = conn.execute("SELECT * FROM application_keys WHERE id = ?", (key_id,)).fetchone()
    return row, key


def revoke(conn: sqlite3.Connection, app_id: str, key_id: str) -> None:
    """Deletes the key: it stops working when the transaction commits."""
    conn.execute(
        "DELETE FROM application_keys WHERE id = ? AND application_id = ?", (key_id, app_id)
    )
