"""The one-time key dialog: masked, copied honestly, closed only once the key is safe; and
its looks at 120x40 and 80x24 (the key always masked in snapshots)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from form_host import SIZE, FormHost, wait_until
from textual.widgets import Checkbox, Static

from console.tui.modals import MASK, KeyRevealModal

FAKE_KEY = "fake-key-for-snapshots-0123456789abcdef"
SMALL = (80, 24)


def hosting(modal: KeyRevealModal) -> FormHost:
    return FormHost(lambda _client: modal)


@pytest.fixture
def no_clipboard_tool(monkeypatch: pytest.MonkeyPatch) -> None:
    """As under tmux on a server: only OSC 52, which nothing confirms."""
    monkeypatch.setattr("console.tui.base.clipboard.clipboard_tool", lambda: None)


async def test_key_reveal_is_masked_copyable_and_closed_only_on_purpose(no_clipboard_tool):
    app = hosting(KeyRevealModal(FAKE_KEY, "Checkout backend"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        modal = app.screen
        key = modal.query_one("#key", Static)
        assert str(key.content) == MASK
        assert FAKE_KEY not in repr(modal)
        await pilot.press("y")
        await wait_until(pilot, lambda: "OSC 52" in modal.status_text)
        assert app.clipboard == FAKE_KEY  # sent, but not claimed as copied
        assert not any("Copied" in n or "on the clipboard" in n for n in app.notes)
        assert "may ignore it" in modal.status_text
        await pilot.press("o")  # an unconfirmed copy does not let it close
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is modal and not app.dismissed
        status = modal.query_one("#key-status", Static)
        assert "Not closed (escape)" in str(status.content) and status.has_class("-refused")
        assert not app.notes  # said in the dialog, not in a toast over its buttons
        await pilot.press("v")
        assert str(key.content) == FAKE_KEY
        await pilot.press("v")
        assert str(key.content) == MASK
        await pilot.click("#done")  # shown once: now it may close
        await wait_until(pilot, lambda: app.dismissed)


async def test_key_reveal_closes_after_a_sure_copy_or_when_told_it_is_stored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "clipboard.txt"
    tool = [sys.executable, "-c", f"import sys; open({str(target)!r}, 'w').write(sys.stdin.read())"]
    monkeypatch.setattr("console.tui.base.clipboard.clipboard_tool", lambda: tool)
    app = hosting(KeyRevealModal(FAKE_KEY, "Checkout backend"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        modal = app.screen
        await pilot.press("y")
        await wait_until(pilot, lambda: modal.copied)
        assert target.read_text() == FAKE_KEY
        assert "Copied to the clipboard" in modal.status_text
        await pilot.press("o")
        await wait_until(pilot, lambda: app.dismissed)

    monkeypatch.setattr("console.tui.base.clipboard.clipboard_tool", lambda: None)
    app = hosting(KeyRevealModal(FAKE_KEY, "Checkout backend"))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        await pilot.press("o")
        await pilot.pause()
        assert not app.dismissed
        await pilot.click("#stored")
        await pilot.press("o")
        await wait_until(pilot, lambda: app.dismissed)


@pytest.mark.parametrize("pressed", ["o", "escape", "q"])
async def test_each_refusal_says_why_in_the_dialog_until_the_box_is_ticked(pressed: str) -> None:
    app = hosting(KeyRevealModal(FAKE_KEY, "Checkout backend"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        modal = app.screen
        assert isinstance(modal, KeyRevealModal)
        status = modal.query_one("#key-status", Static)
        assert not status.has_class("-refused")
        await pilot.press(pressed)
        await pilot.pause()
        assert app.screen is modal and not app.dismissed
        assert f"Not closed ({pressed}): the key is shown only once" in modal.status_text
        assert "(t)" in modal.status_text and status.has_class("-refused")
        assert status.region.height and app.screen.find_widget(status)  # on screen at 80x24
        box = modal.query_one("#stored", Checkbox)
        assert app.focused is box  # the way out has the focus
        await pilot.press("t")  # the box's own key ticks it, wherever the focus is
        assert box.value and not status.has_class("-refused")
        await pilot.press(pressed)
        await wait_until(pilot, lambda: app.dismissed)


async def test_the_box_has_a_key_shown_in_its_label() -> None:
    app = hosting(KeyRevealModal(FAKE_KEY, "Checkout backend"))
    async with app.run_test(size=SMALL) as pilot:
        await wait_until(pilot, lambda: app.screen.is_mounted)
        box = app.screen.query_one("#stored", Checkbox)
        assert "(t)" in str(box.label)
        assert app.focused is not box
        await pilot.press("t")
        assert box.value
        await pilot.press("t")
        assert not box.value
        await pilot.press("o")
        await pilot.pause()
        assert not app.dismissed  # unticked again: still refused


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_snapshot_key_reveal_masked(snap_compare, no_clipboard_tool, size):
    modal = KeyRevealModal(FAKE_KEY, "Checkout backend")
    assert snap_compare(hosting(modal), terminal_size=size)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_snapshot_key_reveal_after_regenerate_sent_to_terminal(
    snap_compare, no_clipboard_tool, size
):
    modal = KeyRevealModal(FAKE_KEY, "Checkout backend", regenerated=True)

    async def copy(pilot) -> None:
        await pilot.press("y")
        await wait_until(pilot, lambda: "OSC 52" in modal.status_text)

    assert snap_compare(hosting(modal), terminal_size=size, run_before=copy)
