"""Tokens by type as horizontal bars, for the usage dashboard."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from console.tui.widgets.usage_gauge import bar_text
from console.tui.widgets.usage_math import TokenTypeRow, format_count, format_share


class TokenBarChart(Widget):
    """Tokens by type as horizontal bars scaled to the largest count, readable at 80 columns."""

    COMPONENT_CLASSES = {"token-bar-chart--bar", "token-bar-chart--label", "token-bar-chart--count"}

    DEFAULT_CSS = """
    TokenBarChart {
        height: auto;
        & > .token-bar-chart--bar { color: $primary; }
        & > .token-bar-chart--label { color: $text; }
        & > .token-bar-chart--count { color: $text-muted; }
    }
    """

    LABEL_MAX = 16
    """Longest type label before it is shortened with "…" (LABEL_MAX_WIDE from 100 columns)."""
    LABEL_MAX_WIDE = 24

    def __init__(self, *, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self.rows: list[TokenTypeRow] = []

    def set_rows(self, rows: list[TokenTypeRow]) -> None:
        self.rows = rows
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(len(self.rows), 1)

    def render(self) -> Text:
        if not self.rows:
            return Text("")
        width = max(self.content_size.width, 20)
        bar_style = self.get_component_rich_style("token-bar-chart--bar")
        label_style = self.get_component_rich_style("token-bar-chart--label")
        count_style = self.get_component_rich_style("token-bar-chart--count")

        label_max = self.LABEL_MAX_WIDE if width >= 100 else self.LABEL_MAX
        label_width = min(max(len(row.name) for row in self.rows), label_max)
        counts = [format_count(row.count) for row in self.rows]
        shares = [format_share(row.share) for row in self.rows]
        count_width = max(len(c) for c in counts)
        share_width = max(len(s) for s in shares)
        bar_width = max(width - label_width - count_width - share_width - 4, 1)
        largest = max(row.count for row in self.rows) or 1

        lines = []
        for row, count, share in zip(self.rows, counts, shares, strict=True):
            label = row.name if len(row.name) <= label_width else row.name[: label_width - 1] + "…"
            line = Text(label.ljust(label_width), style=label_style)
            line.append(" ")
            line.append_text(bar_text(row.count / largest, bar_width, bar_style))
            line.append(" ")
            line.append(count.rjust(count_width), style=label_style)
            line.append("  ")
            line.append(share.rjust(share_width), style=count_style)
            lines.append(line)
        return Text("\n").join(lines)
