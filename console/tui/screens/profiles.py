"""Switching profile (`p`) and entering a new key when the service rejects one."""

from __future__ import annotations

import asyncio
import logging

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from console.tui.base.app_access import connecting, key_prompts, session_host, workers
from console.tui.base.connection import Connection, ProfileSummary, probe_keyring
from console.tui.widgets.pick_list import PickList

log = logging.getLogger(__name__)


def badge_style(color: str | None) -> str:
    """The style of a profile's label: reversed in its colour, bold."""
    return f"bold reverse {color}" if color else "bold reverse"


def profile_line(summary: ProfileSummary, current: bool, default: bool, width: int) -> Text:
    """One row of the picker: marker, name, label, base URL, tenant (when known)."""
    line = Text("● " if current else "  ")
    line.append(summary.name.ljust(width), style="bold")
    line.append(" (default)" if default else " " * 10, style="italic")
    if summary.badge:
        line.append("  ")
        line.append(f" {summary.badge} ", style=badge_style(summary.color))
    line.append(f"  {summary.base_url}", style="underline")
    if summary.tenant_name:
        line.append(f"  tenant {summary.tenant_name}", style="dim")
    return line


class ProfilePicker(ModalScreen[str | None]):
    """Pick one of the profiles for this session (the current one is marked); `m` makes the
    highlighted one the profile `tenant-console` opens on."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("m", "make_default", "Make default"),
    ]

    def __init__(
        self,
        profiles: list[ProfileSummary] | list[str],
        active: str | None,
        default: str | None = None,
    ) -> None:
        super().__init__()
        self.summaries = [
            p if isinstance(p, ProfileSummary) else ProfileSummary(p, "") for p in profiles
        ]
        self.names = [p.name for p in self.summaries]
        self.active = active
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="profile-dialog", classes="dialog"):
            yield Static("Switch profile", classes="dialog-title")
            if self.names:
                yield PickList(*self._options(), id="profile-options")
            else:
                yield Static("No saved profiles: add one with `tenant-console profile add`.")
            yield Static(
                "enter: switch for this session · m: make default · escape: cancel",
                classes="muted",
            )

    def _options(self) -> list[Option]:
        width = max(len(n) for n in self.names)
        return [
            Option(profile_line(p, p.name == self.active, p.name == self.default, width), id=p.name)
            for p in self.summaries
        ]

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

    def action_make_default(self) -> None:
        if not self.names:
            return
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        name = self.names[options.highlighted]
        self.run_worker(self._make_default(name), exit_on_error=False)

    async def _make_default(self, name: str) -> None:
        profiles = session_host(self).profiles
        try:
            await asyncio.to_thread(profiles.make_default, name)
        except Exception as exc:
            log.warning("The profile could not be made the default", exc_info=True)
            self.notify(str(exc), title="Profile", severity="error")
            return
        self.default = name
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(self._options())
        options.highlighted = highlighted
        self.notify(f"tenant-console now opens on profile {name}.", title="Default profile")


class KeyPrompt(ModalScreen[bool]):
    """A masked input for a profile's new API key. The key is checked with the service
    before anything is stored; a rejected key keeps the prompt open and says so. Without a
    usable keyring, it offers to use the key for this session only (held in memory)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, connection: Connection, reason: str = "") -> None:
        super().__init__()
        self.connection = connection
        self.reason = reason
        self.keyring_problem: str | None = None
        self._last_message = ""

    def compose(self) -> ComposeResult:
        stores = self.connection.profile is not None
        with Vertical(id="key-dialog", classes="dialog"):
            title = f"New API key for {self.connection.label}"
            yield Static(title, classes="dialog-title", markup=False)
            if self.reason:
                yield Static(self.reason, classes="muted", markup=False)
            yield Input(password=True, placeholder="API key", id="key-input")
            yield Static("", id="key-message")
            with Horizontal(classes="buttons"):
                label = "Check and store" if stores else "Check and use"
                yield Button(label, variant="primary", id="key-save")
                yield Button("This session only", id="key-session")
                yield Button("Cancel", id="key-cancel")

    def on_mount(self) -> None:
        self.query_one("#key-session").display = False
        self.query_one(Input).focus()
        origin = self.connection.key_origin
        if origin is not None:
            self._offer_session_only(
                f"Profile {self.connection.label} takes its key from {origin}: a key entered "
                "here is used for this session only; put it there to keep it."
            )
        elif self.connection.profile is not None:
            self.run_worker(self._probe_keyring(), exit_on_error=False)

    @property
    def can_store(self) -> bool:
        """Whether a key entered here can be kept for the profile (enter stores it then)."""
        return (
            self.connection.profile is not None
            and self.connection.key_origin is None
            and self.keyring_problem is None
        )

    def _offer_session_only(self, why: str) -> None:
        """Storing cannot succeed here: this session only becomes what enter does."""
        self.query_one("#key-session").display = True
        self.query_one("#key-save").display = False
        self._message(why)

    async def _probe_keyring(self) -> None:
        """Whether a key could be stored here: without a keyring, offer this session only."""
        self.keyring_problem = await probe_keyring(session_host(self).profiles)
        if self.keyring_problem:
            self._offer_session_only(
                "No usable keyring: the key can be used for this session only "
                "(held in memory, never written)."
            )

    def _message(self, text: str, error: bool = False) -> None:
        self._last_message = text
        message = self.query_one("#key-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    @property
    def message_text(self) -> str:
        """The message under the key (also once the screen is closed)."""
        return self._last_message

    @on(Input.Submitted)
    def _submit(self) -> None:
        """Enter does what can succeed here: store the key, or use it for this session."""
        self._use(session_only=self.connection.profile is not None and not self.can_store)

    @on(Button.Pressed, "#key-save")
    def _save(self) -> None:
        self._use(session_only=False)

    @on(Button.Pressed, "#key-session")
    def _session_only(self) -> None:
        self._use(session_only=True)

    def _use(self, *, session_only: bool) -> None:
        key = self.query_one(Input).value.strip()
        if not key:
            self._message("Enter the key, or press escape to cancel.", True)
            return
        self._busy(True)
        self._message("Checking the key with the service…")
        work = self._check(key, session_only)
        self.run_worker(work, group="key", exclusive=True, exit_on_error=False)

    def _busy(self, busy: bool) -> None:
        for button in self.query(Button):
            button.disabled = busy and button.id != "key-cancel"

    async def _check(self, key: str, session_only: bool) -> None:
        outcome = await key_prompts(self).check_new_key(
            self.connection, key, session_only=session_only
        )
        self._busy(False)
        if isinstance(outcome, str):
            self._message(outcome, True)
            if self.keyring_problem is None and "not stored" in outcome:
                self.query_one("#key-session").display = True
            field = self.query_one(Input)
            field.focus()
            field.select_all()
            return
        self.dismiss(True)
        workers(self).run_worker(connecting(self).connect(outcome), exit_on_error=False)

    @on(Button.Pressed, "#key-cancel")
    def action_cancel(self) -> None:
        self.dismiss(False)
