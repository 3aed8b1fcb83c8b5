"""Snapshots of the access review (80x24 and 200x60) and of who holds a permission, from the
deterministic demo (frozen time, fixed ids) that the console's own snapshots use."""

from __future__ import annotations

from typing import Any

from console.tui.start.screenshots import (
    SCENES,
    Scene,
    build_app,
    play,
)

REVIEW = next(scene for scene in SCENES if scene.name == "access-review")
REVIEW_FILTERED = Scene(
    "access-review-reveal",
    "Filtered by a flag",
    ("A", "right_square_bracket", "right_square_bracket", "right_square_bracket"),
)
WHO_HOLDS = next(scene for scene in SCENES if scene.name == "who-holds")
"""The screenshots' scenes (console/tui/start/screenshots.py), checked here at more sizes."""


def _check(scene: Scene, demo: Any, snap_compare: Any, size: tuple[int, int]) -> bool:
    app = build_app(scene, demo.base_url, demo.key)

    async def run_before(pilot: Any) -> None:
        await play(scene, pilot)

    return bool(snap_compare(app, terminal_size=size, run_before=run_before))


def test_review_80x24(demo: Any, frozen: None, snap_compare: Any) -> None:
    assert _check(REVIEW, demo, snap_compare, (80, 24))


def test_review_200x60(demo: Any, frozen: None, snap_compare: Any) -> None:
    assert _check(REVIEW, demo, snap_compare, (200, 60))


def test_review_filtered_by_a_flag_120x40(demo: Any, frozen: None, snap_compare: Any) -> None:
    assert _check(REVIEW_FILTERED, demo, snap_compare, (120, 40))


def test_who_holds_120x40(demo: Any, frozen: None, snap_compare: Any) -> None:
    assert _check(WHO_HOLDS, demo, snap_compare, (120, 40))


def test_who_holds_80x24(demo: Any, frozen: None, snap_compare: Any) -> None:
    assert _check(WHO_HOLDS, demo, snap_compare, (80, 24))
