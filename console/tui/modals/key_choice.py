"""Which key to revoke: the application's keys, the session's marked, one chosen with enter."""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, OptionList, Static
from textual.widgets.option_list import Option

from console.tui.modals.base import Dialog
from console.tui.widgets.pick_list import PickList


class KeyChoiceModal(Dialog[str | None]):
    """Dismisses with the chosen key's id, or None."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, choices: Sequence[tuple[str, str]]) -> None:
        """`choices`: (key id, the line that describes it)."""
        super().__init__()
        self.title_text = title
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield PickList(
                *(Option(label, id=key_id) for key_id, label in self.choices), id="key-choices"
            )
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    @on(Button.Pressed, "#cancel")
    def _cancelled(self) -> None:
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
