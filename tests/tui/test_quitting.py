"""ctrl+c as k9s and lazygit users expect (issue 33): it copies a selection where there is one,
quits where there is nothing to copy, asks first where a form holds unsaved changes, and is
refused, saying why in the dialog, while a key shown once is not yet safe; q and ctrl+q too."""

from __future__ import annotations

from typing import Any

import pytest
from console_support import make_app, settle
from form_host import screen_is, wait_until
from textual.widgets import Input

from console.tui.forms import ApplicationForm
from console.tui.modals import KeyRevealModal, QuitUnsavedModal
from console.tui.widgets.path_prompt import PathPrompt

SMALL = (80, 24)
FAKE_KEY = "fake-key-for-quitting-0123456789abcdef"


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Quitting tenant")


def quit_asked(app: Any) -> bool:
    return app.return_code is not None


@pytest.mark.parametrize("key", ["ctrl+c", "q", "ctrl+q"])
async def test_a_quit_key_on_a_list_quits(service: Any, tenant: Any, key: str) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert not quit_asked(app)
        await pilot.press(key)
        await wait_until(pilot, lambda: quit_asked(app))
        assert app.return_code == 0


async def test_ctrl_c_copies_a_selection_then_asks_on_an_edited_form(
    service: Any, tenant: Any
) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await wait_until(pilot, screen_is(app, ApplicationForm))
        form = app.screen
        name = form.query_one("#name", Input)
        name.focus()
        name.value = "Copied name"
        await pilot.pause()
        assert form.dirty
        name.select_all()
        await pilot.press("ctrl+c")  # a selection: copied, nothing asked
        await pilot.pause()
        assert app.clipboard == "Copied name"
        assert app.screen is form and not quit_asked(app)

        name.selection = type(name.selection)(0, 0)  # nothing selected any more
        await pilot.press("ctrl+c")
        await wait_until(pilot, screen_is(app, QuitUnsavedModal))
        assert "this application" in app.screen.body_text
        await pilot.press("n")  # keep editing
        await wait_until(pilot, lambda: app.screen is form)
        assert not quit_asked(app) and name.value == "Copied name"

        await pilot.press("ctrl+c")
        await wait_until(pilot, screen_is(app, QuitUnsavedModal))
        await pilot.press("ctrl+c")  # the same key again: quit anyway
        await wait_until(pilot, lambda: quit_asked(app))


async def test_ctrl_c_on_an_unchanged_form_quits_without_asking(service: Any, tenant: Any) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await wait_until(pilot, screen_is(app, ApplicationForm))
        assert not app.screen.dirty
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: quit_asked(app))


async def test_quitting_is_refused_while_a_new_key_is_not_safe(service: Any, tenant: Any) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        modal = KeyRevealModal(FAKE_KEY, "Checkout backend")
        app.push_screen(modal)
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        for key, said in (("ctrl+c", "ctrl+c"), ("ctrl+q", "quit"), ("q", "q")):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen is modal and not quit_asked(app), key
            assert f"Not closed ({said})" in modal.status_text
        await pilot.press("w")  # the file prompt above hides the dialog: a toast says why
        await wait_until(pilot, screen_is(app, PathPrompt))
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not quit_asked(app)
        assert any(n.title == "Not quit" and "(quit)" in n.message for n in app._notifications)
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is modal)
        await pilot.press("t")
        await pilot.press("ctrl+c")  # stored: nothing is lost now
        await wait_until(pilot, lambda: quit_asked(app))


async def test_q_quits_the_no_usable_key_screen_unless_a_key_is_being_typed() -> None:
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection, MemoryProfiles
    from console.tui.screens.welcome import WelcomeScreen

    def no_key_app() -> TenantConsoleApp:
        prod = Connection("prod", "https://admin.example.com", None, "none", problem="No key.")
        return TenantConsoleApp(profiles=MemoryProfiles([prod]))

    app = no_key_app()
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(pilot, screen_is(app, WelcomeScreen))
        field = app.screen.query_one("#api-key", Input)
        assert app.focused is field
        await pilot.press("a", "b", "q")  # a key being typed: q is one of its letters
        assert field.value == "abq" and not quit_asked(app)
        field.value = ""
        await pilot.press("q")
        await wait_until(pilot, lambda: quit_asked(app))

    app = TenantConsoleApp(profiles=MemoryProfiles([]))  # adding a profile: q is a letter
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(pilot, screen_is(app, WelcomeScreen))
        await pilot.press("q")
        assert app.screen.query_one("#profile-name", Input).value == "q"
        assert not quit_asked(app)
