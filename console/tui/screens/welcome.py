"""Where the console starts when it has nothing to show yet: no profile (add one, checked
against the service first, or open the demo), or a profile without a usable key (enter one,
checked first; give one through the environment; or quit). Never an empty terminal."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Coroutine

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, LoadingIndicator, Static

from console.tui.base.app_access import connecting, key_prompts, session_host, workers
from console.tui.base.connection import Connection, check_key, key_check_failure, probe_keyring
from console.tui.base.logs import hide_secret
from console.tui.widgets.key_bar import KeyBar

log = logging.getLogger(__name__)

PROFILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
API_KEY_ENV = "TENANT_CONSOLE_API_KEY"

INTRO = (
    "No profile yet. A profile is a name, the service's base URL and an API key (kept in "
    "the OS keyring). Add one, or open the demo: a local service, gone when you quit."
)
SESSION_ONLY = (
    "No usable keyring here: a key cannot be stored. "
    "Use it for this session only (held in memory, never written)."
)

__all__ = ["WelcomeScreen", "check_key"]


class KeyField(Input):
    """The API key's field: while it is empty it leaves `q` to the screen (q quits there, as
    everywhere); once something is typed, q is a letter of the key."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if key == "q" and not self.value:
            return False
        return super().check_consume_key(key, character)


