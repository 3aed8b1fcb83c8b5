"""Snapshots of every screen (120x40; 80x24 too for the sections, details, help and usage),
from the deterministic demo (frozen time, fixed ids, fixed port): the same scenes
`python -m console.tui.start.screenshots` writes to screenshots/."""

from __future__ import annotations

from typing import Any

import pytest

from console.tui.start.screenshots import (
    SCENES,
    SIZE,
    Scene,
    build_app,
    play,
)

SNAPSHOT_SCENES = [s for s in SCENES if s.snapshot]

SMALL = (80, 24)
SMALL_SCENES = [
    s
    for s in SNAPSHOT_SCENES
    if s.name
    in {
        "applications",
        "proxies",
        "reactor-formulas",
        "reactors",
        "permissions",
        "tenant",
        "usage",
        "proxy-detail",
        "proxy-detail-end",
        "formula-detail",
        "application-keys",
        "help",
    }
]
"""The scenes that must also work on the smallest terminal the console supports."""


def _check(scene: Scene, demo: Any, snap_compare: Any, size: tuple[int, int]) -> bool:
    app = build_app(scene, demo.base_url, demo.key)

    async def run_before(pilot: Any) -> None:
        await play(scene, pilot)

    return bool(snap_compare(app, terminal_size=size, run_before=run_before))


@pytest.mark.parametrize("scene", SNAPSHOT_SCENES, ids=[s.name for s in SNAPSHOT_SCENES])
def test_screen(scene: Scene, demo: Any, frozen: None, snap_compare: Any) -> None:
    assert _check(scene, demo, snap_compare, SIZE)


@pytest.mark.parametrize("scene", SMALL_SCENES, ids=[s.name for s in SMALL_SCENES])
def test_screen_80x24(scene: Scene, demo: Any, frozen: None, snap_compare: Any) -> None:
    assert _check(scene, demo, snap_compare, SMALL)
