"""The stylesheet's second part (later.tcss): what the console does not show at start, read
into the stylesheet once, when the first screen that needs it opens or a moment after mount
(issue 15: as part of console.tcss it cost about 10 ms of CPU before the first rows)."""

from __future__ import annotations

import os
from typing import Any

from textual.app import App
from textual.screen import Screen

from console.tui.screens.console import ConsoleScreen

LATER_CSS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "later.tcss")
"""Part 2 of the stylesheet: the Tenant and Usage sections, every screen but the console's."""


def load_later_styles(app: App[Any]) -> None:
    """Reads later.tcss into `app`'s stylesheet, once."""
    if app.stylesheet.has_source(LATER_CSS):
        return
    app.stylesheet.read(LATER_CSS)
    app.stylesheet.update(app)


def needs_later_styles(screen: Screen[object]) -> bool:
    """Whether `screen` is styled by later.tcss: any screen but Textual's default one and the
    console's, which console.tcss lays out."""
    return type(screen) is not Screen and not isinstance(screen, ConsoleScreen)
