"""Palette commands for the list on screen: load it to its real end, sort it by a column
(ascending or descending), or both: every row loaded, then sorted."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from console.tui.palette.command_list import Command, CommandListProvider


class ListCommands(CommandListProvider):
    """What `G` twice and `s`/`S` do, named, for those who look in the palette first; and
    "Load all ... and sort by ...", so a sort covers every row and not the loaded ones."""

    def commands(self) -> Iterator[Command]:
        # The palette opens over any screen; only the console's has a list (`current_list`).
        current = getattr(self.screen, "current_list", None)
        if current is None or not current.loaded:
            return
        title = current.kind.title
        if current.has_more:
            yield (
                f"Load the rest of {title}",
                current.load_to_end,
                f"{len(current.items)} of {current.total} loaded; page by page, escape stops",
            )
        for index, column in enumerate(current.kind.columns):
            for descending in (False, True):
                arrow = "↓" if descending else "↑"
                yield (
                    f"Sort {title} by {column.label} {arrow}",
                    partial(current.sort_by, index, descending),
                    "The loaded rows" if current.has_more else "Every row",
                )
        if current.has_more:
            for index, column in enumerate(current.kind.columns):
                for descending in (False, True):
                    arrow = "↓" if descending else "↑"
                    yield (
                        f"Load all {title} and sort by {column.label} {arrow}",
                        partial(current.load_all_sorted, index, descending),
                        f"Every page ({current.total or 'all'} rows), then the sort; esc stops",
                    )
