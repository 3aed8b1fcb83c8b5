"""`client.webhooks`: the tenant's webhooks (a Collection of the WEBHOOKS kind, its list read
by cursor), their event types, enabling and disabling, and the local service's `trigger`.

Enabling or disabling is a PUT of the whole webhook with its `status` (the service has no
route of its own for it): the webhook is read first, and what the console does not know of
it is written back as read (console.models.round_trip). Triggering a sample event changes no
webhook: it is sent like a reactor's run, never journalled, and as a POST never repeated.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

from console.client._http import HttpSession
from console.client.errors import UnexpectedResponse
from console.client.resources import Collection, Id, _segment
from console.kinds import WEBHOOKS
from console.models.webhooks import Webhook, WebhookCreate, WebhookUpdate

EVENT_TYPES_PATH = f"{WEBHOOKS.path}/event-types"
TRIGGER_PATH = f"{WEBHOOKS.path}/trigger"


@dataclass(frozen=True)
class Triggered:
    """What `trigger` answered: the sample event's id and how many deliveries it queued (one
    per enabled webhook subscribed to its type, or to the one named); none, with the
    service's sentence, when no webhook was to receive it."""

    event_id: str | None
    """None when no webhook was to receive it: nothing was sent."""
    deliveries: int
    detail: str = ""
    """The service's sentence when nothing was sent ("No enabled webhook subscribes to ...")."""


class Webhooks(Collection[Webhook, WebhookCreate, WebhookUpdate]):
    """`client.webhooks`: list (every webhook, by cursor), get, create, update, delete;
    `event_types`, `set_status` (`enable`, `disable`), and `trigger` (local service only)."""

    def __init__(self, session: HttpSession) -> None:
        super().__init__(session, WEBHOOKS)

    async def event_types(self) -> builtins.list[str]:
        """`GET /webhooks/event-types`: the types a webhook may subscribe to, as the service
        names them (a type this console does not know is kept)."""
        data = await self._session.request("GET", EVENT_TYPES_PATH)
        if not isinstance(data, builtins.list) or not all(isinstance(t, str) for t in data):
            raise UnexpectedResponse(
                200,
                "Unexpected answer",
                "The service's webhook event types are not a list of names",
                method="GET",
                path=EVENT_TYPES_PATH,
            )
        return data

    async def set_status(self, id: Id, status: str) -> Webhook:
        """PUT the whole webhook with `status` ("enabled" or "disabled"; ValueError before
        anything is sent otherwise): read first, every field written back as read, those
        the console does not know included."""
        if status not in ("enabled", "disabled"):
            raise ValueError(f'A webhook\'s status is enabled or disabled, not "{status[:40]}".')
        current = await self.get(id)
        return await self.update(current.id, status_body(current, status))

    async def enable(self, id: Id) -> Webhook:
        return await self.set_status(id, "enabled")

    async def disable(self, id: Id) -> Webhook:
        return await self.set_status(id, "disabled")

    async def trigger(self, event_type: str, webhook_id: Id | None = None) -> Triggered:
        """`POST /webhooks/trigger` (the local service's own): a sample event of
        `event_type`, delivered to every enabled webhook subscribed to it, or only to
        `webhook_id`. The hosted service has no such route: NotOffered ("This service does
        not offer triggering sample webhook events"). ValueError, before anything is sent,
        for a type that is not one (console.models.webhooks.event_type_problem)."""
        from console.models.webhooks import event_type_problem

        problem = event_type_problem(event_type)
        if problem is not None:
            raise ValueError(problem)
        body: dict[str, Any] = {"type": event_type}
        if webhook_id is not None:
            body["webhook_id"] = _segment(webhook_id)
        _status, data = await self._session.invoke("POST", TRIGGER_PATH, body)
        answer = data if isinstance(data, dict) else {}
        event_id, deliveries = answer.get("event_id"), answer.get("deliveries")
        detail = answer.get("detail")
        if not isinstance(event_id, str | None) or type(deliveries) is not int:
            raise UnexpectedResponse(
                _status,
                "Unexpected answer",
                "The service's answer to a trigger has no event_id and deliveries",
                method="POST",
                path=TRIGGER_PATH,
            )
        return Triggered(event_id, deliveries, detail if isinstance(detail, str) else "")


def status_body(current: Webhook, status: str) -> dict[str, Any]:
    """The PUT that sets `current`'s status and changes nothing else: its fields as read
    (events the console does not know included: the service is the judge) and every field
    the console does not know, written back (console.models.round_trip)."""
    from console.models.round_trip import update_body

    body: dict[str, Any] = {
        "name": current.name,
        "url": current.url,
        "events": list(current.events),
        "status": status,
    }
    if current.notify_email:
        body["notify_email"] = current.notify_email
    return update_body(current, body)


__all__ = ["EVENT_TYPES_PATH", "TRIGGER_PATH", "Triggered", "Webhooks", "status_body"]
