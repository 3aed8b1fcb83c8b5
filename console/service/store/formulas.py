"""Reactor formulas: the operator's official catalogue (tenant_id NULL) and tenants' own."""

from __future__ import annotations

import json
import sqlite3
import uuid
from typing import Any

from console.service.store.listing import PageRequest, name_pattern, page_of
from console.service.timestamps import shown

VISIBLE = "(tenant_id IS NULL OR tenant_id = ?)"


def view(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "id": row["id"],
        "name": row["name"],
        "description": row["description"],
        "type": row["type"],
        "status": row["status"],
        "icon": row["icon"],
        "code": row["code"],
        "configuration": json.loads(row["configuration"]),
        "request_parameters": json.loads(row["request_parameters"]),
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }


def get(conn: sqlite3.Connection, tenant_id: str, formula_id: str) -> sqlite3.Row | None:
    """A formula the tenant can see: an official one or one of its own."""
    return conn.execute(
        f"SELECT * FROM reactor_formulas WHERE id = ? AND {VISIBLE}", (formula_id, tenant_id)
    ).fetchone()


def page(
    conn: sqlite3.Connection, tenant_id: str, name: str | None, request: PageRequest
) -> dict[str, Any]:
    where = VISIBLE
    params: list[Any] = [tenant_id]
    if name:
        where += " AND name_folded LIKE ? ESCAPE '\\'"
        params.append(name_pattern(name))
    return page_of(conn, "reactor_formulas", where, params, request, view)


def _columns(fields: dict[str, Any]) -> tuple[Any, ...]:
    """The stored form of a validated payload (`ReactorFormulaCreate.model_dump()`)."""
    return (
        fields["name"],
        fields["name"].casefold(),
        fields.get("description"),
        fields["type"],
        fields.get("icon"),
        fields["code"],
        json.dumps(fields.get("configuration") or []),
        json.dumps(fields.get("request_parameters") or []),
    )


def insert(
    conn: sqlite3.Connection,
    tenant_id: str | None,
    fields: dict[str, Any],
    *,
    status: str = "verified",
    by: str | None,
    at: str,
    formula_id: str | None = None,
) -> sqlite3.Row:
    formula_id = formula_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO reactor_formulas (name, name_folded, description, type, icon, code,"
        " configuration, request_parameters, id, tenant_id, status, created_by, created_at,"
        " modified_by, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*_columns(fields), formula_id, tenant_id, status, by, at, by, at),
    )
    return conn.execute("SELECT * FROM reactor_formulas WHERE id = ?", (formula_id,)).fetchone()


def update(
    conn: sqlite3.Connection, formula_id: str, fields: dict[str, Any], *, by: str, at: str
) -> sqlite3.Row:
    conn.execute(
        "UPDATE reactor_formulas SET name = ?, name_folded = ?, description = ?, type = ?,"
        " icon = ?, code = ?, configuration = ?, request_parameters = ?, modified_by = ?,"
        " modified_at = ? WHERE id = ?",
        (*_columns(fields), by, at, formula_id),
    )
    return conn.execute("SELECT * FROM reactor_formulas WHERE id = ?", (formula_id,)).fetchone()


def delete(conn: sqlite3.Connection, formula_id: str) -> None:
    conn.execute("DELETE FROM reactor_formulas WHERE id = ?", (formula_id,))
