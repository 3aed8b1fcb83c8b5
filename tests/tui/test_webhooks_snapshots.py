"""Snapshots of the Webhooks section and its form at 80x24 and 200x60, on the deterministic
demo (frozen time, fixed ids): production's two webhooks, "Local listen" enabled and "Ledger
sync" disabled by the service with its reason; the new webhook's form with the service's
event types filtered to the reactors' and two of them ticked.

No snapshot shows the verification public key: the local service makes its key pair on
first need, so it differs from run to run (tests/tui/test_webhooks.py checks it instead)."""

from __future__ import annotations

from typing import Any

import pytest
from scene_snapshots import IDS, SIZES, scene_checker

from console.tui.browse.sections import SECTIONS_BY_KEY
from console.tui.start.screenshots import settle


def _webhooks_key() -> str:
    return SECTIONS_BY_KEY["webhooks"].hotkey


_check = scene_checker("webhooks", "Webhooks", _webhooks_key)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_webhooks_section(demo, frozen, snap_compare, size):
    assert _check(demo, snap_compare, size, ())


async def _form_filtered(pilot: Any) -> None:
    from textual.widgets import Input

    from console.tui.forms.event_types import EventTypeChecklist

    form = pilot.app.screen
    checklist = form.query_one("#events", EventTypeChecklist)
    while not checklist.loaded:
        await pilot.pause(0.05)
    form.query_one("#name", Input).value = "Reactor feed"
    form.query_one("#url", Input).value = "https://hooks.example.com/reactors"
    form.query_one("#events-filter", Input).value = "reactor."
    await pilot.pause()
    selection = checklist.selection_list
    selection.select(checklist.shown[0])
    selection.select(checklist.shown[2])
    await settle(pilot)
    form.query_one("#events-filter", Input).focus()  # the events in view, at 80x24 too
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_new_webhook_form_with_the_events_filtered(demo, frozen, snap_compare, size):
    assert _check(demo, snap_compare, size, ("n",), _form_filtered)
