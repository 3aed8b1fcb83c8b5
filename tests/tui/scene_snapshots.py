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
"""A last step a scene's test takes after its keys (a form filled, an answer waited for)."""

Check = Callable[..., bool]
"""A module's check: `check(demo, snap_compare, size, keys, then=None)`."""


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


def scene_checker(name: str, title: str, section_key: Callable[[], str] | None = None) -> Check:
    """The check of a module's scenes `name` ("Webhooks" its `title`): each test gives the
    keys after the section's own (`section_key()`, read when the test runs: the registry
    numbers the sections) and, if it needs one, a last step."""

    def check(
        demo: Any,
        snap_compare: Any,
        size: tuple[int, int],
        keys: tuple[str, ...],
        then: Step | None = None,
    ) -> bool:
        lead = (section_key(),) if section_key is not None else ()
        return check_scene(demo, snap_compare, size, Scene(name, title, (*lead, *keys)), then)

    return check
