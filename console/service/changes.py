"""Every management write the local service makes is recorded here, once: an audit log entry
as the hosted service writes one (console.service.store.logs), and its webhook event.

Handlers call `record` inside the request's write transaction, after the change: the entry,
the event and its deliveries commit with the change or not at all. The deliveries are an
outbox: the service's deliverer sends them after the commit, off the request's thread, so a
webhook never slows the write. Never put a key, a configuration value or code in a message
or an event's object: they name what changed, not its secrets.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

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
    event: str | None = None
    """The webhook event type (`application.key.created`); None: the one `event_type_of`
    derives from the entity type and operation, if the service has one."""
    subject: Mapping[str, Any] | None = field(default=None, compare=False)
    """The event's object (`data.<object>`): fields safe to send anywhere, never a key, a
    configuration value or code. None: `{"id": entity_id}`."""


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


_EVENT_VERBS = {"create": "created", "update": "updated", "delete": "deleted"}


def event_type_of(change: Change) -> str | None:
    """The webhook event a change emits (`proxy.updated`), or None if the hosted service
    has no event for it (a member's role changed, a reactor formula)."""
    from console.models.webhooks import EVENT_OBJECTS

    if change.event is not None:
        return change.event
    verb = _EVENT_VERBS.get(change.operation)
    if verb is None:
        return None
    # The events' prefix is the entity type dotted (`tenant_member` -> `tenant.member`);
    # one the hosted service documents no event for (`reactor.formula`, `webhook`) has none.
    name = f"{change.entity_type.replace('_', '.')}.{verb}"
    return name if name in EVENT_OBJECTS else None


_SUBSCRIBED = (
    "SELECT id FROM webhooks WHERE tenant_id = ? AND status = 'enabled'"
    " AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ?)"
)


def record(conn: sqlite3.Connection, change: Change) -> str:
    """Keep `change` in the audit log of its tenant (in the caller's transaction), and queue
    its webhook event for each enabled webhook subscribed to it; returns the entry's id.
    This module imports nothing of the store: the store's own modules (accepting an
    invitation) record through it too."""
    log_id = str(uuid.uuid4())
    conn.execute(INSERT, row_of(log_id, change))
    event_type = event_type_of(change)
    if event_type is not None:
        if change.subject is not None:
            from console.service.event_subjects import narrowed

            # The object as the vendor documents it for this type (a triggered sample,
            # queued without a change made, keeps its own).
            change = replace(change, subject=narrowed(event_type, change.subject))
        queue_event(conn, change, event_type)
    return log_id


def _actor_name(conn: sqlite3.Connection, actor: Actor) -> str | None:
    if actor.id is None:
        return None
    table = {ACTOR_APPLICATION: "applications", ACTOR_USER: "users"}.get(actor.type)
    if table is None:
        return None
    column = "name" if table == "applications" else "email"
    row = conn.execute(f"SELECT {column} FROM {table} WHERE id = ?", (actor.id,)).fetchone()
    return None if row is None else row[0]


def queue_event(
    conn: sqlite3.Connection, change: Change, event_type: str, *, webhook_id: str | None = None
) -> str | None:
    """Store the event of `change` and one pending delivery per enabled webhook of its
    tenant subscribed to `event_type` (only `webhook_id`, if given, whatever it subscribes
    to: a triggered sample). Returns the event's id, or None when no webhook wants it (then
    nothing is stored: a tenant without webhooks pays one indexed read per write)."""
    from console.models.webhooks import EVENT_OBJECTS

    if webhook_id is None:
        targets = [r[0] for r in conn.execute(_SUBSCRIBED, (change.tenant_id, event_type))]
    else:
        targets = [webhook_id]
    if not targets:
        return None
    event_id = str(uuid.uuid4())
    subject = dict(change.subject) if change.subject is not None else {"id": change.entity_id}
    actor = {
        "id": change.actor.id,
        "type": change.actor.type,
        "name": _actor_name(conn, change.actor),
    }
    event = {
        "id": event_id,
        "type": event_type,
        "timestamp": change.at,
        "tenant_id": change.tenant_id,
        "trace_id": str(uuid.uuid4()),
        "data": {EVENT_OBJECTS.get(event_type, "object"): subject, "actor": actor},
    }
    conn.execute(
        "INSERT INTO webhook_events (id, tenant_id, type, body, created_at) VALUES (?, ?, ?, ?, ?)",
        (event_id, change.tenant_id, event_type, json.dumps(event), change.at),
    )
    conn.executemany(
        "INSERT INTO webhook_deliveries (event_id, webhook_id, next_at) VALUES (?, ?, ?)",
        [(event_id, target, change.at) for target in targets],
    )
    return event_id
