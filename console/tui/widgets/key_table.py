"""The console's DataTable: j and k move as in every list of the console, g and G go to the
first and last row (History, the overview of profiles, the usage table). A list widget that
does not answer them fails tests/tui/test_list_keys.py."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import DataTable

from console.tui.widgets.pick_list import LIST_MOVES


class KeyTable(DataTable[Any]):
    """DataTable with j/k and g/G beside the arrows and ctrl+home/end (its CSS still
    matches `DataTable`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_MOVES,
        Binding("g", "scroll_top", "First row", show=False),
        Binding("G", "scroll_bottom", "Last row", show=False),
    ]
