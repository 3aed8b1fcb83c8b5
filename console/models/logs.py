"""Audit logs: who did what to which object, as the hosted service's `GET /logs` answers.

Read leniently (the hosted service's entity types and operations are open-ended, and a log
may carry no `id`); nothing here is ever sent, so there is no request model. The vendor's
SDKs name them `Log` and `LogEntityType`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from console.models.common import ResponseModel, UtcDateTime

ActorType = Literal["application", "user", "system"]
"""Who acted: an application's key, a person (in the portal), or the service itself."""
ACTOR_TYPES: tuple[str, ...] = ("application", "user", "system")

Operation = Literal["create", "update", "delete", "read"]
OPERATIONS: tuple[str, ...] = ("create", "update", "delete", "read")

LOG_RETENTION_SECONDS = 86_400
"""How long the hosted service keeps logs by default (its "Log Retention" quota): 24 hours.
The local service's `serve --log-retention` defaults to it."""


LOG_FIELDS: tuple[str, ...] = (
    "id",
    "tenant_id",
    "actor_id",
    "actor_type",
    "entity_type",
    "entity_id",
    "operation",
    "message",
    "created_at",
)
"""An entry's fields in the order the vendor's SDK names them: the archive's columns, an
evidence pack's log lines."""


class Log(ResponseModel):
    """One audit entry. `id` is the local service's (the hosted one may send none): an entry
    is known by `identity` either way."""

    id: str | None = None
    tenant_id: str | None = None
    actor_id: str | None = None
    actor_type: str | None = None
    entity_type: str | None = None
    entity_id: str | None = None
    operation: str | None = None
    message: str | None = None
    created_at: UtcDateTime | None = None

    @property
    def identity(self) -> str:
        """What tells this entry from every other: its `id` when the service sent one, else a
        digest of everything it says (two identical entries at the same microsecond are one)."""
        if self.id:
            return f"id:{self.id}"
        fields = [
            self.tenant_id,
            self.actor_id,
            self.actor_type,
            self.entity_type,
            self.entity_id,
            self.operation,
            self.message,
            self.created_at.isoformat() if self.created_at else None,
        ]
        digest = hashlib.sha256(json.dumps(fields).encode()).hexdigest()[:32]
        return f"sha:{digest}"


class LogEntityType(ResponseModel):
    """One entity type logs may name (`GET /logs/entity-types`): `value` is what a log's
    `entity_type` holds, `display_name` what a person reads."""

    value: str
    display_name: str | None = None
