"""The console's app, typed as the role a caller uses of it, for the screens, widgets, flows
and palette providers that call its methods.

The app module imports the screens, so they do not import it, not even for the type checker:
these accessors type the app as one of the shell's roles (console.tui.base.shell: the
session, the router, notices, ...), instead of `Any` and `type: ignore` at every call. A
module asks for the roles it uses, so a test's stand-in for the app implements only those.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from console.tui.base.shell import (
        Chrome,
        Connecting,
        ConsoleShell,
        FlowHost,
        KeyPrompts,
        Notices,
        Router,
        SessionHost,
        Usage,
        Work,
    )


class OfAnApp(Protocol):
    """A screen, a widget or a palette provider: anything that knows its app.

    `app` is `Any` here, not `App[Any]`: screens and widgets get it from a descriptor
    (`textual.getters.app`), which pyright, by design, does not match to a protocol's
    property of any other type (microsoft/pyright#3287); the accessors cast it to the role
    anyway."""

    @property
    def app(self) -> Any: ...


def console_app(node: OfAnApp) -> ConsoleShell:
    """`node.app`, as the whole shell (every role). A module asks for the roles it uses with
    the accessors below instead; this stays for the resource list until its split narrows it."""
    return cast("ConsoleShell", node.app)


def session_host(node: OfAnApp) -> SessionHost:
    """`node.app`, as the holder of the session, its connection and client."""
    return cast("SessionHost", node.app)


def connecting(node: OfAnApp) -> Connecting:
    """`node.app`, as what connects to a profile or the demo's service."""
    return cast("Connecting", node.app)


def key_prompts(node: OfAnApp) -> KeyPrompts:
    """`node.app`, as what asks for a new key and checks it."""
    return cast("KeyPrompts", node.app)


def chrome(node: OfAnApp) -> Chrome:
    """`node.app`, as the clock, the styles read after start, the clipboard."""
    return cast("Chrome", node.app)


def usage_host(node: OfAnApp) -> Usage:
    """`node.app`, as what keeps the usage (the header's line, the usage history)."""
    return cast("Usage", node.app)


def notices(node: OfAnApp) -> Notices:
    """`node.app`, as what tells the user (a notification, a problem)."""
    return cast("Notices", node.app)


def router(node: OfAnApp) -> Router:
    """`node.app`, as the router: it opens screens and dialogs."""
    return cast("Router", node.app)


def workers(node: OfAnApp) -> Work:
    """`node.app`, as what runs workers."""
    return cast("Work", node.app)


def flow_host(node: OfAnApp) -> FlowHost:
    """`node.app`, as what the actions' flows use (session, notices, router, workers)."""
    return cast("FlowHost", node.app)
