"""The look every dialog shares: a centred, bordered frame over a dimmed screen."""

from __future__ import annotations

from typing import TypeVar

from textual.binding import Binding
from textual.screen import ModalScreen

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal dialog; subclasses compose a `#dialog` container with title, body and buttons."""

    DEFAULT_CSS = """
    Dialog {
        align: center middle;
        background: $background 60%;
    }
    Dialog > #dialog {
        width: 76;
        max-width: 95%;
        height: auto;
        max-height: 90%;
        border: thick $primary 80%;
        background: $surface;
        padding: 1 2;
    }
    Dialog.-danger > #dialog {
        border: thick $error 80%;
    }
    Dialog .dialog-title {
        text-style: bold;
        width: 100%;
        margin-bottom: 1;
    }
    Dialog .dialog-body {
        width: 100%;
        margin-bottom: 1;
    }
    Dialog .dialog-warning {
        width: 100%;
        color: $warning;
        margin-bottom: 1;
    }
    Dialog .dialog-buttons {
        width: 100%;
        height: auto;
        align-horizontal: right;
    }
    Dialog .dialog-buttons Button {
        margin-left: 1;
    }
    """

    BINDINGS = [
        Binding("left", "app.focus_previous", "Previous", show=False),
        Binding("right", "app.focus_next", "Next", show=False),
    ]
    """Arrows move between the buttons, as in most dialogs (Tab does too)."""
