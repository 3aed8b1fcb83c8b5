"""The palette's "History": the change journal's screen (console.tui.screens.history).
Imported when the palette first opens, like the console's other providers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from textual.app import App

from console.tui.app_access import console_app
from console.tui.command_list import Command, CommandListProvider


def open_history(app: App[Any]) -> None:
    """History above whatever is on screen (escape comes back)."""
    from console.tui.screens.history import HistoryScreen

    app.push_screen(HistoryScreen())


class HistoryCommands(CommandListProvider):
    def commands(self) -> Iterator[Command]:
        app = console_app(self)
        yield (
            "History",
            lambda: open_history(app),
            "Changes made through the console, apply, push and promotion; u undoes one (H)",
        )
