"""The look every dialog shares: a centred, bordered frame over a dimmed screen."""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal dialog; subclasses compose a `#dialog` container with title, body and buttons."""

    BINDINGS = [
        Binding("left", "app.focus_previous", "Previous", show=False),
        Binding("right", "app.focus_next", "Next", show=False),
    ]
    """Arrows move between the buttons, as in most dialogs (Tab does too)."""
