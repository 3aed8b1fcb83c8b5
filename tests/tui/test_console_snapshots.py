"""Snapshots (120x40) of every screen, from the deterministic demo (frozen time, fixed ids,
fixed port): the same scenes `python -m console.tui.screenshots` writes to screenshots/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from console.tui.screenshots import (
    SCENES,
    SIZE,
    Scene,
    build_app,
    deterministic_env,
    play,
    start_demo_service,
)


@pytest.fixture(scope="module")
def demo() -> Iterator[Any]:
    with deterministic_env():
        service = start_demo_service()
        try:
            yield service
        finally:
            service.stop()


@pytest.fixture
def frozen(demo: Any) -> Iterator[None]:
    with deterministic_env():
        yield


SNAPSHOT_SCENES = [s for s in SCENES if s.snapshot]


@pytest.mark.parametrize("scene", SNAPSHOT_SCENES, ids=[s.name for s in SNAPSHOT_SCENES])
def test_screen(scene: Scene, demo: Any, frozen: None, snap_compare: Any) -> None:
    app = build_app(scene, demo.base_url, demo.key)

    async def run_before(pilot: Any) -> None:
        await play(scene, pilot)

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
