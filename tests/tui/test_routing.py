"""The app is the only router (issue 24): no module of console/ but console/tui/app.py pushes,
switches or installs a screen, and a detail is opened one way, whoever asks for it.

The rule is read from the source with `ast` (every attribute named like Textual's screen-stack
methods counts, called or passed on), so a new `self.app.push_screen(...)` fails here; the
behaviour tests drive the real app on a local service.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from console_support import SIZE, Seeder, make_app, resource_list, settle
from form_host import wait_until
from local_service import RunningService
from review_tenant import ReviewTenant, make_review_tenant
from textual.pilot import Pilot

from console.tui.app import TenantConsoleApp
from console.tui.base.shell import ConsoleShell
from console.tui.browse.kinds import APPLICATIONS, PROXIES
from console.tui.browse.sections import SECTIONS_BY_KEY
from console.tui.screens.detail import DetailScreen
from console.tui.screens.review import ReviewScreen

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "console"
ROUTER = PACKAGE / "tui" / "app.py"
"""The one module that opens screens."""

SCREEN_STACK = frozenset({"push_screen", "push_screen_wait", "switch_screen", "install_screen"})
"""Textual's ways to put a screen on the stack (pop_screen and dismiss close one: allowed)."""

DETAIL_SCREEN = PACKAGE / "tui" / "screens" / "detail.py"


def stack_uses(source: str, filename: str = "<source>") -> Iterator[tuple[int, str]]:
    """(line, name) of each use of a screen-stack method in `source`: an attribute
    (`self.app.push_screen`, called or not), or its name given to getattr."""
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Attribute) and node.attr in SCREEN_STACK:
            yield node.lineno, node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in SCREEN_STACK
        ):
            yield node.lineno, str(node.args[1].value)


def constructions(source: str, class_name: str, filename: str = "<source>") -> list[int]:
    """Lines where `class_name(...)` is called (by name or as `module.ClassName`)."""
    lines = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == class_name:
                lines.append(node.lineno)
    return lines


def console_modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_detector_finds_each_way_to_push() -> None:
    source = (
        "def f(self, app, screen):\n"
        "    self.app.push_screen(screen)\n"
        "    await app.push_screen_wait(screen)\n"
        "    app.switch_screen(screen)\n"
        "    later = partial(app.install_screen, screen, 'name')\n"
        "    getattr(app, 'push_screen')(screen)\n"
        "    app.pop_screen()\n"
        "    app.ask(screen)\n"
    )
    assert [name for _, name in sorted(stack_uses(source))] == [
        "push_screen",
        "push_screen_wait",
        "switch_screen",
        "install_screen",
        "push_screen",
    ]
    assert constructions("x = DetailScreen(k)\ny = detail.DetailScreen(k)\n", "DetailScreen") == [
        1,
        2,
    ]


def test_only_the_app_puts_a_screen_on_the_stack() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}: {name}"
        for path in console_modules()
        if path != ROUTER
        for line, name in stack_uses(path.read_text(encoding="utf-8"), str(path))
    ]
    assert not offenders, (
        "Only console/tui/app.py opens screens; ask the app (ConsoleShell: ask, show, "
        "open_...) instead:\n" + "\n".join(offenders)
    )
    assert list(stack_uses(ROUTER.read_text(encoding="utf-8")))  # the router does push


def test_only_the_app_makes_a_detail_screen() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in console_modules()
        if path not in (ROUTER, DETAIL_SCREEN)
        for line in constructions(path.read_text(encoding="utf-8"), "DetailScreen", str(path))
    ]
    assert not offenders, "A detail opens through open_detail or open_detail_by_id: " + str(
        offenders
    )


def test_the_shell_offers_no_way_to_push() -> None:
    members = set(dir(ConsoleShell))
    assert not members & SCREEN_STACK
    assert {"ask", "show", "open_rotation", "open_promotion", "open_estate_diff"} <= members


# ---- one way to a detail ------------------------------------------------------------------


@pytest.fixture(scope="module")
def tenant(service: RunningService) -> ReviewTenant:
    return make_review_tenant(service)


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    await wait_until(pilot, condition, timeout=20, what=what)


