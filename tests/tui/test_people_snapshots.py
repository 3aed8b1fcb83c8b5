"""Snapshots of the People section at 80x24 and 200x60, on the deterministic demo (frozen
time, fixed ids): the members (the owner, who is the console's own user, an admin with MFA,
a read-only member without) above the invitations (one pending, one expired); and the
invite dialog with an email refused at its field."""

from __future__ import annotations

from typing import Any

import pytest
from scene_snapshots import IDS, SIZES, scene_checker

from console.tui.browse.sections import SECTIONS_BY_KEY
from console.tui.start.screenshots import settle


def _people_key() -> str:
    return str(SECTIONS_BY_KEY["members"].number)


_check = scene_checker("people", "People", _people_key)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_people_section(demo, frozen, snap_compare, size):
    assert _check(demo, snap_compare, size, ())


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_people_invitations_in_use(demo, frozen, snap_compare, size):
    assert _check(demo, snap_compare, size, ("tab",))


async def _bad_email(pilot: Any) -> None:
    from textual.widgets import Input

    pilot.app.screen.query_one("#email", Input).value = "ada@example"
    await pilot.press("enter")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_invite_dialog_with_its_field_error(demo, frozen, snap_compare, size):
    assert _check(demo, snap_compare, size, ("i",), _bad_email)
