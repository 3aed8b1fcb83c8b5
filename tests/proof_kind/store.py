"""Widgets' rows in the service's own SQLite file: a table of their own, made at start-up.

As console/service/store's modules do for the built-in kinds: the queries the routes need,
in the request's transaction, and the view the API answers with.
"""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from console.service.store.listing import PageRequest, name_pattern, page_of
from console.service.timestamps import shown

TABLE = "widgets"

CREATE = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    id TEXT PRIMARY KEY,
    tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_folded TEXT NOT NULL,
    colour TEXT,
    created_by TEXT,
    created_at TEXT NOT NULL,
    modified_by TEXT,
    modified_at TEXT
)
"""
"""Not a migration of the product's schema: the test service adds it when it starts."""


def create_table(conn: sqlite3.Connection) -> None:
    conn.execute(CREATE)


def view(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "colour": row["colour"],
        "created_at": shown(row["created_at"]),
        "modified_at": shown(row["modified_at"]),
    }


def get(conn: sqlite3.Connection, tenant_id: str, widget_id: str) -> sqlite3.Row | None:
    return conn.execute(
        f"SELECT * FROM {TABLE} WHERE id = ? AND tenant_id = ?", (widget_id, tenant_id)
    ).fetchone()


def page(
    conn: sqlite3.Connection, tenant_id: str, name: str | None, request: PageRequest
) -> dict[str, Any]:
    where = "tenant_id = ?"
    params: list[Any] = [tenant_id]
    if name:
        where += " AND name_folded LIKE ? ESCAPE '\\'"
        params.append(name_pattern(name))
    return page_of(conn, TABLE, where, params, request, view)


def insert(
    conn: sqlite3.Connection, tenant_id: str, fields: dict[str, Any], *, by: str, at: str
) -> sqlite3.Row:
    widget_id = str(uuid.uuid4())
    conn.execute(
        f"INSERT INTO {TABLE} (id, tenant_id, name, name_folded, colour, created_by,"
        " created_at, modified_by, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            widget_id,
            tenant_id,
            fields["name"],
            fields["name"].casefold(),
            fields["colour"],
            by,
            at,
            by,
            at,
        ),
    )
    return conn.execute(f"SELECT * FROM {TABLE} WHERE id = ?", (widget_id,)).fetchone()


def update(
    conn: sqlite3.Connection, widget_id: str, fields: dict[str, Any], *, by: str, at: str
) -> sqlite3.Row:
    conn.execute(
        f"UPDATE {TABLE} SET name = ?, name_folded = ?, colour = ?, modified_by = ?,"
        " modified_at = ? WHERE id = ?",
        (fields["name"], fields["name"].casefold(), fields["colour"], by, at, widget_id),
    )
    return conn.execute(f"SELECT * FROM {TABLE} WHERE id = ?", (widget_id,)).fetchone()


def delete(conn: sqlite3.Connection, widget_id: str) -> None:
    conn.execute(f"DELETE FROM {TABLE} WHERE id = ?", (widget_id,))
