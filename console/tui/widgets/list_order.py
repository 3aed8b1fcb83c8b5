"""The order a list's rows show in: as the server sent them, or sorted by one of its columns
(`s`, `S`, the palette's "Sort ... by ..."), as a person reads the cells. A part of ResourceList
(console.tui.widgets.resource_list), which shows the rows in this order.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rich.text import Text

from console.tui.widgets.row_table import Cell

if TYPE_CHECKING:
    from console.tui.base.shown import JsonObject
    from console.tui.browse.kinds import ResourceKind

Row = tuple[Cell, ...]
"""One row's cells, as the kind draws them."""
Pair = tuple["JsonObject", Row]
"""An object as sent and its row's cells."""

LOADED_ROWS_ONLY = "sorted: loaded rows only"
"""The footer's words for a sort of a partly loaded list; the sort's note says them too."""


def sort_key(cell: Cell) -> tuple[int | str, ...]:
    """A cell's text as it sorts for a person: case-insensitive, numbers by value
    ("9 rules" before "10 rules"); dates as shown (YYYY-MM-DD HH:MM) sort by time."""
    text = cell.plain if isinstance(cell, Text) else str(cell)
    parts = re.split(r"(\d+)", text.casefold())
    return tuple(int(part) if n % 2 else part for n, part in enumerate(parts))


class RowOrder:
    """The sort in force over a list's rows: a column and a direction, or the server's order.

    Every view of the rows (the loaded ones, a search's matches, enter's first answer) sorts
    through it, so they all show in the order the header and the footer say."""

    def __init__(self, kind: ResourceKind) -> None:
        self.kind = kind
        self.sort: tuple[int, bool] | None = None
        """(column index, descending) while the rows are sorted; None: server order."""

    def next_column(self) -> None:
        """`s`: by the next column (server order after the last)."""
        if self.sort is None:
            self.sort = (0, False)
        elif self.sort[0] + 1 < len(self.kind.columns):
            self.sort = (self.sort[0] + 1, False)
        else:
            self.sort = None

    def reverse(self) -> None:
        """`S`: the other direction (descending by the first column if none was sorted)."""
        self.sort = (0, True) if self.sort is None else (self.sort[0], not self.sort[1])

    def sorted(self, pairs: list[Pair]) -> list[Pair]:
        """`pairs` in the sort's order (as they are in server order)."""
        if self.sort is None:
            return pairs
        column, descending = self.sort
        return sorted(pairs, key=lambda pair: sort_key(pair[1][column]), reverse=descending)

    def server_order(self, pairs: list[Pair], arrived: list[JsonObject]) -> list[Pair]:
        """`pairs` back in the order their objects arrived (creation order on the server)."""
        kind = self.kind
        order = {kind.item_id(item): n for n, item in enumerate(arrived)}
        return sorted(pairs, key=lambda pair: order.get(kind.item_id(pair[0]), 0))

    def description(self, *, matches: int | None, loaded: int, has_more: bool) -> str:
        """ "by Name ↑", and which rows when not all are loaded ("the 50 loaded rows", or
        `matches`, the number of a search's matches, when a search shows)."""
        if self.sort is None:
            return "server order"
        text = self._by(*self.sort)
        if matches is not None:
            text += f" (the {matches} matches found)"
        elif has_more:
            text += f" (the {loaded} loaded rows)"
        return text

    def note(self, *, matches: int | None, loaded: int, total: int | None, has_more: bool) -> str:
        """What a sort's notification says; while pages remain, in the footer's words:
        "Sorted by Name ↑ · sorted: loaded rows only (50 of 200; ctrl+g loads all)."."""
        if self.sort is None or matches is not None or not has_more:
            described = self.description(matches=matches, loaded=loaded, has_more=has_more)
            return f"Sorted {described}."
        of = f"{loaded} of {total}" if total else f"{loaded}"
        by = self._by(*self.sort)
        return f"Sorted {by} · {LOADED_ROWS_ONLY} ({of}; ctrl+g loads all, then sorts)."

    def _by(self, column: int, descending: bool) -> str:
        return f"by {self.kind.columns[column].label} {'↓' if descending else '↑'}"
