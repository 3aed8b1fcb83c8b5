"""Grants beyond the console's own: what a new or regenerated key could do that the key this
console uses cannot.

The service lets an application holding `application:create` or `application:update` grant
any permission, its own or not (the specification does not forbid it). The console says so
before it happens: the regenerate confirmation and the save of an application form carry
a note naming the management permissions the other key would hold and the session's lacks.
Token permissions are not compared: a management key never holds them.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.client.client import AdminClient

log = logging.getLogger(__name__)


async def own_permissions(client: AdminClient) -> frozenset[str] | None:
    """The permissions of the application whose key the session uses, read now (they may
    have changed since the console opened); None when the key may not read it."""
    try:
        own = await client.applications.current()
    except Exception:  # without application:read the console cannot compare: no note
        log.info("Could not read the session's own application to compare grants.", exc_info=True)
        return None
    return frozenset(own.permissions)


def beyond(own: Iterable[str], granted: Iterable[str], already: Iterable[str] = ()) -> list[str]:
    """The management permissions in `granted` that are neither in `own` nor `already` held
    by the application before this change, in catalogue order."""
    from console.models import MANAGEMENT_PERMISSIONS

    extra = set(granted) - set(own) - set(already)
    return [p for p in MANAGEMENT_PERMISSIONS if p in extra]


def describe(permissions: list[str]) -> str:
    """A few: `proxy:delete (delete proxies), ...`; many, grouped so that the note fits a
    dialog at 80x24: `tenant: read, update, delete; proxy: create, ...`."""
    from console.models import PERMISSIONS

    if len(permissions) <= 3:
        descriptions = {p.type: p.description for p in PERMISSIONS}
        return ", ".join(
            f"{p} ({descriptions[p][0].lower()}{descriptions[p][1:]})" if p in descriptions else p
            for p in permissions
        )
    groups: dict[str, list[str]] = {}
    for permission in permissions:
        resource, _, action = permission.rpartition(":")
        groups.setdefault(resource, []).append(action)
    return "; ".join(f"{resource}: {', '.join(actions)}" for resource, actions in groups.items())


async def grant_note(
    client: AdminClient, granted: Iterable[str], *, already: Iterable[str] = (), subject: str
) -> str | None:
    """A sentence naming what `subject` could do that this console's key cannot, or None."""
    own = await own_permissions(client)
    if own is None:
        return None
    extra = beyond(own, granted, already)
    if not extra:
        return None
    return f"{subject} could do what this console's key cannot: {describe(extra)}."


__all__ = ["beyond", "describe", "grant_note", "own_permissions"]
