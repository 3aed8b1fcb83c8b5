"""Invitations to join a tenant. Their status is never stored: an invitation is PENDING
until its `expires_at`, EXPIRED from then on, as of the clock of the request that reads it."""

from __future__ import annotations

import sqlite3
import uuid
from datetime import datetime, timedelta
from typing import Any

from console.models.people import INVITATION_LIFETIME_SECONDS
from console.service.store.listing import PageRequest, page_of
from console.service.timestamps import shown, stamp

PENDING = "PENDING"
EXPIRED = "EXPIRED"


def expiry_from(moment: datetime) -> str:
    """When an invitation sent (or resent) at `moment` expires, as stored."""
    return stamp(moment + timedelta(seconds=INVITATION_LIFETIME_SECONDS))


def status_of(row: sqlite3.Row, now: str) -> str:
    """PENDING or EXPIRED at `now` (stored text: it sorts like time)."""
    return EXPIRED if row["expires_at"] <= now else PENDING


def view(row: sqlite3.Row, now: str) -> dict[str, Any]:
    """An invitation as the API answers one, its status as of `now`."""
    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "email": row["email"],
        "role": row["role"],
        "status": status_of(row, now),
        "expires_at": shown(row["expires_at"]),
        "created_by": row["created_by"],
        "created_at": shown(row["created_at"]),
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }


def get(conn: sqlite3.Connection, tenant_id: str, invitation_id: str) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM invitations WHERE id = ? AND tenant_id = ?", (invitation_id, tenant_id)
    ).fetchone()


def by_id(conn: sqlite3.Connection, invitation_id: str) -> sqlite3.Row | None:
    """An invitation of any tenant (the operator's `accept-invitation` names only its id)."""
    return conn.execute("SELECT * FROM invitations WHERE id = ?", (invitation_id,)).fetchone()


def pending_for(conn: sqlite3.Connection, tenant_id: str, email: str, now: str) -> bool:
    """Whether the tenant has a pending invitation for this email (any letter case)."""
    return (
        conn.execute(
            "SELECT 1 FROM invitations WHERE tenant_id = ? AND email = ? AND expires_at > ?",
            (tenant_id, email, now),
        ).fetchone()
        is not None
    )


def page(
    conn: sqlite3.Connection,
    tenant_id: str,
    status: str | None,
    request: PageRequest,
    now: str,
) -> dict[str, Any]:
    where = "tenant_id = ?"
    params: list[Any] = [tenant_id]
    if status == PENDING:
        where += " AND expires_at > ?"
        params.append(now)
    elif status == EXPIRED:
        where += " AND expires_at <= ?"
        params.append(now)
    return page_of(conn, "invitations", where, params, request, lambda row: view(row, now))


def insert(
    conn: sqlite3.Connection,
    tenant_id: str,
    email: str,
    role: str,
    *,
    expires_at: str,
    by: str | None,
    at: str,
    invitation_id: str | None = None,
) -> sqlite3.Row:
    new_id = invitation_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO invitations (id, tenant_id, email, role, expires_at, created_by, created_at,"
        " modified_by, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (new_id, tenant_id, email, role, expires_at, by, at, by, at),
    )
    return get(conn, tenant_id, new_id)  # type: ignore[return-value]


def extend(
    conn: sqlite3.Connection,
    tenant_id: str,
    invitation_id: str,
    *,
    expires_at: str,
    by: str,
    at: str,
) -> sqlite3.Row:
    """Resent: a new expiry (the invitation is pending again until then)."""
    conn.execute(
        "UPDATE invitations SET expires_at = ?, modified_by = ?, modified_at = ? WHERE id = ?"
        " AND tenant_id = ?",
        (expires_at, by, at, invitation_id, tenant_id),
    )
    return get(conn, tenant_id, invitation_id)  # type: ignore[return-value]


def delete(conn: sqlite3.Connection, tenant_id: str, invitation_id: str) -> None:
    conn.execute(
        "DELETE FROM invitations WHERE id = ? AND tenant_id = ?", (invitation_id, tenant_id)
    )
