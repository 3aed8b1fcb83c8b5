"""Helpers for the console's Pilot tests: build the app on a real local service, let it
settle, and seed data over HTTP."""

from __future__ import annotations

from typing import Any, Protocol, cast

import httpx
from keyring.backend import KeyringBackend
from keyring.compat import properties
from textual.pilot import Pilot

from console.tui.app import TenantConsoleApp
from console.tui.base.connection import Connection, MemoryProfiles
from console.tui.browse.sections import SECTIONS_BY_KEY, number_key
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.detail import DetailScreen
from console.tui.widgets.resource_list import ResourceList

SIZE = (120, 40)

JS = "module.exports = async function (req) {\n  return { raw: req.args };\n};\n"


def section_key(key: str) -> str:
    """The number key of the section `key` (`"usage"`): the registry numbers them, so a
    kind's section added before it moves it."""
    return number_key(SECTIONS_BY_KEY[key].number)


USAGE_KEY = section_key("usage")
"""The Usage section's number key (the last section)."""


async def go_to(pilot: Pilot[Any], key: str) -> None:
    """Section `key` shown, as a person gets there: its number key, or (a section past the
    number keys: a kind registered after the ninth) the palette's "Go to ..." command."""
    app = cast("TenantConsoleApp", pilot.app)
    hotkey = SECTIONS_BY_KEY[key].hotkey
    if hotkey:
        await pilot.press(hotkey)
    else:
        await app.go_to_section(key)
    await settle(pilot)


def make_app(base_url: str, key: str, **options: Any) -> TenantConsoleApp:
    return TenantConsoleApp(connection=Connection("test", base_url, key), **options)


def two_profile_app(first: tuple[str, str, str], second: tuple[str, str, str]) -> TenantConsoleApp:
    """An app whose profiles (name, base_url, key) live in memory."""
    connections = [Connection(name, url, key) for name, url, key in (first, second)]
    return TenantConsoleApp(profiles=MemoryProfiles(connections, active=first[0]))


async def settle(pilot: Pilot[Any], rounds: int = 10) -> None:
    """Until no worker runs and the messages they caused are handled (bounded rounds)."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        if not any(w.is_running or w.state.name == "PENDING" for w in app.workers):
            await pilot.pause()
            if not any(w.is_running or w.state.name == "PENDING" for w in app.workers):
                return
        await app.workers.wait_for_complete()


class MemoryKeyring(KeyringBackend):
    """Keys in a dict: the tests never touch a real keyring."""

    @properties.classproperty
    def priority(cls) -> float:
        """keyring declares priority a class property; a plain `priority = 1` is the same at
        run time but not to pyright."""
        return 1

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.entries.pop((service, username), None)


class _WithValue(Protocol):
    """A widget a person types a value into: an Input, a Select, a masked input."""

    value: Any


async def type_into(pilot: Pilot[Any], text: str) -> None:
    """Puts text in the focused input and presses enter (one key per character is slow)."""
    focused = pilot.app.focused
    assert focused is not None and hasattr(focused, "value"), f"focused: {focused}"
    cast("_WithValue", focused).value = text
    await pilot.press("enter")


async def filter_list(pilot: Pilot[Any], text: str) -> None:
    """`/`, the text, enter; then wait for the server's answer."""
    await pilot.press("slash")
    await type_into(pilot, text)
    await settle(pilot)


async def open_first_detail(pilot: Pilot[Any], section: str) -> DetailScreen:
    """From the console as started: the section (its number key), then enter on its first
    row; the detail screen, settled."""
    await settle(pilot)
    await pilot.press(section)
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)
    detail = pilot.app.screen
    assert isinstance(detail, DetailScreen), f"not a detail: {detail}"
    return detail


def console(app: TenantConsoleApp) -> ConsoleScreen:
    screen = app.console_screen
    assert screen is not None, f"no console screen, stack: {app.screen_stack}"
    return screen


def resource_list(app: TenantConsoleApp, key: str) -> ResourceList:
    return console(app).resource_list(key)


def footer_status(app: TenantConsoleApp) -> str:
    return str(console(app).query_one("FooterBar #status").content)  # type: ignore[attr-defined]


def notifications(app: TenantConsoleApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


class Seeder:
    """Creates objects over HTTP with a tenant's key."""

    def __init__(self, base_url: str, key: str) -> None:
        self.http = httpx.Client(base_url=base_url, headers={"SVC-API-KEY": key}, timeout=30)

    def close(self) -> None:
        self.http.close()

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.http.post(path, json=body)
        assert response.status_code == 201, response.text
        return response.json()

    def application(self, name: str, **extra: Any) -> dict[str, Any]:
        body = {"name": name, "type": "private", "permissions": ["token:read"], **extra}
        return self.post("/applications", body)

    def proxy(self, name: str, **extra: Any) -> dict[str, Any]:
        body = {"name": name, "destination_url": "https://example.com/hook", **extra}
        return self.post("/proxies", body)

    def formula(self, name: str, **extra: Any) -> dict[str, Any]:
        body = {"name": name, "type": "private", "code": JS, **extra}
        return self.post("/reactor-formulas", body)

    def delete(self, path: str) -> None:
        response = self.http.delete(path)
        assert response.status_code == 204, response.text
