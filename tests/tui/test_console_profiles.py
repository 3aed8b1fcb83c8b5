"""Profiles in the console: switching, a new key after a 401, and the welcome screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring.core
import pytest
from console_support import (
    SIZE,
    MemoryKeyring,
    Seeder,
    console,
    resource_list,
    settle,
    two_profile_app,
    type_into,
)

from console.profiles.config import Profile, ProfilesFile
from console.profiles.keys import get_key, set_key
from console.tui.app import TenantConsoleApp
from console.tui.screens.profiles import KeyPrompt, ProfilePicker
from console.tui.screens.welcome import WelcomeScreen


@pytest.fixture
def saved_profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    """A temp config dir and an in-memory keyring; no TENANT_CONSOLE_* from the shell."""
    for name in ("TENANT_CONSOLE_PROFILE", "TENANT_CONSOLE_BASE_URL", "TENANT_CONSOLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    backend = MemoryKeyring()
    monkeypatch.setattr(keyring.core, "_keyring_backend", backend)
    yield backend


def save_profile(name: str, base_url: str, key: str | None, active: bool = False) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile(name=name, base_url=base_url))
    if active:
        profiles.use(name)
    profiles.save()
    if key is not None:
        set_key(name, key)


async def test_switching_profile_shows_the_other_tenant(service: Any) -> None:
    first = service.new_tenant("First Tenant")
    second = service.new_tenant("Second Tenant")
    seed = Seeder(service.base_url, second.key)
    seed.proxy("Only in second")
    seed.close()
    app = two_profile_app(
        ("one", service.base_url, first.key), ("two", service.base_url, second.key)
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert console(app).header.tenant == "First Tenant"
        await pilot.press("2")
        await settle(pilot)
        assert resource_list(app, "proxies").state_panel.kind == "empty"

        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, ProfilePicker)
        await pilot.press("down", "enter")
        await settle(pilot)
        screen = console(app)
        assert app.screen is screen
        assert screen.header.profile == "two"
        assert screen.header.tenant == "Second Tenant"
        assert screen.current == "proxies"
        assert [p["name"] for p in resource_list(app, "proxies").items] == ["Only in second"]
        # the other sections forgot the first tenant and reload when shown
        await pilot.press("1")
        await settle(pilot)
        assert str(resource_list(app, "applications").items[0]["tenant_id"]) == second.tenant_id


async def test_saved_profiles_switch_and_store_a_new_key(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    first = service.new_tenant("Saved One")
    second = service.new_tenant("Saved Two")
    save_profile("one", service.base_url, first.key, active=True)
    save_profile("two", service.base_url, "revoked-key-" + "y" * 20)
    app = TenantConsoleApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert console(app).header.tenant == "Saved One"
        app.switch_profile("two")
        await settle(pilot)
        assert console(app).header.profile == "two"
        assert app.key_rejected
        await pilot.press("K")
        await pilot.pause()
        assert isinstance(app.screen, KeyPrompt)
        await type_into(pilot, second.key)
        await settle(pilot)
        assert console(app).header.tenant == "Saved Two"
        assert get_key("two") == second.key
        assert ProfilesFile.load().active == "two"


async def test_welcome_adds_a_checked_profile(service: Any, saved_profiles: MemoryKeyring) -> None:
    info = service.new_tenant("Welcome Corp")
    app = TenantConsoleApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, WelcomeScreen)
        welcome = app.screen
        await type_into(pilot, "prod")
        await type_into(pilot, service.base_url)
        await type_into(pilot, "wrong-key-zzzzzzzzzzzzzzzzzz")
        await settle(pilot)
        message = str(welcome.query_one("#welcome-message").content)  # type: ignore[attr-defined]
        assert "401" in message
        assert ProfilesFile.load().profiles == {}

        key_input = welcome.query_one("#api-key")
        key_input.value = info.key  # type: ignore[attr-defined]
        key_input.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert console(app).header.tenant == "Welcome Corp"
        assert ProfilesFile.load().active == "prod"
        assert get_key("prod") == info.key
        assert info.key not in app.screen.query_one("ConsoleHeader").render().plain  # type: ignore[attr-defined]
