"""The console's SelectionList: `[x]` / `[ ]` boxes that differ without colour, j and k to
move, and `space` that never loses its first press. Every checklist of the console (the
filterable one in console.tui.widgets.filterable_checklist) is built on it."""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import BindingType
from textual.strip import Strip
from textual.widgets import SelectionList
from textual.widgets.option_list import OptionDoesNotExist

from console.tui.widgets.pick_list import LIST_MOVES


class CheckList(SelectionList[str]):
    """A SelectionList whose boxes read `[x]` and `[ ]`: ticked and unticked differ in
    shape, not only in colour (a colour-blind admin, a monochrome terminal, a screenshot).

    It redraws the three cells SelectionList.render_line puts before each prompt (its
    toggle button); the test `test_checked_boxes_differ_without_colour` guards that."""

    BINDINGS: ClassVar[list[BindingType]] = LIST_MOVES

    def _on_focus(self, event: events.Focus) -> None:
        """The cursor on the first row when none is highlighted (the options were rebuilt
        after a load or a filter): the row that looks current is the one `space` ticks."""
        super()._on_focus(event)
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    def action_select(self) -> None:
        """`space` ticks the highlighted row, the first one if none is highlighted yet:
        the first press is never lost to placing the cursor."""
        if self.highlighted is None and self.option_count:
            self.highlighted = 0
        super().action_select()

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        segments = list(line)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:  # past the last option: nothing to redraw
            return line
        if len(segments) < 4:
            return line
        text_style = segments[3].style or Style()
        meta = segments[1].style.meta if segments[1].style else {}
        box_style = text_style + Style.from_meta(meta)
        ticked = selection.value in self.selected
        boxes = [
            Segment("[", box_style),
            Segment("x" if ticked else " ", box_style + Style(bold=True)),
            Segment("]", box_style),
        ]
        return Strip([*boxes, *segments[3:]], line.cell_length)
