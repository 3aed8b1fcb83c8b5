"""Switching profile (`p`) and entering a new key when the service rejects one."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option


class ProfilePicker(ModalScreen[str | None]):
    """Pick one of the profiles; the active one is marked."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, names: list[str], active: str | None) -> None:
        super().__init__()
        self.names = names
        self.active = active

    def compose(self) -> ComposeResult:
        with Vertical(id="profile-dialog", classes="dialog"):
            yield Static("Switch profile", classes="dialog-title")
            if self.names:
                options = [
                    Option(f"{'● ' if n == self.active else '  '}{n}", id=n) for n in self.names
                ]
                yield OptionList(*options, id="profile-options")
            else:
                yield Static("No saved profiles: add one with `tenant-console profile add`.")
            yield Static("enter switches · escape cancels", classes="muted")

    def on_mount(self) -> None:
        if self.names:
            options = self.query_one(OptionList)
            if self.active in self.names:
                options.highlighted = self.names.index(self.active)
            options.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class KeyPrompt(ModalScreen[str | None]):
    """A masked input for a profile's new API key."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, profile: str | None, reason: str = "") -> None:
        super().__init__()
        self.profile = profile
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="key-dialog", classes="dialog"):
            title = f"New API key for {self.profile or 'this connection'}"
            yield Static(title, classes="dialog-title")
            if self.reason:
                yield Static(self.reason, classes="muted")
            yield Input(password=True, placeholder="API key", id="key-input")
            with Horizontal(classes="buttons"):
                yield Button("Use this key", variant="primary", id="key-save")
                yield Button("Cancel", id="key-cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    @on(Button.Pressed, "#key-save")
    def _save(self) -> None:
        key = self.query_one(Input).value.strip()
        if not key:
            self.notify("Enter the key, or press escape to cancel.", severity="warning")
            return
        self.dismiss(key)

    @on(Button.Pressed, "#key-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
