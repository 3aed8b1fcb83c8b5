"""The webhook `webhooks listen` registers for itself, and removes when it ends.

`WebhookRoutes` is the little `listen` needs of the service (event types, the tenant's
webhooks, create, delete); `ServiceRoutes` sends them through the console's client (a POST is
never sent twice, an id is checked before it reaches a path). The listener's webhook is
temporary: it is not journalled (undoing it would make a webhook pointing at a port nobody
listens on any more).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from console.cli_support import Refused
from console.models.webhooks import MAX_WEBHOOKS

if TYPE_CHECKING:
    from console.client import AdminClient

log = logging.getLogger(__name__)

REMOVE_TIMEOUT = 5.0
"""Seconds the removal of the webhook may take when listen ends."""


class WebhookRoutes(Protocol):
    async def event_types(self) -> list[str]: ...

    async def webhooks(self) -> list[dict[str, Any]]: ...

    async def create(self, body: dict[str, Any]) -> dict[str, Any]: ...

    async def delete(self, webhook_id: str) -> None: ...


class ServiceRoutes:
    """WebhookRoutes over the console's client (console.client.AdminClient)."""

    def __init__(self, client: AdminClient) -> None:
        self.client = client

    async def event_types(self) -> list[str]:
        answer = await self.client.send_json("GET", "/webhooks/event-types")
        if not isinstance(answer, list):
            raise Refused("The service's list of event types is not a list.")
        return [kind for kind in answer if isinstance(kind, str)]

    async def webhooks(self) -> list[dict[str, Any]]:
        answer = await self.client.send_json("GET", "/webhooks")
        data = answer.get("data") if isinstance(answer, dict) else answer
        if not isinstance(data, list):
            raise Refused("The service's list of webhooks is not a list.")
        return [item for item in data if isinstance(item, dict)]

    async def create(self, body: dict[str, Any]) -> dict[str, Any]:
        answer = await self.client.send_json("POST", "/webhooks", body=body)
        if not isinstance(answer, dict) or not isinstance(answer.get("id"), str):
            raise Refused("The service created the webhook but answered no id for it.")
        return answer

    async def delete(self, webhook_id: str) -> None:
        from console.client.paths import segment

        await self.client.send_json("DELETE", f"/webhooks/{segment(webhook_id)}")


@dataclass(frozen=True)
class Registered:
    """The listener's webhook as the service made it."""

    id: str
    url: str
    events: tuple[str, ...]


def webhook_name(where: str) -> str:
    """`tenant-console listen (127.0.0.1:8765)`: says in the console whose webhook it is."""
    return f"tenant-console listen ({where})"


async def register(
    routes: WebhookRoutes, *, url: str, where: str, events: list[str] | None
) -> Registered:
    """Creates the listener's webhook for `events` (None: every type the service sends).
    Refused (exit 1) when the tenant has MAX_WEBHOOKS already, or a type is not sent by
    this service. The POST is sent once, never again on a failure."""
    from console.models.webhooks import WebhookCreate

    offered = await routes.event_types()
    if events is None:
        chosen = list(offered)
    else:
        missing = [kind for kind in events if kind not in offered]
        if missing:
            raise Refused(
                f"This service does not send {', '.join(missing)} "
                "(see `tenant-console webhooks event-types`)."
            )
        chosen = list(events)
    if not chosen:
        raise Refused("This service names no event types to listen for.")
    existing = await routes.webhooks()
    if len(existing) >= MAX_WEBHOOKS:
        raise Refused(
            f"The tenant already has {len(existing)} webhooks, the most it may have "
            f"({MAX_WEBHOOKS}): delete one (tenant-console webhooks delete ID), or point one at "
            "this listener yourself and run listen with --no-register."
        )
    body = WebhookCreate.model_validate(
        {"name": webhook_name(where), "url": url, "events": chosen}
    ).model_dump(mode="json", exclude_none=True)
    made = await routes.create(body)
    return Registered(str(made["id"]), url, tuple(chosen))


async def unregister(
    routes: WebhookRoutes, webhook_id: str, *, timeout: float = REMOVE_TIMEOUT
) -> str | None:
    """Deletes the listener's webhook within `timeout`; None when done, else why not (one
    sentence: the caller says it and how to delete it by hand)."""
    from console.client import ApiError

    try:
        await asyncio.wait_for(routes.delete(webhook_id), timeout)
    except TimeoutError:
        return f"the service did not answer within {timeout:.0f} s"
    except ApiError as error:
        if getattr(error, "status", None) == 404:  # gone already (deleted in the console)
            return None
        log.info("Removing the listener's webhook failed", exc_info=True)
        return str(error).rstrip(".")
    return None
