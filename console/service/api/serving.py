"""What every handler does first, named once: `serving(request)`.

One transaction per request, on the handler's own thread: handlers are plain `def` functions
on uvicorn's thread pool and the store gives each thread its own SQLite connection, so the
transaction opened here is the one the whole request reads and writes. The order of checks is
fixed here: the key (401), the permission (403), the query parameters (400). The handler then
finds the object its path names (404) and reads the body (415, 400): a caller without the
permission learns nothing from validation messages.
"""

from __future__ import annotations

import enum
import json
import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from fastapi import Request

from console.kinds.endpoints import required_permission
from console.service.api.common import Clock, authenticate, json_body, parse, path_id, store_of
from console.service.api.query import NO_QUERY, AcceptedQuery, QueryParameters
from console.service.store import Caller

if TYPE_CHECKING:
    from console.kinds import Kind

M = TypeVar("M")


@dataclass
class Served:
    """A request being served: its transaction, its clock, its caller and its query."""

    request: Request
    conn: sqlite3.Connection
    clock: Clock
    caller: Caller
    query: QueryParameters
    raw: bytes
    """The body as read (see common.raw_body); parsed only when the handler asks."""
    events: bool = False
    """Whether a change of this request may have queued webhook deliveries: the deliverer
    is woken once the transaction commits (`serving`)."""

    @property
    def tenant_id(self) -> str:
        return self.caller.tenant_id

    @property
    def path_id(self) -> str:
        """The `{id}` of the path, canonical; one that is not a UUID is simply not found."""
        return path_id(self.request)

    @cached_property
    def body(self) -> Any:
        """The JSON body: 415 if it is not declared as JSON, 400 if it does not parse."""
        return json_body(self.request, self.raw)

    def changed(
        self,
        kind: Kind,
        entity_id: str,
        operation: str,
        message: str,
        *,
        event: str | None = None,
        subject: Mapping[str, Any] | None = None,
    ) -> None:
        """Record a change this request made to one object of `kind` (its audit log entry
        and webhook event, console.service.changes), in this request's transaction, as done
        by its caller. `event` names the event where it is not the kind's `<verb>d` one;
        `subject` is the event's object (safe fields only)."""
        from console.service.changes import Actor, Change, event_type_of, record

        entity = kind.log_entity or kind.key
        actor = Actor(self.caller.application_id, "application")
        change = Change(
            self.tenant_id,
            entity,
            entity_id,
            operation,
            message,
            actor,
            self.clock.text,
            event=event,
            subject=subject,
        )
        record(self.conn, change)
        self.events = self.events or event_type_of(change) is not None

    def payload(self, model: type[M], **context: Any) -> M:
        """The body validated by `model` (a RequestModel): 400 with field errors."""
        return parse(model, self.body, self.raw, **context)

    def payload_of(self, model: type[M], document: dict[str, Any], **context: Any) -> M:
        """A document the handler made (a stored object with a merge-patch applied)
        validated by `model` as a body would be: 400 with field errors."""
        return parse(model, document, json.dumps(document).encode(), **context)


class _Contract(enum.Enum):
    TABLE = "the contract table"


FROM_CONTRACT: Literal[_Contract.TABLE] = _Contract.TABLE
"""`serving(permission=)`'s default: the permission the contract table gives the route."""


def endpoint_permission(request: Request) -> str | None:
    """The permission the matched route requires, by the contract table."""
    return required_permission(request.method, request.scope["route"].path)


@contextmanager
def serving(
    request: Request,
    *,
    write: bool = False,
    query: AcceptedQuery = NO_QUERY,
    raw: bytes = b"",
    permission: str | Literal[_Contract.TABLE] | None = FROM_CONTRACT,
) -> Iterator[Served]:
    """The request's transaction, clock, caller and query, in the order the API checks them.

    The permission the endpoint requires comes from the API's contract table
    (console.kinds.endpoints), by the method and the route's path template; where it is
    None, any valid key will do. Routes beyond the registry's (a test's own) may name their
    `permission` instead, checked the same way. A write transaction (`write=True`) commits
    when the block ends and rolls back if it raises; it waits for the write lock first, and
    the clock is read only once the lock is held: read before, a write that waited longer
    would commit later with an earlier `modified_at` than the write it overwrites.
    """
    store = store_of(request)
    transaction = store.write() if write else store.read()
    with transaction as conn:
        clock = Clock()
        required = endpoint_permission(request) if permission is FROM_CONTRACT else permission
        caller = authenticate(conn, request, clock, required)
        served = Served(request, conn, clock, caller, query.read(request), raw)
        yield served
    if served.events:
        wake_deliverer(request)


def wake_deliverer(request: Request) -> None:
    """Tell the service's webhook deliverer that deliveries were committed (a service
    without one, a test's app, has nothing to wake)."""
    wake = getattr(request.app.state, "wake_deliverer", None)
    if wake is not None:
        wake()
