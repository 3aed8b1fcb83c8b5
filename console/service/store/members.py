"""Members: a user's role in a tenant. Read through the `member_rows` view (a member with
its user's columns), so a page is one indexed SELECT."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

from console.service.store.listing import PageRequest, in_clause, page_of
from console.service.timestamps import shown

OWNER = "OWNER"


def view(row: sqlite3.Row) -> dict[str, Any]:
    """A member as the API answers one; `created_date` repeats `created_at` (the vendor's
    SDKs read that name, the vendor's docs the other)."""
    created = shown(row["created_at"])
    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "user": {
            "id": row["user_id"],
            "email": row["email"],
            "first_name": row["first_name"],
            "last_name": row["last_name"],
            "mfa_enrolled": bool(row["mfa_enrolled"]),
            "provider": row["provider"],
            "picture": None,
        },
        "role": row["role"],
        "created_by": row["created_by"],
        "created_at": created,
        "created_date": created,
        "modified_by": row["modified_by"],
        "modified_at": shown(row["modified_at"]),
    }


def get(conn: sqlite3.Connection, tenant_id: str, member_id: str) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM member_rows WHERE id = ? AND tenant_id = ?", (member_id, tenant_id)
    ).fetchone()


def of_user(conn: sqlite3.Connection, tenant_id: str, user_id: str) -> sqlite3.Row | None:
    return conn.execute(
        "SELECT * FROM member_rows WHERE tenant_id = ? AND user_id = ?", (tenant_id, user_id)
    ).fetchone()


def with_email(conn: sqlite3.Connection, tenant_id: str, email: str) -> sqlite3.Row | None:
    """The tenant's member whose user has this email (any letter case), if any."""
    return conn.execute(
        "SELECT * FROM member_rows WHERE tenant_id = ? AND email = ? COLLATE NOCASE",
        (tenant_id, email),
    ).fetchone()


def owner(conn: sqlite3.Connection, tenant_id: str) -> sqlite3.Row | None:
    """The tenant's owner: the member whose user is the tenant's `owner_id`."""
    return conn.execute(
        "SELECT member_rows.* FROM member_rows JOIN tenants ON tenants.id = member_rows.tenant_id"
        " WHERE member_rows.tenant_id = ? AND member_rows.user_id = tenants.owner_id",
        (tenant_id,),
    ).fetchone()


def page(
    conn: sqlite3.Connection, tenant_id: str, user_ids: list[str], request: PageRequest
) -> dict[str, Any]:
    where = "tenant_id = ?"
    params: list[Any] = [tenant_id]
    if user_ids:
        where += " AND " + in_clause("user_id", user_ids)
        params += user_ids
    return page_of(conn, "member_rows", where, params, request, view)


def insert(
    conn: sqlite3.Connection,
    tenant_id: str,
    user_id: str,
    role: str,
    *,
    by: str | None,
    at: str,
    member_id: str | None = None,
) -> sqlite3.Row:
    new_id = member_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO members (id, tenant_id, user_id, role, created_by, created_at, modified_by,"
        " modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (new_id, tenant_id, user_id, role, by, at, by, at),
    )
    return get(conn, tenant_id, new_id)  # type: ignore[return-value]


def set_role(
    conn: sqlite3.Connection, tenant_id: str, member_id: str, role: str, *, by: str, at: str
) -> sqlite3.Row:
    conn.execute(
        "UPDATE members SET role = ?, modified_by = ?, modified_at = ? WHERE id = ?"
        " AND tenant_id = ?",
        (role, by, at, member_id, tenant_id),
    )
    return get(conn, tenant_id, member_id)  # type: ignore[return-value]


def delete(conn: sqlite3.Connection, tenant_id: str, member_id: str) -> None:
    conn.execute("DELETE FROM members WHERE id = ? AND tenant_id = ?", (member_id, tenant_id))
