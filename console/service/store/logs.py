"""Audit logs: rows written by console.service.changes, read by `GET /logs`."""

from __future__ import annotations

import sqlite3
import uuid
from typing import Any, Protocol


class Entry(Protocol):
    """What an entry is made of (console.service.changes.Change has it): named here so that
    the store needs nothing of the module that records changes."""

    @property
    def tenant_id(self) -> str: ...
    @property
    def entity_type(self) -> str: ...
    @property
    def entity_id(self) -> str: ...
    @property
    def operation(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def at(self) -> str: ...
    @property
    def actor(self) -> Any: ...


def insert(conn: sqlite3.Connection, change: Entry) -> str:
    """Store one entry in the caller's transaction; returns its id."""
    log_id = str(uuid.uuid4())
    conn.execute(
        "INSERT INTO logs (id, tenant_id, actor_id, actor_type, entity_type, entity_id,"
        " operation, message, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            log_id,
            change.tenant_id,
            change.actor.id,
            change.actor.type,
            change.entity_type,
            change.entity_id,
            change.operation,
            change.message,
            change.at,
        ),
    )
    return log_id


def view(row: sqlite3.Row) -> dict[str, Any]:
    """A stored entry as `GET /logs` answers it."""
    from console.service.timestamps import shown

    return {
        "id": row["id"],
        "tenant_id": row["tenant_id"],
        "actor_id": row["actor_id"],
        "actor_type": row["actor_type"],
        "entity_type": row["entity_type"],
        "entity_id": row["entity_id"],
        "operation": row["operation"],
        "message": row["message"],
        "created_at": shown(row["created_at"]),
    }
