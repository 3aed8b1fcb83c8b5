"""The requests export and apply send for a travelling kind, made from its declaration (its
path, its name filter, its read model): no table of the client's resource groups.

Writes go through `AdminClient.send_json`, so they are retried, guarded and recorded in the
change journal as every write of the client; ids are checked as one path segment first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from console.kinds import Kind

if TYPE_CHECKING:
    from pydantic import BaseModel

    from console.client import AdminClient


async def page_json(
    client: AdminClient, kind: Kind, page: int, size: int, name: str | None = None
) -> dict[str, Any]:
    """One page of the kind's collection as sent; `name` only for a kind with a name filter
    (it matches names containing it). A kind that pages by cursor is read through its
    resource group (console.client.resources), which answers every object as page 1."""
    from console.client.envelope import checked_envelope, page_params

    if kind.cursor_pages:  # read by cursor, answered as one numbered page (webhooks)
        return await client.collection(kind).page_json(page=page, size=size, name=name)
    filters = [("name", name)] if name else []
    data = await client.send_json("GET", kind.path, params=page_params(page, size, filters))
    return checked_envelope(data, method="GET", path=kind.path)


async def create(client: AdminClient, kind: Kind, body: dict[str, Any]) -> BaseModel:
    """POST: never retried, so a failure never creates the object twice. The answer as the
    kind's model (a wrong shape is an ApiError)."""
    return await _answered(client, kind, "POST", kind.path, body)


async def update(client: AdminClient, kind: Kind, object_id: str, body: dict[str, Any]) -> None:
    await _answered(client, kind, "PUT", _item_path(kind, object_id), body)


async def delete(client: AdminClient, kind: Kind, object_id: str) -> None:
    await client.send_json("DELETE", _item_path(kind, object_id))


def _item_path(kind: Kind, object_id: str) -> str:
    from console.client.paths import segment

    return kind.item_path(segment(object_id))


async def _answered(
    client: AdminClient, kind: Kind, method: str, path: str, body: dict[str, Any]
) -> BaseModel:
    from console.client.resources import parse_response

    data = await client.send_json(method, path, body=body)
    return parse_response(kind.models.read, data, method=method, path=path)
