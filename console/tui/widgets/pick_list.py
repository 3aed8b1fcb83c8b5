"""The pickers' list (profiles, target profile): an OptionList that also answers j and k,
as every list of the console does."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import OptionList

LIST_MOVES: list[BindingType] = [
    Binding("j", "cursor_down", "Down", show=False),
    Binding("k", "cursor_up", "Up", show=False),
]
"""j and k beside down and up, for a list widget that has cursor_down / cursor_up."""


class PickList(OptionList):
    """OptionList with j/k (its CSS still matches `OptionList`)."""

    BINDINGS: ClassVar[list[BindingType]] = LIST_MOVES
