"""Snapshots of the Logs section at 80x24 and 200x60, on the deterministic demo (frozen time,
fixed ids): the demo's recent log, newest first, the section filtered to one application's
entries as `L` opens it, and enter on the entry of a proxy deleted since."""

from __future__ import annotations

import pytest
from scene_snapshots import IDS, SIZES, scene_checker

from console.tui.browse.logs_look import LOGS
from console.tui.browse.sections import SECTIONS_BY_KEY

LOGS_NUMBER = str(SECTIONS_BY_KEY[LOGS.key].number)


_check = scene_checker("logs", "Logs")


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_logs_section(demo, frozen, snap_compare, size):
    assert _check(demo, snap_compare, size, (LOGS_NUMBER,))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_logs_of_an_application(demo, frozen, snap_compare, size):
    # `L` on the CI deploy pipeline (the third application): its keys created and revoked.
    assert _check(demo, snap_compare, size, ("1", "down", "down", "L"))


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_enter_on_an_entry_of_a_deleted_object(demo, frozen, snap_compare, size):
    # The newest entry is a proxy's deletion: its detail says the proxy is not found.
    assert _check(demo, snap_compare, size, (LOGS_NUMBER, "enter"))
