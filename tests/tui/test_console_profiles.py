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
from form_host import wait_until
from keyring.backends import fail
from keyring.errors import KeyringLocked
from textual.widgets import Button, Input, OptionList, Static

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
        assert ProfilesFile.load().active == "one"  # switching is for this session only


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


async def test_a_rejected_key_is_not_stored_and_the_prompt_says_so(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    info = service.new_tenant("Checked Key")
    old_key = "revoked-key-" + "z" * 20
    save_profile("prod", service.base_url, old_key, active=True)
    app = TenantConsoleApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.key_rejected
        app.prompt_new_key()
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, KeyPrompt)
        await type_into(pilot, "another-wrong-key-" + "q" * 20)
        await settle(pilot)
        assert app.screen is prompt  # stays open, and says why
        assert "rejected this key (401)" in prompt.message_text
        assert "Nothing was stored" in prompt.message_text
        assert get_key("prod") == old_key
        assert app.key_rejected

        await type_into(pilot, info.key)
        await settle(pilot)
        assert console(app).header.tenant == "Checked Key"
        assert get_key("prod") == info.key
        assert not app.key_rejected
        assert info.key not in prompt.message_text


async def test_no_keyring_at_start_shows_what_to_do_and_offers_this_session_only(
    service: Any, saved_profiles: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Session Only")
    save_profile("prod", service.base_url, None, active=True)
    before = ProfilesFile.load().path.read_text()
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())
    app = TenantConsoleApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        welcome = app.screen
        assert isinstance(welcome, WelcomeScreen)  # not an empty terminal
        assert welcome.connection is not None and welcome.connection.profile == "prod"
        text = " ".join(str(s.content) for s in welcome.query("Static"))
        assert "No usable OS keyring" in text
        assert "TENANT_CONSOLE_API_KEY" in text
        assert "this session only" in welcome.message_text
        assert welcome.query_one("#session-only").display
        assert welcome.query_one("KeyBar").display  # and the keys: demo, quit

        welcome.query_one("#api-key", Input).value = "wrong-key-" + "w" * 20
        await pilot.click("#session-only")
        await settle(pilot)
        assert app.screen is welcome
        assert "rejected this key (401)" in welcome.message_text

        welcome.query_one("#api-key", Input).value = info.key
        # Pressed, not clicked: after the 401 message the form has grown and, at 80x24, the
        # button's place on screen is not where a click in the test lands every time.
        welcome.query_one("#session-only", Button).press()
        await wait_until(pilot, lambda: app.console_screen is not None, what="the console")
        await settle(pilot)
        assert console(app).header.tenant == "Session Only"
        assert app.connection is not None and app.connection.key_source == "memory"
        after = ProfilesFile.load().path.read_text()
        assert info.key not in after  # the key was never written
        assert after == before + 'tenant_name = "Session Only"\n'  # only the tenant's name


