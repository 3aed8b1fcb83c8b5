"""The snapshot tests' one way to photograph a scene of the deterministic demo: the app built
as the docs' screenshots build it, the keys played, an optional last step, the cursors
steadied (a blinking cursor would make the SVG differ run to run), then compared."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from form_host import steady_cursors

from console.tui.start.screenshots import Scene, build_app, play

SIZES = [(80, 24), (200, 60)]
IDS = ["80x24", "200x60"]

Step = Callable[[Any], Awaitable[None]]


def check_scene(
    demo: Any,
    snap_compare: Any,
    size: tuple[int, int],
    scene: Scene,
    then: Step | None = None,
) -> bool:
    """Whether `scene` on `demo` at `size` (after `then`, if given) matches its snapshot."""
    app = build_app(scene, demo.base_url, demo.key)

    async def run_before(pilot: Any) -> None:
        await play(scene, pilot)
        if then is not None:
            await then(pilot)
        steady_cursors(pilot.app.screen)
        await pilot.pause()

    return bool(snap_compare(app, terminal_size=size, run_before=run_before))
