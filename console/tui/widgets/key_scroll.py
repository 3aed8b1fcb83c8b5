"""A vertical scroll that answers the keys people bring from less, vim and k9s."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll

SCROLL_KEYS: tuple[tuple[str, str], ...] = (
    ("j / k, down / up", "Move (in a list) or scroll (detail, help, usage) one line"),
    ("ctrl+d / ctrl+u", "Half a page down / up"),
    ("pagedown / pageup", "A page down / up"),
    ("g / G, home / end", "First / last row, or top / bottom; G again on a list loads to the end"),
)
"""The movement keys, for the help screen (lists and scrolled views share them)."""


class KeyScroll(VerticalScroll):
    """VerticalScroll with j/k, g/G and ctrl+d/ctrl+u beside the arrows, Home/End, PageUp/Down."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j", "scroll_down", "Scroll down", show=False),
        Binding("k", "scroll_up", "Scroll up", show=False),
        Binding("g", "scroll_home", "Top", show=False),
        Binding("G", "scroll_end", "Bottom", show=False),
        Binding("ctrl+d", "half_page_down", "Half page down", show=False),
        Binding("ctrl+u", "half_page_up", "Half page up", show=False),
    ]

    def _half_page(self) -> int:
        return max(1, self.scrollable_content_region.height // 2)

    def action_half_page_down(self) -> None:
        self.scroll_relative(y=self._half_page(), animate=False)

    def action_half_page_up(self) -> None:
        self.scroll_relative(y=-self._half_page(), animate=False)

    def action_scroll_home(self) -> None:
        self.scroll_home(animate=False)

    def action_scroll_end(self) -> None:
        self.scroll_end(animate=False)
