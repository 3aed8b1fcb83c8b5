"""The look every dialog shares: a centred, bordered frame over a dimmed screen."""

from __future__ import annotations

from typing import TypeVar

from textual import on
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Button

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal dialog; subclasses compose a `#dialog` container with title, body and buttons."""

    BINDINGS = [
        Binding("left", "app.focus_previous", "Previous", show=False),
        Binding("right", "app.focus_next", "Next", show=False),
    ]
    """Arrows move between the buttons, as in most dialogs (Tab does too)."""


class ChoiceDialog(Dialog[bool]):
    """A yes/no dialog: its `#confirm` button (or `y`) answers True through `confirm`, and
    `#cancel` (or escape, `n`) answers False. Written once for every such question."""

    def confirm(self) -> None:
        """The confirming choice; a dialog that needs more than a press checks it here."""
        self.dismiss(True)

    def action_answer(self, answer: bool) -> None:
        if answer:
            self.confirm()
        else:
            self.dismiss(False)

    @on(Button.Pressed, "#confirm")
    def _confirm_pressed(self) -> None:
        self.confirm()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(False)