async def console_with_applications(pilot: Pilot[Any]) -> TenantConsoleApp:
    app = pilot.app
    assert isinstance(app, TenantConsoleApp)
    await settle(pilot)
    await until(pilot, lambda: bool(resource_list(app, "applications").items), "the rows")
    return app


async def open_review(pilot: Pilot[Any]) -> ReviewScreen:
    """The access review (as `A` on the console, or the palette's command from anywhere)."""
    console_app = pilot.app
    assert isinstance(console_app, TenantConsoleApp)
    console_app.open_access_review()
    await until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the review")
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await until(pilot, lambda: screen.complete or bool(screen.problem_text), "the walk's end")
    await pilot.pause()
    return screen


async def detail_on_top(pilot: Pilot[Any], name: str) -> DetailScreen:
    app = pilot.app
    await until(
        pilot,
        lambda: (
            isinstance(app.screen, DetailScreen)
            and app.screen.item is not None
            and APPLICATIONS.item_name(app.screen.item) == name
        ),
        f"the detail of {name}",
    )
    await settle(pilot)
    detail = app.screen
    assert isinstance(detail, DetailScreen)
    return detail


async def test_a_review_row_opens_its_detail_over_the_review(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await console_with_applications(pilot)
        review = await open_review(pilot)
        review.table.move_cursor(row=[row.name for row in review.shown].index("Revealer"))
        await pilot.press("enter")
        detail = await detail_on_top(pilot, "Revealer")
        assert app.screen_stack[-3:] == [app.console_screen, review, detail]  # over the walk
        await pilot.press("escape")
        assert app.screen is review


async def test_the_palettes_open_by_id_lands_as_open_detail_does(
    service: RunningService,
) -> None:
    """The palette's hit for an object the lists do not hold (commands.ObjectProvider calls
    open_detail_by_id) lands as a hit for a listed object (open_detail) does: over the
    console screen, whatever was above it closed (the review, another detail: never a stack
    of details), with the list's names for the ids it shows."""
    info = service.new_tenant("Routing")
    seed = Seeder(service.base_url, info.key)
    backend = seed.application("Backend")
    seed.proxy("Alpha hook", application={"id": backend["id"]})
    beta = seed.proxy("Beta hook", application={"id": backend["id"]})
    app = make_app(service.base_url, info.key)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press(str(SECTIONS_BY_KEY["proxies"].number))
            proxies = resource_list(app, "proxies")
            await until(pilot, lambda: len(proxies.items) == 2, "the proxies")
            labels = dict(proxies.labels)
            assert labels.get(backend["id"]) == "Backend"  # the list names their application
            # Renamed behind the list's back: a detail given the list's names says "Backend",
            # one that looked its names up itself would say "Backend 2".
            renamed = seed.http.put(
                f"/applications/{backend['id']}",
                json={"name": "Backend 2", "permissions": backend["permissions"]},
            )
            assert renamed.status_code == 200, renamed.text
            await check_landings(pilot, app, proxies.items, beta["id"], labels)
    finally:
        seed.close()


async def check_landings(
    pilot: Pilot[Any],
    app: TenantConsoleApp,
    rows: list[Any],
    beta_id: str,
    labels: dict[str, str],
) -> None:
    console = app.console_screen
    alpha = next(row for row in rows if PROXIES.item_name(row) == "Alpha hook")
    app.open_detail(PROXIES, alpha)
    listed = await detail_on_top(pilot, "Alpha hook")
    assert app.screen_stack[-2:] == [console, listed]
    assert labels.items() <= listed.labels.items()

    review = await open_review(pilot)  # above the detail
    assert app.screen_stack[-3:] == [console, listed, review]
    app.open_detail_by_id(PROXIES, beta_id)
    by_id = await detail_on_top(pilot, "Beta hook")
    assert app.screen_stack[-2:] == [console, by_id]  # the review and the detail closed
    assert labels.items() <= by_id.labels.items()  # the list's names, as open_detail's

    application_id = next(i for i, name in labels.items() if name == "Backend")
    app.open_detail_by_id(APPLICATIONS, application_id)  # from a detail: it replaces it
    last = await detail_on_top(pilot, "Backend 2")
    assert app.screen_stack[-2:] == [console, last]
    await pilot.press("escape")
    assert app.screen is console
