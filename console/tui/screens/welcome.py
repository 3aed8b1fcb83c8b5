"""First start, no profile: add one (checked against the service first) or open the demo."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Input, Label, LoadingIndicator, Static

from console.tui.problems import describe
from console.tui.widgets.key_bar import KeyBar

PROFILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

INTRO = (
    "No profile yet. A profile is a name, the service's base URL and an API key; "
    "the key goes to the OS keyring. Add one, or open the demo: a local service with a "
    "seeded tenant, gone when you quit."
)


async def check_key(base_url: str, key: str) -> str:
    """Asks the service who this key is; returns a short description or raises ApiError."""
    try:
        from console.profiles.verify import verify_key
    except ImportError:
        from console.client import AdminClient

        async with AdminClient(base_url, key) as client:
            application = await client.applications.current()
        return f"application {application.name}"
    info = await verify_key(base_url, key)
    tenant = f", tenant {info.tenant_name}" if getattr(info, "tenant_name", None) else ""
    return f"application {info.application_name}{tenant}"


class WelcomeScreen(Screen[None]):
    BINDINGS = [
        Binding("f2", "demo", "Open the demo"),
        Binding("ctrl+q", "app.quit", "Quit", priority=True),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="welcome", classes="dialog"):
            yield Static("Welcome to tenant-console", classes="dialog-title")
            yield Static(INTRO, id="welcome-intro")
            yield Label("Profile name")
            yield Input(placeholder="e.g. production", id="profile-name")
            yield Label("Base URL")
            yield Input(placeholder="https://api.example.com", id="base-url")
            yield Label("API key (management application)")
            yield Input(
                password=True, placeholder="checked with the service before saving", id="api-key"
            )
            yield Static("", id="welcome-message")
            yield LoadingIndicator(id="welcome-busy")
            with Horizontal(classes="buttons"):
                yield Button("Check and save", variant="primary", id="save-profile")
                yield Button("Open the demo", id="open-demo")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#welcome-busy").display = False
        self.query_one("#profile-name", Input).focus()

    def _message(self, text: str, error: bool = False) -> None:
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
            self._save()
        else:
            self.focus_next()

    @on(Button.Pressed, "#save-profile")
    def _save(self) -> None:
        name = self.query_one("#profile-name", Input).value.strip()
        base_url = self.query_one("#base-url", Input).value.strip().rstrip("/")
        key = self.query_one("#api-key", Input).value.strip()
        if not PROFILE_NAME.match(name):
            self._message("The profile name needs letters, digits, '-', '_' or '.'.", True)
            return
        if not base_url.startswith(("http://", "https://")):
            self._message("The base URL must start with https:// (or http:// on loopback).", True)
            return
        if not key:
            self._message("Enter the API key of a management application.", True)
            return
        self._busy(True)
        self._message("Checking the key against the service…")
        work = self._check_and_save(name, base_url, key)
        self.run_worker(work, exclusive=True, exit_on_error=False)

    async def _check_and_save(self, name: str, base_url: str, key: str) -> None:
        app: Any = self.app
        try:
            who = await check_key(base_url, key)
        except Exception as exc:
            problem = describe(exc)
            self._busy(False)
            self._message(f"{problem.title}: {problem.message}", True)
            return
        try:
            connection = await asyncio.to_thread(app.profiles.add, name, base_url, key)
        except Exception as exc:
            self._busy(False)
            self._message(f"The key works ({who}) but the profile was not saved: {exc}", True)
            return
        self.notify(f"Profile {name} saved: {who}.", title="Profile")
        # The app's worker, not this screen's: connecting replaces this screen.
        app.run_worker(app.connect(connection), exit_on_error=False)

    @on(Button.Pressed, "#open-demo")
    def action_demo(self) -> None:
        self._busy(True)
        self._message("Starting the local service with demo data…")
        self.run_worker(self._demo(), exclusive=True, exit_on_error=False)

    async def _demo(self) -> None:
        app: Any = self.app
        try:
            connection = await app.start_demo_service()
        except Exception as exc:
            self._busy(False)
            self._message(str(exc), True)
            return
        app.run_worker(app.connect(connection), exit_on_error=False)
