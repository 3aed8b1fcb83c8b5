"""The dialogs on their own: behaviour, and their looks at 120x40 (keys always masked)."""

from __future__ import annotations

from typing import Any

import pytest
from form_host import SIZE, FormHost, wait_until
from textual.widgets import Button, Input

from console.tui.modals import (
    CodeWarningModal,
    ConfirmModal,
    DiscardChangesModal,
    FieldChange,
    LostUpdateModal,
    RegenerateConfirm,
    TypeToConfirmModal,
)

FAKE_KEY = "fake-key-for-snapshots-0123456789abcdef"


def hosting(screen: Any) -> FormHost:
    return FormHost(lambda _client: screen)


def delete_confirm() -> ConfirmModal:
    return ConfirmModal(
        'Delete application "Checkout backend"?',
        "Its API key stops working at once.",
        confirm_label="Delete",
    )


def lost_update() -> LostUpdateModal:
    return LostUpdateModal(
        'The proxy "Card collection"',
        [
            FieldChange("Name", "Card collection (EU)", "Card collection"),
            FieldChange("Destination URL", "https://eu.example.com", "https://api.example.com"),
            FieldChange("Request transform", "12 lines, 310 characters", "(none)"),
        ],
        changed_when="modified 2026-11-22 10:05 UTC",
    )


# ----- behaviour ---------------------------------------------------------------------------------


async def test_confirm_answers_and_defaults_to_the_safe_choice():
    app = hosting(delete_confirm())
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        assert app.screen.focused.id == "cancel"
        await pilot.press("y")
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result is True
    app = hosting(delete_confirm())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result is False


async def test_arrow_keys_move_between_a_dialogs_buttons():
    app = hosting(DiscardChangesModal("this proxy"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        assert app.screen.focused.id == "cancel"
        await pilot.press("right")
        assert app.screen.focused.id == "confirm"
        await pilot.press("left")
        assert app.screen.focused.id == "cancel"
        await pilot.press("right", "enter")
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result is True


async def test_type_to_confirm_needs_the_exact_name():
    app = hosting(TypeToConfirmModal("Delete the tenant?", "Everything goes.", "Acme"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        modal = app.screen
        await pilot.press(*"acme", "enter")
        assert not app.dismissed and modal.query_one("#confirm", Button).disabled
        modal.query_one("#typed", Input).value = "Acme"
        await pilot.pause()
        await pilot.click("#confirm")
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result is True


async def test_lost_update_modal_defaults_to_keep_editing():
    app = hosting(lost_update())
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.dismissed)
    assert app.result is False


# ----- looks -------------------------------------------------------------------------------------


def test_snapshot_confirm_delete(snap_compare):
    assert snap_compare(hosting(delete_confirm()), terminal_size=SIZE)


def test_snapshot_type_to_confirm(snap_compare):
    modal = TypeToConfirmModal(
        'Delete the tenant "Acme Payments"?',
        "Every application, proxy and formula in it is deleted, and every key of the tenant "
        "stops working at once. This cannot be undone.",
        "Acme Payments",
        confirm_label="Delete tenant",
    )
    assert snap_compare(hosting(modal), terminal_size=SIZE, press=["A", "c", "m", "e"])


def test_snapshot_regenerate_confirm_of_own_key(snap_compare):
    modal = RegenerateConfirm("Bootstrap management", own_key=True)
    assert snap_compare(hosting(modal), terminal_size=SIZE)


def test_snapshot_lost_update(snap_compare):
    assert snap_compare(hosting(lost_update()), terminal_size=SIZE)


def test_snapshot_discard_changes(snap_compare):
    assert snap_compare(hosting(DiscardChangesModal("this proxy")), terminal_size=SIZE)


def test_snapshot_code_warning(snap_compare):
    modal = CodeWarningModal(
        [
            "The code has 2 syntax errors (first at 3:14).",
            "The request transform never assigns module.exports: the service finds no "
            "function to run.",
        ]
    )
    assert snap_compare(hosting(modal), terminal_size=SIZE)


# ----- looks at 80x24 (the key dialog's own are with the welcome and key prompt) -------------

SMALL = (80, 24)


def delete_application_naming_proxies() -> ConfirmModal:
    return ConfirmModal(
        'Delete application "Checkout backend"?',
        "Its API key stops working at once.\n\n7 proxies lose their application, and with it "
        'the key their transforms get: "Edge 0", "Edge 1", "Edge 2", "Edge 3", "Edge 4" '
        "and 2 more.",
        confirm_label="Delete",
    )


SMALL_DIALOGS = {
    "delete-naming-proxies": delete_application_naming_proxies,
    "type-to-confirm": lambda: TypeToConfirmModal(
        'Delete the tenant "Acme Payments"?',
        "Every application, proxy and formula in it is deleted, and every key of the tenant "
        "stops working at once, including the one this console uses. This cannot be undone.",
        "Acme Payments",
        confirm_label="Delete tenant",
    ),
    "regenerate-own-key": lambda: RegenerateConfirm("Bootstrap management", own_key=True),
    "lost-update": lost_update,
    "discard-changes": lambda: DiscardChangesModal("this proxy"),
    "code-warning": lambda: CodeWarningModal(
        [
            "The code has 2 syntax errors (first at 3:14).",
            "The request transform never assigns module.exports: the service finds no "
            "function to run.",
        ]
    ),
}


@pytest.mark.parametrize("name", list(SMALL_DIALOGS))
def test_snapshot_dialog_at_80x24(name, snap_compare):
    assert snap_compare(hosting(SMALL_DIALOGS[name]()), terminal_size=SMALL)
