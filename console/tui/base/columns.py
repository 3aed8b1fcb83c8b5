"""A list's columns and cells: the small types the resource kinds (console.tui.browse.kinds) and
the row filter (console.tui.browse.row_filter) share, here below both so that neither imports the
other."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from rich.text import Text

if TYPE_CHECKING:
    from console.tui.base.shown import JsonObject, Shown

Renderable = str | Text

Labels = dict[str, str]
"""Names of objects a row refers to by id (a proxy's application), looked up per page."""


@dataclass(frozen=True)
class Column:
    """A list column: its header and how a row's cell is drawn from the object as sent (a
    dict), with the labels known."""

    key: str
    label: str
    render: Callable[[JsonObject], Renderable] | Callable[[JsonObject, Labels], Renderable]
    width: int | None = None
    uses_labels: bool = False
    min_width: int | None = None
    """How far the column may shrink (ellipsis) on a narrow terminal; None: it stays whole."""
    drop_order: int | None = None
    """Columns with one are left out, lowest first, when the others do not fit."""
    grow: bool = False
    """It takes the width left over on a wide terminal (names, URLs)."""
    charset: str | None = None
    """Every character the cell's text can hold (dates, counts), when it is few: a filter
    with another character is not looked for there, so a search of 10,000 rows formats no
    dates for a name. None: any text."""

    def cell(self, item: JsonObject, labels: Labels) -> Renderable:
        """The cell; `?` where the object lacks what the column shows (or holds something
        else), so one odd object never stops its page from showing."""
        try:
            render: Callable[..., Renderable] = self.render
            value = render(item, labels) if self.uses_labels else render(item)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return UNREADABLE_CELL
        if value is None:
            return Text("—", style="dim")
        return value if isinstance(value, Text) else str(value)


UNREADABLE_CELL = Text("?", style="dim")


class RowKind(Protocol):
    """What the row filter reads of a kind (console.tui.browse.kinds.ResourceKind): its columns,
    an object's id and a row's cells."""

    @property
    def columns(self) -> Sequence[Column]: ...

    def item_id(self, item: Shown) -> str: ...

    def row_cells(self, item: Shown, labels: Labels) -> Sequence[Renderable]: ...
