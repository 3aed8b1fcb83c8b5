"""A switch and a checkbox that say their state in text, not in colour alone: `[x]`/`[ ]`
and on/off read the same on a monochrome terminal, to a colour-blind admin, in a screenshot."""

from __future__ import annotations

from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import RenderResult
from textual.content import Content
from textual.geometry import Size
from textual.style import Style
from textual.widgets import Checkbox, Switch


class TextSwitch(Switch):
    """A Switch drawn as "● on" or "○ off" (its colours as Switch's slider's)."""

    def render(self) -> RenderResult:
        style = self.get_component_rich_style("switch--slider")
        if self.value:
            return Text("● on ", style=RichStyle(color=style.color, bold=True))
        return Text("○ off", style="dim")

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return 5


class TextCheckbox(Checkbox):
    """A Checkbox whose box reads `[x]` when ticked and `[ ]` when not."""

    @property
    def _button(self) -> Content:
        """`[x]` / `[ ]` in the label's colours; only the `x` takes the button's (success)."""
        ticked = self.get_visual_style("toggle--button")
        return Content.assemble(
            "[", ("x" if self.value else " ", Style(foreground=ticked.foreground, bold=True)), "]"
        )
