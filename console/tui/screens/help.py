"""`?`: every key of the console, grouped by screen, in as many columns as the width allows,
opened at the group of the screen it was asked from."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from console.tui.actions.help_keys import KeyGroup, help_group_of, help_groups
from console.tui.base.app_access import session_host
from console.tui.widgets.key_scroll import KeyScroll

COLUMN_WIDTH = 56
"""The width a column of groups needs (key, gap, a line of description); the help takes as
many columns as fit: one at 80 columns, three at 200."""


def group_table(group: KeyGroup) -> Group:
    """One screen's keys under its title."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", justify="right", no_wrap=True)
    table.add_column()
    for key, what in group.keys:
        table.add_row(Text(key), Text(what))
    return Group(Text(group.title, style="bold underline"), table, Text(""))


def _balanced(groups: tuple[KeyGroup, ...], columns: int) -> list[list[KeyGroup]]:
    """The groups in order, cut into `columns` runs of about the same number of lines."""
    sizes = [len(g.keys) + 2 for g in groups]
    per_column = sum(sizes) / columns
    cut: list[list[KeyGroup]] = [[]]
    lines = 0
    for group, size in zip(groups, sizes, strict=True):
        if cut[-1] and lines + size / 2 > per_column * len(cut) and len(cut) < columns:
            cut.append([])
        cut[-1].append(group)
        lines += size
    return cut


def keys_table(read_only: bool = False, width: int = 80) -> Table:
    """Every group of keys, in columns of about COLUMN_WIDTH cells."""
    groups = help_groups(read_only)
    columns = max(1, min(3, width // COLUMN_WIDTH))
    table = Table.grid(padding=(0, 3), expand=True)
    runs = _balanced(groups, columns)
    for _ in runs:
        table.add_column(ratio=1)
    table.add_row(*(Group(*(group_table(g) for g in run)) for run in runs))
    return table


class KeysLayout:
    """The groups of keys as a Rich renderable that lays itself out for the width it is
    given: one column at 80 cells, two at 120, three at 200."""

    def __init__(self, read_only: bool) -> None:
        self.read_only = read_only

    def __rich_console__(
        self, console: Console, options: ConsoleOptions
    ) -> Iterator[RenderableType]:
        yield keys_table(self.read_only, options.max_width)


__all__ = ["HelpScreen", "help_group_of", "keys_table"]


def title_line(lines: list[str], title: str) -> int | None:
    """The first line on which a group's title stands alone in its column, if any."""
    alone = re.compile(rf"(^|\s{{2,}}){re.escape(title)}(\s{{2,}}|$)")
    return next((y for y, line in enumerate(lines) if alone.search(line.rstrip())), None)


class HelpScreen(ModalScreen[None]):
    """Every key; scrolled, where it does not all fit, to `start_at`'s group (the keys of
    the screen `?` was pressed on), the others a scroll away."""

    BINDINGS = [
        Binding("escape", "dismiss", "Close"),
        Binding("question_mark", "dismiss", "Close", show=False),
        Binding("q", "dismiss", "Close", show=False),
    ]

    def __init__(self, start_at: str | None = None) -> None:
        super().__init__()
        self.start_at = start_at

    def compose(self) -> ComposeResult:
        # The dialog itself scrolls: on a small terminal its last keys are a scroll away.
        with KeyScroll(id="help-dialog", classes="dialog"):
            yield Static("Keys, by screen", classes="dialog-title")
            yield Static(KeysLayout(session_host(self).read_only), id="help-keys")
            yield Static(
                "escape closes this help · j/k, pagedown/pageup scroll · g: the top",
                classes="muted",
            )

    def on_mount(self) -> None:
        if self.start_at:
            self.call_after_refresh(self.scroll_to_start)

    def scroll_to_start(self) -> None:
        """Scrolls the group of `start_at` to the top of the dialog."""
        keys = self.query_one("#help-keys", Static)
        lines = [keys.render_line(y).text for y in range(keys.size.height)]
        found = title_line(lines, self.start_at or "")
        if found:  # on the first line (a column's top, at 200 columns) the title stays too
            dialog = self.query_one("#help-dialog", KeyScroll)
            dialog.scroll_to(y=keys.virtual_region.y + found, animate=False, immediate=True)

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
