"""The console's app, typed as its shell, for the screens and widgets that call its methods.

The app module imports the screens, so they do not import it, not even for the type checker:
this accessor types the app as console.tui.base.shell.ConsoleShell, the members they may use,
instead of `Any` and `type: ignore` at every call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from console.tui.base.shell import ConsoleShell


class OfAnApp(Protocol):
    """A screen, a widget or a palette provider: anything that knows its app.

    `app` is `Any` here, not `App[Any]`: screens and widgets get it from a descriptor
    (`textual.getters.app`), which pyright, by design, does not match to a protocol's
    property of any other type (microsoft/pyright#3287); `console_app` casts it to the
    shell anyway."""

    @property
    def app(self) -> Any: ...


def console_app(node: OfAnApp) -> ConsoleShell:
    """`node.app`, as the console's shell (the app; tests that host one screen pass a
    stand-in with the same members)."""
    return cast("ConsoleShell", node.app)
