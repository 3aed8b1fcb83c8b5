"""The usage gauge: monthly active tokens against the plan, with eighth-cell bars (the bar
drawing is shared with the token chart)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from console.tui.widgets.usage_math import GaugeState, format_count, gauge_state

EIGHTHS = " ▏▎▍▌▋▊▉"
"""Left-aligned block characters from 0/8 to 7/8 of a cell, for sub-cell bar lengths."""

FULL_BLOCK = "█"


def bar_cells(fraction: float, width: int) -> tuple[int, int]:
    """Full cells and eighths of a further cell for a bar `fraction` (0..1) of `width` long."""
    fraction = min(max(fraction, 0.0), 1.0)
    eighths = round(fraction * width * 8)
    return divmod(eighths, 8)


def bar_text(fraction: float, width: int, fill: Style, track: Style | None = None) -> Text:
    """A horizontal bar `width` cells wide, filled to `fraction` with eighth-cell precision.

    With a `track` style the unfilled part is drawn as a dim track (the gauge); without one it
    is blank (the bar chart).
    """
    full, partial = bar_cells(fraction, width)
    text = Text(FULL_BLOCK * full, style=fill)
    remaining = width - full
    if partial and remaining > 0:
        partial_style = fill + Style(bgcolor=track.color) if track and track.color else fill
        text.append(EIGHTHS[partial], style=partial_style)
        remaining -= 1
    if remaining > 0:
        text.append((FULL_BLOCK if track else " ") * remaining, style=track or Style())
    return text


class UsageGauge(Widget):
    """Monthly active tokens against the plan, coloured by threshold; copes with > 100%.

    Within plan the bar's full length is the plan. Over plan it is the use, with a marker
    where the plan ends, so "how far over" is visible as the length past the marker.
    """

    COMPONENT_CLASSES = {
        "usage-gauge--normal",
        "usage-gauge--warning",
        "usage-gauge--over",
        "usage-gauge--track",
        "usage-gauge--marker",
        "usage-gauge--scale",
    }

    DEFAULT_CSS = """
    UsageGauge {
        height: 3;
        & > .usage-gauge--normal { color: $success; }
        & > .usage-gauge--warning { color: $warning; }
        & > .usage-gauge--over { color: $error; }
        & > .usage-gauge--track { color: $foreground 12%; }
        & > .usage-gauge--marker { color: $foreground; text-style: bold; }
        & > .usage-gauge--scale { color: $text-muted; }
    }
    """

    used: reactive[int] = reactive(0)
    included: reactive[int] = reactive(0)

    def set_usage(self, used: int, included: int) -> None:
        self.used = used
        self.included = included

    @property
    def state(self) -> GaugeState:
        return gauge_state(self.used, self.included)

    def render(self) -> Text:
        width = max(self.content_size.width, 10)
        bar_lines = max(self.content_size.height - 1, 1)
        fill = self.get_component_rich_style(f"usage-gauge--{self.state}")
        track = self.get_component_rich_style("usage-gauge--track")
        marker = self.get_component_rich_style("usage-gauge--marker")
        scale_style = self.get_component_rich_style("usage-gauge--scale")

        used, included = self.used, self.included
        scale_max = max(used, included, 1)
        bar = bar_text(used / scale_max, width, fill, track)
        if used > included and included:
            # The plan's end, drawn over the bar: the filled length past it is the overage.
            plan_cell = min(width - 1, round(included / scale_max * width))
            bar = bar[:plan_cell] + Text("┃", style=fill + marker) + bar[plan_cell + 1 :]

        lines = [bar.copy() for _ in range(bar_lines)]
        lines.append(self._scale_line(width, scale_style))
        return Text("\n").join(lines)

    def _scale_line(self, width: int, style: Style) -> Text:
        """ "0 … plan 10,000" under the bar, and the use at the right end when over plan."""
        used, included = self.used, self.included
        scale = [" "] * width
        left = "0"
        scale[: len(left)] = left
        plan_label = f"plan {format_count(included)}"
        if used > included and included:
            end_label = format_count(used)
            plan_cell = min(width - 1, round(included / used * width))
            start = max(len(left) + 1, plan_cell - len(plan_label) + 1)
            end_start = width - len(end_label)
            if start + len(plan_label) < end_start:
                scale[start : start + len(plan_label)] = plan_label
            scale[end_start:] = end_label
        else:
            start = max(len(left) + 1, width - len(plan_label))
            scale[start : start + len(plan_label)] = plan_label[: width - start]
        return Text("".join(scale)[:width], style=style)
