"""The palette's "History": the change journal's screen (console.tui.screens.history).
Imported when the palette first opens, like the console's other providers."""

from __future__ import annotations

from collections.abc import Iterator

from console.tui.base.app_access import router
from console.tui.palette.command_list import Command, CommandListProvider


class HistoryCommands(CommandListProvider):
    def commands(self) -> Iterator[Command]:
        app = router(self)
        yield (
            "History",
            app.open_history,
            "Changes made through the console, apply, push and promotion; u undoes one (H)",
        )
