"""Screenshots of every screen, from the deterministic demo:
`python -m console.tui.start.screenshots`.

The same scenes drive the snapshot tests (tests/tui/test_console_snapshots.py), so what the
README shows is what the tests check. Time is frozen, the zone is UTC, the header shows one
base URL whatever port was free, and nothing secret is on screen (keys are never shown).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from console.tui.browse.sections import Section, sections

if TYPE_CHECKING:
    from textual.app import App
    from textual.pilot import Pilot
    from textual.worker import Worker

    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.start.demo import DemoService

FROZEN_NOW = "2026-11-22T10:00:00+00:00"
SNAPSHOT_PORT = 58400
SIZE = (120, 40)
REJECTED_KEY = "not-a-key-of-this-service-000000"


@dataclass(frozen=True)
class Scene:
    """One screen: which app to build and which keys lead to it."""

    name: str
    title: str
    keys: tuple[str, ...] = ()
    start: str = "demo"
    """"demo", "welcome", "rejected" (a key the service refuses), "estate" (five profiles:
    the demo's, a rejected key, a closed port, a locked keyring, no key) or "two-tenants" (the
    demo's production and staging tenants, as `tenant-console demo` opens them)."""
    snapshot: bool = True
    """False for a form whose layout settles at its own pace (its async fields); the forms'
    own snapshot tests (tests/tui/test_forms.py) check those with the form's own waits."""
    loads: bool = False
    """The keys open a screen that loads behind a LoadingIndicator from a flow that waits on
    a person (a promotion's plan, the tenant diff): wait until the indicator goes."""


def section_scene(section: Section) -> Scene:
    """A section as the console opens it: the first at start, each other by its number."""
    keys = () if section.number == 1 else (section.hotkey,)
    return Scene(section.key.replace("_", "-"), section.title, keys)


SCENES: tuple[Scene, ...] = (
    *(section_scene(section) for section in sections()),
    Scene("proxy-detail", "A proxy, with its transform code", ("2", "enter")),
    Scene(
        "proxy-detail-end", "The same proxy scrolled to its response transform", ("2", "enter", "G")
    ),
    Scene("formula-detail", "A reactor formula, with its code", ("3", *["down"] * 4, "enter")),
    Scene("detail-json", "The raw JSON view of an application", ("enter", "v")),
    Scene(
        "application-keys",
        "An application's keys, the one this session uses marked (N, x, o)",
        ("enter", "G"),
    ),
    Scene("filter", "Proxies filtered on the server", ("2", "slash", *"pay", "enter")),
    Scene("help", "Help: every key", ("question_mark",)),
    Scene("new-application", "A new application: type, permissions, rules", ("n",), snapshot=False),
    Scene(
        "edit-proxy",
        "Editing a proxy: its transform pipelines, step by step",
        # The last proxy, whose response pipeline has three kinds of step: its step list
        # focused (shift+tab from the name: the form, Cancel, Save, the code, the list).
        ("2", "G", "e", *["shift+tab"] * 5),
        snapshot=False,
    ),
    Scene("new-formula", "A new reactor formula", ("3", "n"), snapshot=False),
    Scene("edit-tenant", "Editing the tenant", ("6", "e")),
    Scene(
        "delete-confirm", "Deleting asks first, naming what breaks", ("down", "down", "down", "d")
    ),
    Scene("regenerate-confirm", "Regenerating a key asks first", ("down", "R")),
    Scene("error-401", "A key the service rejects", (), "rejected"),
    Scene("welcome", "Welcome: no profile yet", (), "welcome"),
    # Its own snapshot tests (tests/tui/test_overview.py) check it at 80x24 and 200x60.
    Scene("overview", "Every profile at once", ("P",), "estate", snapshot=False),
    # Their own snapshot tests (tests/tui/test_review_snapshots.py) check them at 80x24 and up.
    Scene("access-review", "The access review", ("A",), snapshot=False),
    Scene("who-holds", "Who holds token:read", ("5", "down", "down", "w"), snapshot=False),
    # The journal is the profile's: other tests' changes could show there, so no snapshot.
    Scene("history", "History: every change, to undo", ("H",), snapshot=False),
    # A real test-run in the engine: its speed is the machine's, so no snapshot of it here
    # (tests/tui/test_test_run.py has its own, timings hidden).
    Scene(
        "test-run",
        "A formula's test-run, passing (ctrl+r twice: open, run)",
        ("3", *["down"] * 4, "enter", "ctrl+r", "ctrl+r"),
        snapshot=False,
    ),
    Scene("rotate-key", "Rotating an application's key, step by step", ("enter", "o")),
    # The palette's commands come from every provider: each new command would change it.
    Scene(
        "palette",
        "The command palette, this screen's commands first",
        ("ctrl+p",),
        snapshot=False,
    ),
    Scene("profile-picker", "Switching profile (p)", ("p",), "two-tenants", snapshot=False),
    Scene(
        "copy-plan",
        "Copy to profile: the plan before anything changes",
        ("G", "c", "enter"),  # the last application, which staging lacks
        "two-tenants",
        snapshot=False,
        loads=True,
    ),
    Scene(
        "tenant-diff",
        "The whole-tenant diff with another profile",
        ("ctrl+p", *"compare", "enter", "enter"),
        "two-tenants",
        snapshot=False,
        loads=True,
    ),
)


@contextmanager
def deterministic_env() -> Iterator[None]:
    """Frozen time and UTC for this process (the console) and the service it starts."""
    saved = {name: os.environ.get(name) for name in ("TZ", "TENANT_CONSOLE_FROZEN_NOW")}
    os.environ["TZ"] = "UTC"
    os.environ["TENANT_CONSOLE_FROZEN_NOW"] = FROZEN_NOW
    time.tzset()
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        time.tzset()


def start_demo_service(*, staging: bool = False) -> DemoService:
    """The seeded service on the fixed port, or a free one if another process holds it;
    `staging`: with the demo's staging tenant too (the "two-tenants" scenes)."""
    from console.tui.start.demo import DemoService, DemoServiceError

    try:
        return DemoService(port=SNAPSHOT_PORT, frozen_now=FROZEN_NOW, staging=staging).start()
    except DemoServiceError:
        return DemoService(port=None, frozen_now=FROZEN_NOW, staging=staging).start()


def build_app(
    scene: Scene, base_url: str, key: str, staging_key: str | None = None
) -> TenantConsoleApp:
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection, MemoryProfiles

    if scene.start == "welcome":
        return TenantConsoleApp(profiles=MemoryProfiles([]))
    if scene.start == "rejected":
        key = REJECTED_KEY
    shown = f"http://127.0.0.1:{SNAPSHOT_PORT}"  # the same picture whichever port was free
    if scene.start == "estate":
        return TenantConsoleApp(profiles=MemoryProfiles(estate(base_url, key, shown)))
    if scene.start == "two-tenants":
        assert staging_key is not None, "the tenants scenes need the demo's staging tenant"
        tenants = [
            Connection("production", base_url, key, display_url=shown, badge="PROD", color="red"),
            Connection(
                "staging", base_url, staging_key, display_url=shown, badge="STAGE", color="yellow"
            ),
        ]
        return TenantConsoleApp(profiles=MemoryProfiles(tenants))
    return TenantConsoleApp(connection=Connection("demo", base_url, key, display_url=shown))


CLOSED_PORT_URL = "http://127.0.0.1:9"
"""A loopback port nothing listens on (discard): the overview's unreachable profile."""


def estate(base_url: str, key: str, shown: str) -> list[Connection]:
    """The overview's profiles: one of each kind of row, the demo's first (the current one)."""
    from console.tui.base.connection import Connection

    locked = "No usable OS keyring: the keyring is locked. Unlock it and try again."
    return [
        Connection("demo", base_url, key, display_url=shown, badge="PROD", color="red"),
        Connection("staging", base_url, REJECTED_KEY, display_url=shown, badge="STAGE"),
        Connection("legacy", CLOSED_PORT_URL, "legacy-key-" + "0" * 24),
        Connection("eu-payments", base_url, None, problem=locked, display_url=shown),
        Connection("sandbox", base_url, None, display_url=shown),
    ]


def _busy(app: App[int]) -> list[Worker[object]]:
    """Workers still fetching. A change flow ("change" group) or a promotion ("promote")
    waits on its open dialog or form until a person answers, so it never counts."""
    return [
        w
        for w in app.workers
        if (w.is_running or w.state.name == "PENDING") and w.group not in ("change", "promote")
    ]


async def settle(pilot: Pilot[int], rounds: int = 10) -> None:
    """Until no fetching worker runs and what they caused is drawn."""
    app = pilot.app
    for _ in range(rounds):
        await pilot.pause()
        busy = _busy(app)
        if not busy:
            await pilot.pause()
            if not _busy(app):
                break
            continue
        await app.workers.wait_for_complete(busy)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def _loaded(pilot: Pilot[int], rounds: int = 600) -> None:
    """Until the screen shows no LoadingIndicator (bounded: a picture of a screen still
    loading is better than a script that never ends)."""
    from textual.widgets import LoadingIndicator

    for _ in range(rounds):
        if not any(w.display for w in pilot.app.screen.query(LoadingIndicator)):
            break
        await pilot.pause(0.05)
    await settle(pilot)


async def play(scene: Scene, pilot: Pilot[int]) -> None:
    """Presses the scene's keys, letting each one's fetches finish."""
    from textual.widgets import Input

    await settle(pilot)
    for key in scene.keys:
        await pilot.press(key)
        await settle(pilot)
    if scene.loads:
        await _loaded(pilot)
    pilot.app.clear_notifications()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False  # a blinking cursor would make each picture differ
    await pilot.pause()


async def _shoot(scene: Scene, service: DemoService, out: Path) -> Path:
    app = build_app(scene, service.base_url, service.key or "", service.staging_key)
    path = out / f"{scene.name}.svg"
    async with app.run_test(size=SIZE) as pilot:
        await play(scene, pilot)
        path.write_text(app.export_screenshot(title=f"tenant-console · {scene.title}"))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--out", default="screenshots", help="directory for the SVG files")
    parser.add_argument(
        "scenes", nargs="*", metavar="SCENE", help="only these scenes (default: every one)"
    )
    args = parser.parse_args(argv)
    chosen = [s for s in SCENES if not args.scenes or s.name in args.scenes]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from console.tui.start.demo import DemoServiceError

    with deterministic_env():
        try:
            service = start_demo_service(staging=True)
        except DemoServiceError as exc:
            print(f"screenshots: {exc}", file=sys.stderr)
            return 1
        try:
            service.use_for_console_data()  # the demo formulas' saved samples (test-run)
            from console.tui.screens import test_run

            test_run.SHOW_TIMINGS = False  # a picture must not show how fast this machine is
            for scene in chosen:
                path = asyncio.run(_shoot(scene, service, out))
                print(f"wrote {path}")
        finally:
            service.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
