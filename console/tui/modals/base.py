"""The look every dialog shares: a centred, bordered frame over a dimmed screen."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

ResultT = TypeVar("ResultT")


class Dialog(ModalScreen[ResultT]):
    """A modal dialog; subclasses compose a `#dialog` container with title, body and buttons."""
