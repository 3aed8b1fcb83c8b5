"""What this session may do: the key's permissions (asked once per connection, kept in its
session: console.tui.base.session), read-only mode, and what the service was found not to offer.
The flows and the footer's keys ask here before offering or starting a change.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from console.tui.base.session import Session

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models import Application
    from console.tui.base.shell import FlowHost, SessionHost
    from console.tui.browse.looks import Look

log = logging.getLogger(__name__)


REGENERATE = "regenerate"
"""The feature name `mark_unavailable` records for a service without key regeneration."""


def not_offered(app: SessionHost) -> set[str]:
    """What the service in use was found not to offer (SessionHost.unavailable)."""
    return app.unavailable


def in_read_only_mode(app: SessionHost) -> bool:
    """Whether the console runs with --read-only (not whether an object is read-only: see
    Look.is_read_only)."""
    return app.read_only


def refuse_if_read_only(app: FlowHost, what: str) -> bool:
    """True (and says so) when the console runs read-only and `what` must not happen."""
    if in_read_only_mode(app):
        app.notify(f"Read-only mode: {what} is refused.", title="Read-only", severity="warning")
        return True
    return False


def _session_of(app: SessionHost, client: AdminClient) -> Session:
    """The session `client` belongs to: the app's current one, or (a flow still running for
    a connection since replaced) a detached one, so that what its key may do is asked again
    and never kept for the current connection."""
    session = app.session
    return session if session.client is client else Session(read_only=session.read_only)


async def _learn_key(session: Session, client: AdminClient) -> None:
    """GET /applications/key for `session`, kept in it (Nones when the service will not say)."""
    application = await key_application(client)
    if application is None:
        session.know_key(None, None)
    else:
        session.know_key(str(application.id), frozenset(application.permissions))


async def session_application_id(app: FlowHost, client: AdminClient) -> str | None:
    """The id of the application whose key the session uses (GET /applications/key, once)."""
    session = _session_of(app, client)
    if not session.key_known:
        await _learn_key(session, client)
    return session.key_application_id


async def key_application(client: AdminClient) -> Application | None:
    """GET /applications/key: the application whose key `client` sends, with its
    permissions; None when the service will not say. The callers keep what it says in the
    session (once per connection)."""
    try:
        return await client.applications.current()
    except Exception:  # without application:read the console cannot tell; no harm
        log.info("GET /applications/key failed; the key's permissions stay unknown", exc_info=True)
        return None


EQUIVALENT: dict[str, frozenset[str]] = {"reactor:invoke": frozenset({"token:use"})}
"""Permissions the service accepts in place of another: React with `token:use`, as the
hosted service still does (docs/reactors.md)."""


def holds(permissions: frozenset[str], needed: str) -> bool:
    """Whether a key with `permissions` may do what `needed` allows."""
    return needed in permissions or bool(permissions & EQUIVALENT.get(needed, frozenset()))


def needed_permission(kind: Look | None, action: str) -> str | None:
    """The permission `n`, `e`, `d` or `R` on this kind of object needs (`proxy:create`)."""
    return kind.change_permission(action) if kind is not None else None


def known_permissions(app: FlowHost) -> frozenset[str] | None:
    """The key's permissions if known already, else None; asks the service once per
    connection, in the background, and refreshes every screen's keys when it answers.

    Never makes the client itself: before the first rows its modules are not loaded, and
    the footer is drawn long before that (see console.tui.browse.first_page)."""
    session = app.session
    client = session.client  # made already or not: never made here
    if client is None:
        return None
    if session.key_known:
        return session.key_permissions
    if not session.key_asking:
        session.key_asking = True
        app.run_worker(
            _ask_permissions(app, session, client), group="key-permissions", exit_on_error=False
        )
    return None


async def _ask_permissions(app: FlowHost, session: Session, client: AdminClient) -> None:
    try:
        await _learn_key(session, client)
    finally:
        session.key_asking = False
    for screen in app.screen_stack:
        screen.refresh_bindings()


async def lacking_permission(app: FlowHost, kind: Look, action: str) -> str | None:
    """The permission the key lacks for this action (asking the service if not yet known),
    or None when it has it or the console cannot tell (the service then decides)."""
    needed = needed_permission(kind, action)
    if needed is None or in_read_only_mode(app):
        return None
    client = app.connected_client()
    if client is None:
        return None
    session = _session_of(app, client)
    if not session.key_known:
        await _learn_key(session, client)
    permissions = session.key_permissions
    return needed if permissions is not None and not holds(permissions, needed) else None


async def unproven_permission(app: FlowHost, kind: Look, action: str) -> str | None:
    """In read-only mode, for an action that changes no object but runs something on the
    service (React): the permission it needs unless the key is known to hold it (asking the
    service if not yet known); None when it does. Read-only mode lets it run only then."""
    needed = needed_permission(kind, action)
    if needed is None:
        return None
    client = app.connected_client()
    if client is None:
        return needed
    session = _session_of(app, client)
    if not session.key_known:
        await _learn_key(session, client)
    permissions = session.key_permissions
    return None if permissions is not None and holds(permissions, needed) else needed


def lacking_now(app: FlowHost, kind: Look | None, action: str) -> str | None:
    """As `lacking_permission`, from what is known now (for the footer's keys)."""
    needed = needed_permission(kind, action)
    if needed is None or in_read_only_mode(app):
        return None
    permissions = known_permissions(app)
    return needed if permissions is not None and not holds(permissions, needed) else None


def say_lacking(app: FlowHost, permission: str, what: str) -> None:
    app.notify(
        f"{what.capitalize()} needs {permission}, which this key lacks. Use a key that has it "
        "(another profile: p).",
        title=f"Needs {permission}",
        severity="warning",
    )
