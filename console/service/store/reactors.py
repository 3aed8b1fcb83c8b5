"""Reactors: rows, views and queries, and the results of asynchronous reacts.

As for proxies, every row read for a view carries `live_application_id` (and the
application's name and type): its application while that has not expired at the request's
time. A row's provisioning is settled when read (console.service.provisioning): a view
after a build's end shows it ended, and the next write stores it so.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

import console.service.store.applications as applications
from console.service.provisioning import Provisioning, Version, settle, wall_now
from console.service.store.listing import PageRequest, in_clause, name_pattern, page_of
from console.service.timestamps import shown, stamp

RESULTS_KEPT = timedelta(hours=24)
"""How long an asynchronous react's result is kept."""


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)


def _loads(value: str | None) -> Any:
    return None if value is None else json.loads(value)


def provisioning_of(row: sqlite3.Row, now: datetime | None = None) -> Provisioning:
    """The row's provisioning, settled at `now` (default: the wall clock's now)."""
    stored = Provisioning(
        state=row["state"],
        serving=Version(
            code=row["code"],
            configuration=json.loads(row["configuration"]),
            runtime=_loads(row["runtime"]),
        ),
        requested=_loads(row["requested"]),
        ready_at=row["ready_at"],
    )
    return settle(stored, now or wall_now())


def view(row: sqlite3.Row, now: datetime | None = None) -> dict[str, Any]:
    """A reactor as the API shows it (the hosted service's Reactor object)."""
    provisioning = provisioning_of(row, now)
    serving = provisioning.serving
    application = None
    if row["live_application_id"] is not None:
        application = {
            "id": row["live_application_id"],
            "name": row["application_name"],
            "type": row["application_type"],
        }
    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "name": row["name"],
        "code": serving.code,
        "state": provisioning.state,
        "application": application,
        "configuration": serving.configuration,
        "runtime": serving.runtime,
        "requested": provisioning.requested,
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }


LIVE_APPLICATION = applications.live_id("reactors.application_id", alias="live_application_id")
"""A column for the reactor's application while it lives; its one parameter is now."""
_APPLICATION_FIELDS = (
    "(SELECT a.name FROM applications a WHERE a.id = reactors.application_id) AS application_name,"
    " (SELECT a.type FROM applications a WHERE a.id = reactors.application_id)"
    " AS application_type"
)
_COLUMNS = f"reactors.*, {LIVE_APPLICATION}, {_APPLICATION_FIELDS}"
_SELECT = f"SELECT {_COLUMNS} FROM reactors"


def get(conn: sqlite3.Connection, tenant_id: str, reactor_id: str, now: str) -> sqlite3.Row | None:
    return conn.execute(
        f"{_SELECT} WHERE id = ? AND tenant_id = ?", (now, reactor_id, tenant_id)
    ).fetchone()


def _by_id(conn: sqlite3.Connection, reactor_id: str, now: str) -> sqlite3.Row:
    return conn.execute(f"{_SELECT} WHERE id = ?", (now, reactor_id)).fetchone()


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
    return page_of(conn, "reactors", where, params, request, view, columns=(_COLUMNS, [now]))


def _provisioning_columns(provisioning: Provisioning) -> tuple[Any, ...]:
    serving = provisioning.serving
    return (
        serving.code,
        json.dumps(serving.configuration),
        _json(serving.runtime),
        provisioning.state,
        _json(provisioning.requested),
        provisioning.ready_at,
    )


def insert(
    conn: sqlite3.Connection,
    tenant_id: str,
    *,
    name: str,
    application_id: str | None,
    provisioning: Provisioning,
    by: str | None,
    at: str,
    reactor_id: str | None = None,
) -> sqlite3.Row:
    """A new reactor. The demo (console/service/demo.py) makes an active one with
    `Provisioning("active", Version(code, configuration, runtime))`."""
    reactor_id = reactor_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO reactors (code, configuration, runtime, state, requested, ready_at,"
        " id, tenant_id, name, name_folded, application_id,"
        " created_by, created_at, modified_by, modified_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            *_provisioning_columns(provisioning),
            reactor_id,
            tenant_id,
            name,
            name.casefold(),
            application_id,
            by,
            at,
            by,
            at,
        ),
    )
    return _by_id(conn, reactor_id, at)


def update(
    conn: sqlite3.Connection,
    reactor_id: str,
    *,
    name: str,
    application_id: str | None,
    provisioning: Provisioning,
    by: str,
    at: str,
) -> sqlite3.Row:
    conn.execute(
        "UPDATE reactors SET code = ?, configuration = ?, runtime = ?, state = ?,"
        " requested = ?, ready_at = ?, name = ?, name_folded = ?, application_id = ?,"
        " modified_by = ?, modified_at = ? WHERE id = ?",
        (
            *_provisioning_columns(provisioning),
            name,
            name.casefold(),
            application_id,
            by,
            at,
            reactor_id,
        ),
    )
    return _by_id(conn, reactor_id, at)


def delete(conn: sqlite3.Connection, reactor_id: str) -> None:
    conn.execute("DELETE FROM reactors WHERE id = ?", (reactor_id,))


# -- results of asynchronous reacts ----------------------------------------------------------


def add_pending_result(
    conn: sqlite3.Connection, tenant_id: str, reactor_id: str, now: datetime
) -> str:
    """A new pending result; its request id (what `react-async` answers)."""
    request_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO reactor_results (request_id, reactor_id, tenant_id, status, created_at)"
        " VALUES (?, ?, ?, 'pending', ?)",
        (request_id, reactor_id, tenant_id, stamp(now)),
    )
    return request_id


def finish_result(
    conn: sqlite3.Connection,
    request_id: str,
    *,
    http_status: int,
    response: Any,
    now: datetime,
) -> None:
    """What the react answered: `completed` with a 200, else `failed` with its problem."""
    status = "completed" if http_status == 200 else "failed"
    conn.execute(
        "UPDATE reactor_results SET status = ?, http_status = ?, response = ?, completed_at = ?"
        " WHERE request_id = ?",
        (status, http_status, json.dumps(response), stamp(now), request_id),
    )


def get_result(
    conn: sqlite3.Connection, tenant_id: str, reactor_id: str, request_id: str, now: datetime
) -> sqlite3.Row | None:
    """The result, if it is this tenant's and this reactor's and younger than a day."""
    return conn.execute(
        "SELECT * FROM reactor_results WHERE request_id = ? AND reactor_id = ?"
        " AND tenant_id = ? AND created_at > ?",
        (request_id, reactor_id, tenant_id, stamp(now - RESULTS_KEPT)),
    ).fetchone()


def sweep_results(conn: sqlite3.Connection, now: datetime) -> int:
    """Deletes results older than a day; how many."""
    cursor = conn.execute(
        "DELETE FROM reactor_results WHERE created_at <= ?", (stamp(now - RESULTS_KEPT),)
    )
    return cursor.rowcount


def abandon_pending(conn: sqlite3.Connection, response: Any, now: datetime) -> int:
    """Results still pending when the service starts: their runs ended with the process that
    ran them, so they fail (500) rather than stay pending for a day."""
    cursor = conn.execute(
        "UPDATE reactor_results SET status = 'failed', http_status = 500, response = ?,"
        " completed_at = ? WHERE status = 'pending'",
        (json.dumps(response), stamp(now)),
    )
    return cursor.rowcount
