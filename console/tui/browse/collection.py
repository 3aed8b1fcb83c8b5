"""The client's collection of a kind, as the looks call it (get, delete, a page as sent).

A stand-in until `AdminClient.collection(kind)` (issue 34, the client's part) is on main:
then `collection` becomes `client.collection(kind)` and the choice below goes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from console import kinds

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.tui.base.shown import JsonObject, Model


class Collection(Protocol):
    """What the looks call on a kind's collection: the paged ones (applications, proxies,
    reactor formulas) have these. The permissions and the tenant are read otherwise: their
    looks say how."""

    async def get(self, id: UUID | str, /) -> Model: ...

    async def delete(self, id: UUID | str, /) -> None: ...

    async def page_json(self, *, page: int, size: int, **filters: object) -> JsonObject: ...


def collection(client: AdminClient, kind: kinds.Kind) -> Collection:
    """`kind`'s collection in `client`; LookupError for a kind the client has none of."""
    # Each group takes its own filters (ids=, name=): the looks' server queries match them.
    groups: dict[kinds.Kind, Any] = {
        kinds.APPLICATIONS: client.applications,
        kinds.PROXIES: client.proxies,
        kinds.REACTOR_FORMULAS: client.reactor_formulas,
    }
    found: Collection | None = groups.get(kind)
    if found is None:
        raise LookupError(f"The client has no collection of {kind.nouns.plural}.")
    return found