class WelcomeScreen(Screen[None]):
    """Without `connection`: add a profile. With one (a profile whose key is missing or
    cannot be read): enter its key, or say how else to give one."""

    BINDINGS = [
        Binding("ctrl+o", "demo", "Open the demo"),
        Binding("ctrl+q", "app.quit", "Quit", priority=True),
        # A profile without a key: q quits while the key field is empty (the app's q never
        # reaches past the focused field); once something is typed, q is a letter of it.
        Binding("q", "quit_unless_typing", "Quit", show=False, priority=True),
    ]

    def __init__(self, connection: Connection | None = None, reason: str = "") -> None:
        super().__init__()
        self.connection = connection
        self.reason = reason
        self.keyring_problem: str | None = None
        self._last_message = ""

    def compose(self) -> ComposeResult:
        connection = self.connection
        with VerticalScroll(id="welcome", classes="dialog"):
            if connection is None:
                yield Static("Welcome to tenant-console", classes="dialog-title")
                yield Static(INTRO, id="welcome-intro")
                with Horizontal(classes="welcome-row"):
                    yield Label("Profile name")
                    yield Input(placeholder="e.g. production", id="profile-name", compact=True)
                with Horizontal(classes="welcome-row"):
                    yield Label("Base URL")
                    yield Input(placeholder="https://api.example.com", id="base-url", compact=True)
            else:
                title = f"Profile {connection.label} has no usable key"
                yield Static(title, classes="dialog-title", markup=False)
                yield Static(self.reason, id="welcome-intro", markup=False)
                with Horizontal(classes="welcome-row"):
                    yield Label("Base URL")
                    yield Static(connection.base_url, id="welcome-url", markup=False)
            with Horizontal(classes="welcome-row"):
                yield Label("API key")
                yield (KeyField if connection is not None else Input)(
                    password=True,
                    placeholder="checked with the service before it is kept",
                    id="api-key",
                    compact=True,
                )
            with Horizontal(id="welcome-status"):
                yield Static("", id="welcome-message")
                yield LoadingIndicator(id="welcome-busy")
            with Horizontal(classes="buttons"):
                save = "Check and save" if connection is None else "Check and store"
                yield Button(save, variant="primary", id="save-profile", compact=True)
                yield Button("This session only", id="session-only", compact=True)
                yield Button("Open the demo", id="open-demo", compact=True)
            if connection is not None:
                yield Static(
                    f"Or quit (q or ctrl+q), set {API_KEY_ENV} in the environment and start again.",
                    id="welcome-env",
                    classes="muted",
                )
        yield KeyBar()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """q quits on the "no usable key" screen only: adding a profile, it is a letter."""
        if action == "quit_unless_typing":
            return self.connection is not None
        return True

    def action_quit_unless_typing(self) -> None:
        """q where no field takes it (KeyField while empty): nothing typed is lost."""
        self.app.exit()

    def on_mount(self) -> None:
        self.query_one("#welcome-busy").display = False
        self.query_one("#session-only").display = False
        first = "#profile-name" if self.connection is None else "#api-key"
        self.query_one(first, Input).focus()
        self.query_one("#welcome").scroll_home(animate=False)
        self.run_worker(self._probe_keyring(), exit_on_error=False)

    async def _probe_keyring(self) -> None:
        """Without a usable keyring (or for a profile whose key comes from elsewhere), say so
        now and make this session only what enter does."""
        origin = self.connection.key_origin if self.connection is not None else None
        if origin is None:
            self.keyring_problem = await probe_keyring(session_host(self).profiles)
        if origin is not None or self.keyring_problem:
            self.query_one("#session-only").display = True
            self.query_one("#save-profile").display = False
            if origin is not None:
                self._message(
                    f"This profile takes its key from {origin}: a key entered here is used "
                    "for this session only; put it there to keep it."
                )
            elif not self.message_text:
                self._message(SESSION_ONLY)

    @property
    def can_store(self) -> bool:
        """Whether a key entered here can be kept (enter stores it then)."""
        origin = self.connection.key_origin if self.connection is not None else None
        return origin is None and self.keyring_problem is None

    @property
    def message_text(self) -> str:
        """The message under the key (also once the screen is closed)."""
        return self._last_message

    def _message(self, text: str, error: bool = False) -> None:
        self._last_message = text
        message = self.query_one("#welcome-message", Static)
        message.update(text)
        message.set_class(error, "-error")

    def _busy(self, busy: bool) -> None:
        self.query_one("#welcome-busy").display = busy
        for button in self.query(Button):
            button.disabled = busy

    @on(Input.Submitted)
    def _next_field(self, event: Input.Submitted) -> None:
        if event.input.id == "api-key":
            self._use(session_only=not self.can_store)
        else:
            self.focus_next()

    @on(Button.Pressed, "#save-profile")
    def _save(self) -> None:
        self._use(session_only=False)

    @on(Button.Pressed, "#session-only")
    def _session_only(self) -> None:
        self._use(session_only=True)

    def _use(self, *, session_only: bool) -> None:
        key = self.query_one("#api-key", Input).value.strip()
        if self.connection is not None:
            if not key:
                self._message("Enter the API key of a management application.", True)
                return
            self._start(self._check_key(key, session_only), "Checking the key with the service…")
            return
        name = self.query_one("#profile-name", Input).value.strip()
        base_url = self.query_one("#base-url", Input).value.strip().rstrip("/")
        if not PROFILE_NAME.match(name):
            self._message("The profile name needs letters, digits, '-', '_' or '.'.", True)
            return
        if not base_url.startswith(("http://", "https://")):
            self._message("The base URL must start with https:// (or http:// on loopback).", True)
            return
        if not key:
            self._message("Enter the API key of a management application.", True)
            return
        work = self._check_and_save(name, base_url, key, session_only)
        self._start(work, "Checking the key against the service…")

    def _start(self, work: Coroutine[object, object, None], message: str) -> None:
        self._busy(True)
        self._message(message)
        self.run_worker(work, group="welcome", exclusive=True, exit_on_error=False)

    async def _check_key(self, key: str, session_only: bool) -> None:
        """The profile's key: checked, then stored (or held for this session), then used."""
        assert self.connection is not None
        outcome = await key_prompts(self).check_new_key(
            self.connection, key, session_only=session_only
        )
        self._busy(False)
        if isinstance(outcome, str):
            self._message(outcome, True)
            if "not stored" in outcome:
                self.query_one("#session-only").display = True
            return
        self._connect(outcome)

    async def _check_and_save(self, name: str, base_url: str, key: str, session_only: bool) -> None:
        hide_secret(key)  # masked in the log from now on, whatever happens to it
        try:
            who = await check_key(base_url, key)
        except Exception as exc:
            log.warning("The key check failed", exc_info=True)
            self._busy(False)
            self._message(key_check_failure(exc), True)
            return
        if session_only:
            connection = Connection(name, base_url, key, "memory")
            self.notify(
                f"The service accepts the key ({who}). Profile {name} is used for this "
                "session only: nothing was saved.",
                title="Profile",
            )
        else:
            try:
                connection = await asyncio.to_thread(
                    session_host(self).profiles.add, name, base_url, key
                )
            except Exception as exc:
                log.warning("The profile could not be saved", exc_info=True)
                self._busy(False)
                self._message(f"The key works ({who}) but the profile was not saved: {exc}", True)
                self.query_one("#session-only").display = True
                return
            self.notify(f"Profile {name} saved: {who}.", title="Profile")
        self._connect(connection)

    @on(Button.Pressed, "#open-demo")
    def action_demo(self) -> None:
        self._start(self._demo(), "Starting the local service with demo data…")

    async def _demo(self) -> None:
        try:
            connection = await connecting(self).start_demo_service()
        except Exception as exc:
            log.warning("The profile could not be opened", exc_info=True)
            self._busy(False)
            self._message(str(exc), True)
            return
        self._connect(connection)

    def _connect(self, connection: Connection) -> None:
        """Connects in the app's worker, not this screen's: connecting replaces this screen."""
        workers(self).run_worker(connecting(self).connect(connection), exit_on_error=False)
