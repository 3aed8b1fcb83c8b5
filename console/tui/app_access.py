"""The console's app, typed, for the screens and widgets that call its methods.

The app module imports the screens, so they cannot import it at run time; this accessor gives
the type checker the real class (a TYPE_CHECKING import) without that cycle, instead of `Any`
and `type: ignore` at every call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.app import App

    from console.tui.app import TenantConsoleApp


class OfAnApp(Protocol):
    """A screen, a widget or a palette provider: anything that knows its app."""

    @property
    def app(self) -> App[Any]: ...


def console_app(node: OfAnApp) -> TenantConsoleApp:
    """`node.app`, as the console's app it is (tests that host one screen pass a stand-in
    with the same methods)."""
    return cast("TenantConsoleApp", node.app)
