"""Users: the people behind members, one row a person across every tenant of the data dir.

The local service has no sign-up: a user is made by the operator (`new-tenant --owner`,
`accept-invitation`) or the demo. An email is one user whatever its letter case.
"""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any

DEFAULT_PROVIDER = "local"
"""Where the user signs in; the hosted service names an identity provider here."""


def view(row: sqlite3.Row) -> dict[str, Any]:
    """A user as the API shows one inside a member (the SDKs' `User`); `picture` is never
    set on the local service."""
    return {
        "id": row["id"],
        "email": row["email"],
        "first_name": row["first_name"],
        "last_name": row["last_name"],
        "mfa_enrolled": bool(row["mfa_enrolled"]),
        "provider": row["provider"],
        "picture": None,
    }


def get(conn: sqlite3.Connection, user_id: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM users WHERE id = ?", (user_id,)).fetchone()


def by_email(conn: sqlite3.Connection, email: str) -> sqlite3.Row | None:
    return conn.execute("SELECT * FROM users WHERE email = ?", (email,)).fetchone()


def ensure(
    conn: sqlite3.Connection,
    email: str,
    *,
    first_name: str | None = None,
    last_name: str | None = None,
    mfa_enrolled: bool = False,
    user_id: str | None = None,
) -> sqlite3.Row:
    """The user with this email, made with these details if there is none yet (an existing
    user keeps their own: they are the same person in another tenant)."""
    found = by_email(conn, email)
    if found is not None:
        return found
    new_id = user_id or str(uuid.uuid4())
    conn.execute(
        "INSERT INTO users (id, email, first_name, last_name, mfa_enrolled, provider)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (new_id, email, first_name, last_name, int(mfa_enrolled), DEFAULT_PROVIDER),
    )
    return get(conn, new_id)  # type: ignore[return-value]
