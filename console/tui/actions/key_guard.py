"""The applications the console lives on: the one whose key this session sends, and the last
one that can manage applications. Deleting or regenerating either needs its name typed
(console.tui.actions.flows); this module says whether an application is one, and what is lost.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

from console.clock import now
from console.kinds import field_of

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.tui.base.shown import Shown

log = logging.getLogger(__name__)

MANAGING = frozenset({"application:create", "application:update"})
"""An application holding either can make or mend the others' keys and permissions."""

APPLICATION_PAGES = 20
"""Pages of 100 applications read to find another that can manage applications."""

Action = Literal["delete", "regenerate"]


@dataclass(frozen=True)
class KeyStakes:
    """What an application's key is to this console."""

    own_key: bool = False
    """The session sends this application's key."""
    last_manager: bool = False
    """No other (unexpired) application holds application:create or application:update;
    also when that could not be checked (see `unchecked`)."""
    unchecked: str = ""
    """Why the other applications could not be checked, if they could not."""

    @property
    def guarded(self) -> bool:
        """Whether deleting or regenerating it needs its name typed."""
        return self.own_key or self.last_manager

    def losses(self, action: Action) -> str:
        """What is lost, in a sentence or three, for the confirmation."""
        said: list[str] = []
        if self.own_key and action == "delete":
            said.append("It is the key this console uses: the console loses its access at once.")
        elif self.own_key:
            said.append(
                "It is the key this console uses: the console switches to the new key; "
                "anything else using the old one gets 401."
            )
        if self.last_manager and self.unchecked:
            said.append(
                "It can manage applications; whether another can was not checked "
                f"({self.unchecked.rstrip('.')})."
            )
        elif self.last_manager and action == "delete":
            said.append(
                "It is the last application that can manage applications: no key is left "
                "that can create applications or change their keys."
            )
        elif self.last_manager:
            said.append(
                "It is the last application that can manage applications: if the new key "
                "is lost, no key is left that can create applications or change their keys."
            )
        return " ".join(said)


def held_permissions(application: Shown) -> set[str]:
    """Its permissions, directly or through a rule, of a model or an object as sent."""
    from console.models import Application

    if isinstance(application, Application):
        return application.held_permissions
    if not isinstance(application, dict):
        return set()
    permissions = {str(p) for p in application.get("permissions") or []}
    for rule in application.get("rules") or []:
        if isinstance(rule, dict):
            permissions.update(str(p) for p in rule.get("permissions") or [])
    return permissions


def _expired(application: dict[str, object], moment: datetime) -> bool:
    """Whether an application as sent has expired (its key works no more); a date that
    cannot be read counts as not expired (it may still manage)."""
    value = application.get("expires_at")
    if not isinstance(value, str) or not value:
        return False
    try:
        expires = datetime.fromisoformat(value)
    except ValueError:
        log.info("An application's expires_at could not be read: %r", value)
        return False
    if expires.tzinfo is None:
        expires = expires.replace(tzinfo=UTC)
    return expires <= moment


async def another_manager(client: AdminClient, application_id: str) -> bool | None:
    """Whether another unexpired application can manage applications; None when not every
    application was read (more than APPLICATION_PAGES pages) and none found among them."""
    moment = now()
    for page in range(1, APPLICATION_PAGES + 1):
        data = await client.applications.page_json(page=page, size=100)
        rows = data.get("data") or []
        for row in rows:
            if not isinstance(row, dict) or str(row.get("id") or "") == application_id:
                continue
            if held_permissions(row) & MANAGING and not _expired(row, moment):
                return True
        pagination = data.get("pagination") or {}
        total = pagination.get("total_items")
        if not rows or (isinstance(total, int) and page * 100 >= total):
            return False
    return None


async def key_stakes(client: AdminClient, application: Shown, *, own_key: bool) -> KeyStakes:
    """What the application's key is to this console. An application that cannot manage
    applications is never the last that can; one that can is, unless another is found."""
    if not held_permissions(application) & MANAGING:
        return KeyStakes(own_key=own_key)
    value = field_of(application, "id")
    try:
        other = await another_manager(client, str(value or ""))
    except Exception as error:  # e.g. a key without application:read: ask as if it were
        log.warning("Could not check which applications can manage applications", exc_info=True)
        return KeyStakes(own_key=own_key, last_manager=True, unchecked=str(error))
    if other is None:
        pages = f"the first {APPLICATION_PAGES * 100} applications hold no other"
        return KeyStakes(own_key=own_key, last_manager=True, unchecked=pages)
    return KeyStakes(own_key=own_key, last_manager=not other)
