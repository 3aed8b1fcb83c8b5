"""A unified line diff shown in a dialog: removed lines red, added lines green, hunks marked.

The lines come from console.code_diff.line_diff; this only colours them. Colours follow
the app's theme, and the +/- signs stay, so the diff reads without colour too.
"""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static


class LineDiff(Static):
    """Diff lines as one block of text (the dialog around it scrolls)."""

    DEFAULT_CSS = """
    LineDiff {
        width: 100%;
        height: auto;
        padding: 0 1;
        background: $background 40%;
    }
    """

    def __init__(self, lines: list[str], *, id: str | None = None, classes: str | None = None):
        super().__init__(id=id, classes=classes, markup=False)
        self.lines = lines

    def on_mount(self) -> None:
        self.update(self.styled())

    def styled(self) -> Text:
        theme = self.app.current_theme
        removed = theme.error or "red"
        added = theme.success or "green"
        hunk = theme.accent or "cyan"
        text = Text(no_wrap=False, overflow="fold")
        for index, line in enumerate(self.lines):
            if index:
                text.append("\n")
            if index < 2 and line.startswith(("---", "+++")):  # the heads, not a "--x" line
                text.append(line, style="bold")
            elif line.startswith("@@"):
                text.append(line, style=hunk)
            elif line.startswith("-"):
                text.append(line, style=removed)
            elif line.startswith("+"):
                text.append(line, style=added)
            else:
                text.append(line)
        return text


def fit_scroll(dialog: Widget, scroll: Widget, screen_height: int) -> None:
    """Caps `scroll` (the part of a dialog holding a diff) to the rows the dialog has left
    once its title, text and buttons are laid out, so the buttons stay on screen at 80x24
    and the diff scrolls; a short diff keeps its own height."""
    fixed = dialog.styles.gutter.height
    for child in dialog.children:
        if not child.display:
            continue
        margin = child.styles.margin.top + child.styles.margin.bottom
        fixed += margin + (0 if child is scroll else child.outer_size.height)
    available = screen_height * 9 // 10  # a dialog's max-height (later.tcss)
    scroll.styles.max_height = max(3, available - fixed)
