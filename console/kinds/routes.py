"""A kind's routes beyond the standard ones, declared with it (`Kind.routes`).

The standard routes are a collection's list and create at its path, and read, update, patch
and delete at an object's (`/proxies/{id}`), as its features say; a singleton has read,
update and delete at its own path. A route special to one kind (an application's `/key`,
`regenerate` and `keys`, the tenant's usage report) is a `Route` in its declaration.
console.kinds.endpoints derives every route of every kind from both.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    """One route special to a kind, or the words of a standard one (same method and path)."""

    method: str
    path: str
    """Below the kind's path: `/key`, `/{id}/regenerate`, `/{id}/keys/{keyId}`; "" for the
    kind's path itself."""
    needs: str | None
    """The permission's verb on this kind (`update`: `application:update`), or a whole
    permission where it is another's (`report:read`); None: any valid key will do."""
    feature: str = ""
    """What a person calls it, for "This service does not offer ..." ("": the method and
    path)."""
    subject: str = ""
    """What a 404 on it is about, its placeholders filled from the path: `key {keyId} of
    application {id}` ("": the kind's object, as for its standard routes)."""
    action: str = ""
    """The change journal's word for a write to it (`regenerate`, `revoke key`)."""


@dataclass(frozen=True)
class Routes:
    """The routes of a kind beyond (or instead of) the standard ones."""

    special: tuple[Route, ...] = ()
    catalogue: bool = False
    """Its path answers the whole catalogue at once (no pages), and no object has a path of
    its own (the permissions)."""
    objects: bool = True
    """Whether each object has a path of its own (`/proxies/{id}`); False for a paged list
    whose entries have none (the audit logs). A catalogue has none either."""


STANDARD = Routes()
"""A kind with only the standard routes of its features."""

__all__ = ["STANDARD", "Route", "Routes"]