async def test_switching_to_a_profile_without_key_then_cancelling_stays_put(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    first = service.new_tenant("Stay Put")
    save_profile("one", service.base_url, first.key, active=True)
    save_profile("two", service.base_url, None)
    app = TenantConsoleApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.switch_profile("two")
        await settle(pilot)
        assert isinstance(app.screen, KeyPrompt)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is console(app)
        assert console(app).header.tenant == "Stay Put"


async def test_the_picker_shows_url_tenant_and_label_and_only_m_changes_the_default(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    first = service.new_tenant("Picker Prod")
    second = service.new_tenant("Picker Staging")
    save_profile("prod", service.base_url, first.key, active=True)
    profiles = ProfilesFile.load()
    profiles.profiles["prod"] = Profile("prod", service.base_url, label="PROD", color="red")
    profiles.save()
    save_profile("staging", service.base_url, second.key)
    app = TenantConsoleApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        header = console(app).header
        assert (header.badge, header.badge_color) == ("PROD", "red")
        assert header.render().plain.startswith(" PROD ")
        # the tenant's name is remembered with the profile on a successful connect
        assert ProfilesFile.load().profiles["prod"].tenant_name == "Picker Prod"

        await pilot.press("p")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, ProfilePicker)
        options = picker.query_one(OptionList)
        lines = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert lines[0].startswith("● prod")
        assert "PROD" in lines[0] and service.base_url in lines[0]
        assert "tenant Picker Prod" in lines[0] and "(default)" in lines[0]
        assert service.base_url in lines[1] and "(default)" not in lines[1]

        await pilot.press("down", "enter")
        await settle(pilot)
        assert console(app).header.tenant == "Picker Staging"
        assert console(app).header.badge == ""
        assert ProfilesFile.load().active == "prod"  # switching is for this session

        await pilot.press("p")
        await settle(pilot)
        await pilot.press("m")
        await settle(pilot)
        assert ProfilesFile.load().active == "staging"  # asked for: now the default
        options = app.screen.query_one(OptionList)
        assert "(default)" in str(options.get_option_at_index(1).prompt)
        await pilot.press("escape")


class LockedKeyring(MemoryKeyring):
    """A keyring that is there but locked: every read is refused."""

    def get_password(self, service: str, username: str) -> str | None:
        raise KeyringLocked("the collection is locked")


async def test_a_locked_keyring_at_start_says_so_instead_of_a_blank_screen(
    service: Any, saved_profiles: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    save_profile("prod", service.base_url, None, active=True)
    monkeypatch.setattr(keyring.core, "_keyring_backend", LockedKeyring())
    app = TenantConsoleApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        welcome = app.screen
        assert isinstance(welcome, WelcomeScreen)
        intro = str(welcome.query_one("#welcome-intro", Static).content)
        assert "the keyring is locked" in intro
        assert welcome.query_one("#session-only").display
        assert welcome.query_one("#api-key").has_focus
        title = welcome.query_one(".dialog-title", Static)
        assert title.region.y >= 0 and title.region.height == 1  # in view at 80x24
        assert welcome.query_one("#welcome").scroll_y == 0


async def test_welcome_without_keyring_adds_a_profile_for_this_session_only(
    service: Any, saved_profiles: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Passing Through")
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())
    app = TenantConsoleApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        welcome = app.screen
        assert isinstance(welcome, WelcomeScreen) and welcome.connection is None
        assert "this session only" in welcome.message_text
        welcome.query_one("#profile-name", Input).value = "temp"
        welcome.query_one("#base-url", Input).value = service.base_url
        welcome.query_one("#api-key", Input).value = info.key
        await pilot.click("#session-only")
        await settle(pilot)
        assert console(app).header.tenant == "Passing Through"
        assert console(app).header.profile == "temp"
        assert not ProfilesFile.load().path.exists()  # nothing written


async def test_the_key_prompt_offers_this_session_only_without_a_keyring(
    service: Any, saved_profiles: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Prompted Session")
    save_profile("prod", service.base_url, None, active=True)
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", "revoked-env-key-" + "e" * 20)
    app = TenantConsoleApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.key_rejected
        app.prompt_new_key()
        await settle(pilot)
        prompt = app.screen
        assert isinstance(prompt, KeyPrompt)
        assert prompt.query_one("#key-session").display
        assert "this session only" in prompt.message_text
        prompt.query_one("#key-input", Input).value = info.key
        await pilot.click("#key-session")
        await settle(pilot)
        assert console(app).header.tenant == "Prompted Session"
        assert app.connection is not None and app.connection.key_source == "memory"
        assert not app.key_rejected


async def test_enter_on_the_welcome_without_a_keyring_uses_the_key_for_this_session(
    service: Any, saved_profiles: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enter does what can succeed there: with no keyring, this session only (never a failed
    store first)."""
    info = service.new_tenant("Enter Works")
    save_profile("prod", service.base_url, None, active=True)
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())
    app = TenantConsoleApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        welcome = app.screen
        assert isinstance(welcome, WelcomeScreen)
        await wait_until(pilot, lambda: welcome.keyring_problem is not None, what="the probe")
        assert not welcome.query_one("#save-profile").display  # storing cannot succeed here
        welcome.query_one("#api-key", Input).value = info.key
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.console_screen is not None, what="the console")
        await settle(pilot)
        assert console(app).header.tenant == "Enter Works"
        assert app.connection is not None and app.connection.key_source == "memory"


async def test_a_profile_whose_variable_is_unset_asks_for_a_key_for_this_session_only(
    service: Any, saved_profiles: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("From A Variable")
    monkeypatch.delenv("ACME_KEY", raising=False)
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", service.base_url, key_env="ACME_KEY"))
    profiles.save()
    app = TenantConsoleApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        welcome = app.screen
        assert isinstance(welcome, WelcomeScreen) and welcome.connection is not None
        assert welcome.connection.key_origin == "$ACME_KEY"
        await wait_until(pilot, lambda: "$ACME_KEY" in welcome.message_text, what="the note")
        text = " ".join(str(s.content) for s in welcome.query("Static"))
        assert "$ACME_KEY, which is not set" in text
        welcome.query_one("#api-key", Input).value = info.key
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.console_screen is not None, what="the console")
        await settle(pilot)
        assert console(app).header.tenant == "From A Variable"
        assert saved_profiles.entries == {}  # the key went nowhere but memory


async def test_a_profile_whose_variable_holds_the_key_opens_without_a_keyring(
    service: Any, saved_profiles: MemoryKeyring, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Variable Tenant")
    monkeypatch.setenv("ACME_KEY", info.key)
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", service.base_url, key_env="ACME_KEY"))
    profiles.save()
    app = TenantConsoleApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert console(app).header.tenant == "Variable Tenant"
        assert app.connection is not None and app.connection.key_source == "variable"
