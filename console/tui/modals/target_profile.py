"""The profile a promotion copies to, or a whole-tenant diff compares with: a pick list of
every profile but the current one."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from console.tui.widgets.pick_list import PickList


class TargetProfilePicker(ModalScreen[str | None]):
    """Which profile to copy to, or compare with: every profile but the current one."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, names: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="target-dialog", classes="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield PickList(*(Option(name, id=name) for name in self.names), id="target-options")
            yield Static("enter: choose · escape: cancel", classes="muted")

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
