"""What a widget, a modal or a form needs of the app to open a dialog: the app opens every
screen (console.tui.app.TenantConsoleApp.ask and .show), nothing else pushes one.

Apart from console.tui.base.shell (whose Router role includes these members), so that the
widgets the shell's own types name (the code editor, through run_targets) and the modals can
reach the app without an import cycle: this module imports nothing of the console.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from textual.screen import Screen, ScreenResultCallbackType
    from textual.widget import AwaitMount

ScreenResultT = TypeVar("ScreenResultT")

__all__ = ["DialogHost", "dialog_host"]


class DialogHost(Protocol):
    """The app, as what opens dialogs (a modal, a form) above whatever is on screen."""

    def ask(self, dialog: Screen[ScreenResultT]) -> asyncio.Future[ScreenResultT]:
        """Opens `dialog` now; the future is what it dismisses with. Awaited in a worker
        (Textual's rule for waiting on a screen)."""
        ...

    def show(
        self,
        dialog: Screen[ScreenResultT],
        callback: ScreenResultCallbackType[ScreenResultT] | None = None,
    ) -> AwaitMount:
        """Opens `dialog`; `callback` gets what it dismisses with (for a handler that cannot
        wait: a key binding's action)."""
        ...


class _OfAnApp(Protocol):
    """Anything that knows its app; `app` is `Any` for the reason in
    console.tui.base.app_access.OfAnApp (pyright does not match Textual's `app` descriptor to a
    protocol's property)."""

    @property
    def app(self) -> Any: ...


def dialog_host(node: _OfAnApp) -> DialogHost:
    """`node.app`, as what opens dialogs (the console's app, or a test's stand-in)."""
    return cast("DialogHost", node.app)
