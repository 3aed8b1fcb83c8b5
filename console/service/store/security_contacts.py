"""A tenant's security contact: the one address the service writes to about security."""

from __future__ import annotations

import sqlite3


def get(conn: sqlite3.Connection, tenant_id: str) -> str | None:
    row = conn.execute(
        "SELECT email FROM security_contacts WHERE tenant_id = ?", (tenant_id,)
    ).fetchone()
    return None if row is None else row["email"]


def set_email(conn: sqlite3.Connection, tenant_id: str, email: str) -> None:
    conn.execute(
        "INSERT INTO security_contacts (tenant_id, email) VALUES (?, ?)"
        " ON CONFLICT (tenant_id) DO UPDATE SET email = excluded.email",
        (tenant_id, email),
    )
