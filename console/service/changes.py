"""Every management write the local service makes is recorded here, once: an audit log entry
as the hosted service writes one (console.service.store.logs), and later a webhook event.

Handlers call `record` inside the request's write transaction, after the change: the entry
commits with the change or not at all. Never put a key, a configuration value or code in a
message: messages name what changed, not its contents.
"""

from __future__ import annotations

import sqlite3
import uuid
from dataclasses import dataclass

ACTOR_APPLICATION = "application"
ACTOR_USER = "user"
ACTOR_SYSTEM = "system"


@dataclass(frozen=True)
class Actor:
    """Who made the change: an application (its key's), a user (accepting an invitation on
    the local service), or the service itself (provisioning, expiry)."""

    id: str | None
    type: str


@dataclass(frozen=True)
class Change:
    """One change to one object, as an audit log records it."""

    tenant_id: str
    entity_type: str
    """The kind's `log_entity` (console.kinds): `application`, `proxy`, `tenant_member`."""
    entity_id: str
    operation: str
    """`create`, `update` or `delete`."""
    message: str
    """One sentence a person reads: "Proxy created", "Member role changed to READ_ONLY"."""
    actor: Actor
    at: str
    """The request's clock as stored text (console.service.timestamps.stamp)."""


INSERT = (
    "INSERT INTO logs (id, tenant_id, actor_id, actor_type, entity_type, entity_id,"
    " operation, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
"""The statement that stores an entry (console.service.store.logs stores many with it)."""


def row_of(log_id: str, change: Change) -> tuple[str | None, ...]:
    """The `INSERT` parameters of `change` stored under `log_id`."""
    return (
        log_id,
        change.tenant_id,
        change.actor.id,
        change.actor.type,
        change.entity_type,
        change.entity_id,
        change.operation,
        change.message,
        change.at,
    )


def record(conn: sqlite3.Connection, change: Change) -> str:
    """Keep `change` in the audit log of its tenant (in the caller's transaction); returns
    the entry's id. This module imports nothing of the store: the store's own modules
    (accepting an invitation) record through it too."""
    log_id = str(uuid.uuid4())
    conn.execute(INSERT, row_of(log_id, change))
    return log_id
