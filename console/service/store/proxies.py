"""Proxies: rows, views and queries.

Every row read for a view carries `live_application_id`: the proxy's application if it has
not expired at the request's time. An expired application is deleted as far as any answer
goes, before the sweep removes its row (and the foreign key nulls `application_id`).
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Sequence
from typing import Any

import console.service.store.applications as applications
from console.service.keys import new_proxy_key
from console.service.store.listing import PageRequest, in_clause, name_pattern, page_of
from console.service.timestamps import shown


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _loads(value: str | None) -> Any:
    return None if value is None else json.loads(value)


def _only_step(steps: list[Any]) -> Any:
    return steps[0] if len(steps) == 1 else None


def pipeline(fields: dict[str, Any], side: str) -> list[Any]:
    """The steps of one side of a payload: its `{side}_transforms` array, else its single
    `{side}_transform` as a one-step pipeline (a spec-era body, or the demo's), else none."""
    steps = fields.get(f"{side}_transforms")
    if steps is not None:
        return list(steps)
    single = fields.get(f"{side}_transform")
    return [single] if single is not None else []


def view(row: sqlite3.Row) -> dict[str, Any]:
    """A proxy as the API shows it: the pipelines always as arrays; each single transform
    (the specification's field) the pipeline's step when it has exactly one, else null."""
    request_steps = json.loads(row["request_transforms"])
    response_steps = json.loads(row["response_transforms"])
    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "key": row["key"],
        "name": row["name"],
        "destination_url": row["destination_url"],
        "request_transform": _only_step(request_steps),
        "response_transform": _only_step(response_steps),
        "request_transforms": request_steps,
        "response_transforms": response_steps,
        "application_id": row["live_application_id"],
        "configuration": _loads(row["configuration"]),
        "require_auth": bool(row["require_auth"]),
        "disable_detokenization": bool(row["disable_detokenization"]),
        "timeout": row["timeout"],
        "state": row["state"],
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }


LIVE_APPLICATION = applications.live_id("proxies.application_id", alias="live_application_id")
"""A column for the proxy's application while it lives; its one parameter is now."""

_SELECT = f"SELECT proxies.*, {LIVE_APPLICATION} FROM proxies"


def get(conn: sqlite3.Connection, tenant_id: str, proxy_id: str, now: str) -> sqlite3.Row | None:
    return conn.execute(
        f"{_SELECT} WHERE id = ? AND tenant_id = ?", (now, proxy_id, tenant_id)
    ).fetchone()


def _by_id(conn: sqlite3.Connection, proxy_id: str, now: str) -> sqlite3.Row:
    return conn.execute(f"{_SELECT} WHERE id = ?", (now, proxy_id)).fetchone()


def page(
    conn: sqlite3.Connection,
    tenant_id: str,
    ids: Sequence[str],
    name: str | None,
    request: PageRequest,
    now: str,
) -> dict[str, Any]:
    where = "tenant_id = ?"
    params: list[Any] = [tenant_id]
    if ids:
        where += " AND " + in_clause("id", ids)
        params += ids
    if name:
        where += " AND name_folded LIKE ? ESCAPE '\\'"
        params.append(name_pattern(name))
    return page_of(
        conn, "proxies", where, params, request, view, columns=(f"*, {LIVE_APPLICATION}", [now])
    )


_COLUMNS = (
    "name, name_folded, destination_url, request_transforms, response_transforms,"
    " application_id, configuration, require_auth, disable_detokenization, timeout"
)


def _columns(fields: dict[str, Any]) -> tuple[Any, ...]:
    """The stored form of a validated payload (`ProxyCreate.model_dump()`), in _COLUMNS'
    order."""
    application = fields.get("application")
    return (
        fields["name"],
        fields["name"].casefold(),
        fields["destination_url"],
        json.dumps(pipeline(fields, "request")),
        json.dumps(pipeline(fields, "response")),
        application["id"] if application else None,
        _json(fields.get("configuration")),
        1 if fields.get("require_auth", True) else 0,
        1 if fields.get("disable_detokenization") else 0,
        fields.get("timeout"),
    )


def insert(
    conn: sqlite3.Connection,
    tenant_id: str,
    fields: dict[str, Any],
    *,
    by: str | None,
    at: str,
    proxy_id: str | None = None,
    key: str | None = None,
) -> sqlite3.Row:
    proxy_id = proxy_id or str(uuid.uuid4())
    conn.execute(
        f"INSERT INTO proxies ({_COLUMNS},"
        " id, tenant_id, key, created_by, created_at, modified_by, modified_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (*_columns(fields), proxy_id, tenant_id, key or new_proxy_key(), by, at, by, at),
    )
    return _by_id(conn, proxy_id, at)


def update(
    conn: sqlite3.Connection, proxy_id: str, fields: dict[str, Any], *, by: str, at: str
) -> sqlite3.Row:
    assignments = ", ".join(f"{column.strip()} = ?" for column in _COLUMNS.split(","))
    conn.execute(
        f"UPDATE proxies SET {assignments}, modified_by = ?, modified_at = ? WHERE id = ?",
        (*_columns(fields), by, at, proxy_id),
    )
    return _by_id(conn, proxy_id, at)


def delete(conn: sqlite3.Connection, proxy_id: str) -> None:
    conn.execute("DELETE FROM proxies WHERE id = ?", (proxy_id,))
