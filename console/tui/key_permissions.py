"""What this session may do: the key's permissions (asked once per connection, kept per
client), read-only mode, and what the service was found not to offer. The flows and the
footer's keys ask here before offering or starting a change.
"""

from __future__ import annotations

import logging
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models import Application
    from console.tui.resources import Kind
    from console.tui.shell import ConsoleShell

log = logging.getLogger(__name__)

_session_applications: weakref.WeakKeyDictionary[AdminClient, str | None] = (
    weakref.WeakKeyDictionary()
)
"""Per client (so per connection): the id of the application whose key it sends."""
_key_permissions: weakref.WeakKeyDictionary[AdminClient, frozenset[str] | None] = (
    weakref.WeakKeyDictionary()
)
"""Per client (so per connection): the permissions of the key it sends, None if unknown."""
_asking: weakref.WeakSet[AdminClient] = weakref.WeakSet()
"""Clients whose key's permissions are being asked for now."""


REGENERATE = "regenerate"
"""The feature name `mark_unavailable` records for a service without key regeneration."""


def not_offered(app: ConsoleShell) -> set[str]:
    """What the service in use was found not to offer (ConsoleShell.unavailable)."""
    return app.unavailable


def in_read_only_mode(app: ConsoleShell) -> bool:
    """Whether the console runs with --read-only (not whether an object is read-only: see
    Kind.is_read_only)."""
    return app.read_only


def refuse_if_read_only(app: ConsoleShell, what: str) -> bool:
    """True (and says so) when the console runs read-only and `what` must not happen."""
    if in_read_only_mode(app):
        app.notify(f"Read-only mode: {what} is refused.", title="Read-only", severity="warning")
        return True
    return False


async def session_application_id(app: ConsoleShell, client: AdminClient) -> str | None:
    """The id of the application whose key the session uses (GET /applications/key, once)."""
    if client not in _session_applications:
        await key_application(client)
    return _session_applications.get(client)


async def key_application(client: AdminClient) -> Application | None:
    """GET /applications/key, once per client (one client per connection): the session's
    application id and its permissions are kept; None when the service will not say."""
    try:
        application = await client.applications.current()
    except Exception:  # without application:read the console cannot tell; no harm
        log.info("GET /applications/key failed; the key's permissions stay unknown", exc_info=True)
        _session_applications[client] = None
        _key_permissions[client] = None
        return None
    _session_applications[client] = str(application.id)
    _key_permissions[client] = frozenset(application.permissions)
    return application


def needed_permission(kind: Kind | None, action: str) -> str | None:
    """The permission `n`, `e`, `d` or `R` on this kind of object needs (`proxy:create`)."""
    return kind.change_permission(action) if kind is not None else None


def known_permissions(app: ConsoleShell) -> frozenset[str] | None:
    """The key's permissions if known already, else None; asks the service once per
    connection, in the background, and refreshes every screen's keys when it answers.

    Never makes the client itself: before the first rows its modules are not loaded, and
    the footer is drawn long before that (see console.tui.early_start)."""
    client = _loaded_client(app)
    if client is None:
        return None
    if client in _key_permissions:
        return _key_permissions[client]
    if client not in _asking:
        _asking.add(client)
        app.run_worker(_ask_permissions(app, client), group="key-permissions", exit_on_error=False)
    return None


def _loaded_client(app: ConsoleShell) -> AdminClient | None:
    """The app's client if it has been made already, never making it: the console makes
    its client once the first rows are on screen (TenantConsoleApp.client is a property
    that would make it now; a plain `client` attribute, as in tests' hosts, is read)."""
    attributes = vars(app)
    client = attributes.get("_client") or attributes.get("client")
    return client if hasattr(client, "applications") else None


async def _ask_permissions(app: ConsoleShell, client: AdminClient) -> None:
    try:
        await key_application(client)
    finally:
        _asking.discard(client)
    for screen in app.screen_stack:
        screen.refresh_bindings()


async def lacking_permission(app: ConsoleShell, kind: Kind, action: str) -> str | None:
    """The permission the key lacks for this action (asking the service if not yet known),
    or None when it has it or the console cannot tell (the service then decides)."""
    needed = needed_permission(kind, action)
    if needed is None or in_read_only_mode(app):
        return None
    client = app.connected_client()
    if client is None:
        return None
    if client not in _key_permissions:
        await key_application(client)
    permissions = _key_permissions.get(client)
    return needed if permissions is not None and needed not in permissions else None


def lacking_now(app: ConsoleShell, kind: Kind | None, action: str) -> str | None:
    """As `lacking_permission`, from what is known now (for the footer's keys)."""
    needed = needed_permission(kind, action)
    if needed is None or in_read_only_mode(app):
        return None
    permissions = known_permissions(app)
    return needed if permissions is not None and needed not in permissions else None


def say_lacking(app: ConsoleShell, permission: str, what: str) -> None:
    app.notify(
        f"{what.capitalize()} needs {permission}, which this key lacks. Use a key that has it "
        "(another profile: p).",
        title=f"Needs {permission}",
        severity="warning",
    )


_ACTION_WORDS = {
    "new": "creating",
    "edit": "editing",
    "delete": "deleting",
    "regenerate": "regenerating the key of",
}


def doing(kind: Kind, action: str) -> str:
    """ "deleting a proxy", "editing the tenant": the action in a sentence."""
    return f"{_ACTION_WORDS[action]} {kind.action_object}"
