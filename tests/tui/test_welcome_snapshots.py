"""The welcome screen (no profile; a profile without a usable key) and the key prompt at
80x24 and 120x40: title, message and every button in view. No key ever appears."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from form_host import CONSOLE_CSS, FormHost, wait_until

from console.tui.app import TenantConsoleApp
from console.tui.base.connection import Connection, MemoryProfiles
from console.tui.screens.profiles import KeyPrompt

SIZES = [(80, 24), (120, 40)]
IDS = ["80x24", "120x40"]
NO_KEYRING = (
    "No usable OS keyring: no keyring backend was found. API keys are never written in "
    "plain text, so either install or unlock a keyring backend (GNOME Keyring or KWallet "
    "through the Secret Service, the macOS Keychain, the Windows Credential Locker), or set "
    "TENANT_CONSOLE_API_KEY for this session (with TENANT_CONSOLE_BASE_URL too, no profile "
    "is needed)."
)
URL = "https://admin.example.com"


class StyledHost(FormHost):
    """The dialog host, with the console's stylesheet."""

    CSS_PATH = CONSOLE_CSS


class NoKeyringProfiles(MemoryProfiles):
    """Profiles in memory, on a machine that has no usable keyring."""

    def keyring_problem(self) -> str | None:
        return NO_KEYRING


if TYPE_CHECKING:  # stand-ins for the app's roles the key prompt uses, and its profiles
    from console.tui.base.connection import ProfileSource
    from console.tui.base.shell import Connecting, KeyPrompts, SessionHost, Work

    _session: type[SessionHost] = StyledHost
    _connecting: type[Connecting] = StyledHost
    _key_prompts: type[KeyPrompts] = StyledHost
    _workers: type[Work] = StyledHost
    _profiles: type[ProfileSource] = NoKeyringProfiles


async def settled(pilot: Any) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_welcome_without_profiles(snap_compare: Any, size: tuple[int, int]) -> None:
    app = TenantConsoleApp(profiles=MemoryProfiles([]))
    assert snap_compare(app, terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_welcome_for_a_profile_without_a_usable_key(
    snap_compare: Any, size: tuple[int, int]
) -> None:
    prod = Connection("prod", URL, None, "none", problem=NO_KEYRING)
    app = TenantConsoleApp(profiles=NoKeyringProfiles([prod]))
    assert snap_compare(app, terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_snapshot_key_prompt_without_a_keyring(snap_compare: Any, size: tuple[int, int]) -> None:
    prod = Connection("prod", URL, "old-key-never-shown-0123456789", "keyring")
    prompt = KeyPrompt(prod, "The service rejected the key of prod.")
    host = StyledHost(lambda _client: prompt, profiles=NoKeyringProfiles([prod]))

    async def rejected(pilot: Any) -> None:
        await wait_until(pilot, lambda: prompt.keyring_problem is not None)
        prompt.query_one("#key-input").value = "typed-key-never-shown-0123456789"  # type: ignore[attr-defined]
        prompt._message(
            "The service rejected this key (401). Nothing was stored: check it and try again.",
            True,
        )
        await pilot.pause()

    assert snap_compare(host, terminal_size=size, run_before=rejected)
