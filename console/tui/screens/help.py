"""`?`: every key of the console in one modal."""

from __future__ import annotations

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen
from textual.widgets import Static

from console.tui.app_access import console_app
from console.tui.sections import CHANGE_KEYS, KEYS
from console.tui.widgets.key_scroll import SCROLL_KEYS, KeyScroll


def keys_table(read_only: bool = False) -> Table:
    table = Table.grid(padding=(0, 3))
    table.add_column(style="bold", justify="right", no_wrap=True)
    table.add_column()
    for key, what in (*KEYS, *SCROLL_KEYS) if read_only else (*KEYS, *SCROLL_KEYS, *CHANGE_KEYS):
        table.add_row(key, what)
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss", "Close"),
        Binding("question_mark", "dismiss", "Close", show=False),
        Binding("q", "dismiss", "Close", show=False),
    ]

    def compose(self) -> ComposeResult:
        # The dialog itself scrolls: on a small terminal its last keys are a scroll away.
        with KeyScroll(id="help-dialog", classes="dialog"):
            yield Static("Keys", classes="dialog-title")
            yield Static(keys_table(console_app(self).read_only), id="help-keys")
            yield Static("escape closes this help · j/k, pagedown/pageup scroll", classes="muted")

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)
