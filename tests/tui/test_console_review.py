"""The access review and who-holds-a-permission in the console, on a tenant of 300
applications (three pages of 100): each flag, the filter by flag, escape stopping the walk,
who holds a permission directly or through a rule, the export from the view, failures."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from console_support import SIZE, make_app, resource_list, settle
from hosted_service import KEY as HOSTED_KEY
from hosted_service import HostedService
from local_service import RunningService
from review_tenant import EXPECTED_FLAGS, SPECIAL, ReviewTenant, make_review_tenant
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from console.tui.screens.detail import DetailScreen
from console.tui.screens.holders import HoldersScreen
from console.tui.screens.review import ReviewScreen
from console.tui.widgets.path_prompt import PathPrompt
from console.tui.widgets.state_panel import StatePanel


@pytest.fixture(scope="module")
def tenant(service: RunningService) -> ReviewTenant:
    return make_review_tenant(service)


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    """Polls `condition` with a deadline (the walk runs in a worker of its own)."""
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.01)


async def open_review(pilot: Pilot[Any]) -> ReviewScreen:
    await settle(pilot)
    await pilot.press("A")
    await until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the review")
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await until(pilot, lambda: screen.complete or bool(screen.problem_text), "the walk's end")
    await pilot.pause()
    return screen


def shown_names(screen: ReviewScreen) -> list[str]:
    return [row.name for row in screen.shown]


async def test_every_application_is_flagged_as_the_spec_recommends(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        assert screen.pages_read == 3 and screen.total_pages == 3
        assert len(screen.rows) == screen.table.row_count == tenant.total
        flags = {row.name: row.flags for row in screen.rows}
        for name, expected in EXPECTED_FLAGS.items():
            assert flags[name] == expected, name
        fillers = [row for row in screen.rows if row.name.startswith("Filler")]
        assert fillers and not any(row.flags for row in fillers)
        flagged = sum(1 for expected in EXPECTED_FLAGS.values() if expected)
        assert screen.progress_line == (
            f"Access review · {tenant.total} applications · {flagged} flagged"
        )
        # The cells say the same: the Payouts-like revealer's row names its flag.
        index = shown_names(screen).index("Revealer")
        assert "reveal" in str(screen.table.row(index)[2])


async def test_the_filter_by_flag_steps_from_the_keyboard(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("right_square_bracket")
        assert screen.flag_filter == "any"
        assert set(shown_names(screen)) == {n for n, f in EXPECTED_FLAGS.items() if f}
        expected = {
            "management-write": {"Bootstrap management", "Mgmt writer", "Key changer"},
            "reveal": {"Revealer"},
            "never-expires": {"Bootstrap management", "Forever"},
            "changes-keys": {"Bootstrap management", "Key changer"},
            "every-permission": {"Public all", "Private all"},
            "old-key": set(),  # issue 26: every key here was made just now
            "inactive": set(),  # issue 36: so was every application (none is judged yet)
        }
        for flag, names in expected.items():
            await pilot.press("right_square_bracket")
            assert screen.flag_filter == flag
            assert set(shown_names(screen)) == names, flag
            assert screen.table.row_count == len(names)
            assert f"showing {len(names)}" in screen.progress_line
        await pilot.press("left_square_bracket")
        assert screen.flag_filter == "old-key"
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert screen.flag_filter is None
        assert screen.table.row_count == tenant.total


async def test_escape_stops_the_walk_and_keeps_what_was_read(
    service: RunningService, tenant: ReviewTenant
) -> None:
    """Pages 2 and 3 go out together (several pages in flight) and are held back until
    escape was pressed: escape cancels both requests, the walk stops at page 1 and asks for
    nothing more, and a second escape goes back to the console."""
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        client = app.client
        release = asyncio.Event()
        asked: list[int] = []
        cancelled: list[int] = []
        page_json = client.applications.page_json

        async def held_back(page: int = 1, size: int = 20, **options: Any) -> Any:
            asked.append(page)
            if page >= 2:
                try:
                    await release.wait()
                except asyncio.CancelledError:
                    cancelled.append(page)
                    raise
            return await page_json(page=page, size=size, **options)

        client.applications.page_json = held_back
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: screen.pages_read == 1 and asked == [1, 2, 3], "page 1")
        assert screen.walking
        assert "reading page 1 of 3, 100 of 300 applications" in screen.progress_line
        await pilot.press("escape")
        assert not screen.walking and screen.stopped and not screen.complete
        await until(pilot, lambda: sorted(cancelled) == [2, 3], "both requests cancelled")
        release.set()
        await settle(pilot)
        assert asked == [1, 2, 3] and screen.pages_read == 1
        assert len(screen.rows) == screen.table.row_count == 100
        assert "stopped at page 1 of 3, 100 of 300 applications" in screen.progress_line
        assert app.screen is screen
        await pilot.press("escape")
        assert app.screen is app.console_screen


async def test_enter_opens_the_application_above_the_review(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        screen.table.move_cursor(row=shown_names(screen).index("Revealer"))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, DetailScreen), "the detail")
        await settle(pilot)
        detail = app.screen
        assert isinstance(detail, DetailScreen)
        assert detail.item is not None and detail.item.name == "Revealer"
        await pilot.press("escape")
        assert app.screen is screen and screen.table.row_count == tenant.total


def holding_rows(screen: HoldersScreen) -> list[tuple[str, ...]]:
    return [tuple(str(cell) for cell in screen.table.row(i)) for i in range(screen.table.row_count)]


async def test_who_holds_a_permission_from_its_row_directly_or_through_rules(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        permissions = resource_list(app, "permissions")
        index = [p["type"] for p in permissions.items].index("token:read")
        permissions.table.move_cursor(row=index)
        await pilot.press("w")
        await until(pilot, lambda: isinstance(app.screen, HoldersScreen), "who holds")
        screen = app.screen
        assert isinstance(screen, HoldersScreen)
        await until(pilot, lambda: screen.complete, "the walk's end")
        assert screen.permission_held == "token:read"
        rows = [r for r in holding_rows(screen) if not r[0].startswith("Filler")]
        assert sorted(rows) == sorted(
            [
                ("Revealer", "private", "rule", "#1", "reveal", "/bank/", "Reveal /bank/"),
                ("Masker", "private", "rule", "#1", "mask", "/pci/", "Mask /pci/"),
                ("Forever", "private", "direct", "—", "—", "—", "—"),
                ("Private all", "private", "direct", "—", "—", "—", "—"),
                ("Private most", "private", "direct", "—", "—", "—", "—"),
            ]
        )
        assert "5 applications hold it (3 directly; 2 rules grant it)" in screen.progress_line
        assert screen.applications_read == tenant.total


async def test_who_holds_from_the_palette(service: RunningService, tenant: ReviewTenant) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await pilot.press(*"who holds token:search")
        options = palette.query_one("CommandList", OptionList)

        def first() -> str:
            return str(options.get_option_at_index(0).prompt) if options.option_count else ""

        await until(
            pilot, lambda: first().startswith("Who holds token:search\n"), "the palette's hit"
        )
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, HoldersScreen), "who holds")
        screen = app.screen
        assert isinstance(screen, HoldersScreen)
        await until(pilot, lambda: screen.complete, "the walk's end")
        rows = {(r[0], r[2], r[4], r[3]) for r in holding_rows(screen)}
        assert rows == {
            ("Masker", "rule", "redact", "#2"),
            ("Private all", "rule", "redact", "#1"),
            ("Private most", "direct", "—", "—"),
        }


async def export_to(pilot: Pilot[Any], screen: ReviewScreen, path: Path) -> None:
    await pilot.press("X")
    await until(pilot, lambda: isinstance(pilot.app.screen, PathPrompt), "the path prompt")
    pilot.app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await until(pilot, lambda: pilot.app.screen is screen and path.exists(), "the export")
    await settle(pilot)


async def test_export_from_the_view_writes_what_it_shows_without_keys(
    service: RunningService, tenant: ReviewTenant, tmp_path: Path
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        target = tmp_path / "review.json"
        await export_to(pilot, screen, target)
        text = target.read_text()
        document = json.loads(text)
        assert document["complete"] is True
        assert len(document["applications"]) == tenant.total
        revealer = next(a for a in document["applications"] if a["name"] == "Revealer")
        assert revealer["flags"] == ["reveal"]
        assert revealer["rules"][0] == {
            "description": "Reveal /bank/",
            "priority": 1,
            "transform": "reveal",
            "container": "/bank/",
            "permissions": ["token:read"],
        }
        await pilot.press(
            "right_square_bracket", "right_square_bracket", "right_square_bracket"
        )  # any flag, management write, reveal
        assert screen.flag_filter == "reveal"
        csv_target = tmp_path / "reveal.csv"
        await export_to(pilot, screen, csv_target)
        csv_text = csv_target.read_text()
        rows = list(csv.DictReader(io.StringIO(csv_text)))
        assert [(r["name"], r["flags"]) for r in rows] == [("Revealer", "reveal")]
        for key in tenant.keys:
            assert key not in text and key not in csv_text


async def test_a_key_that_may_not_read_applications_says_so(
    service: RunningService, tenant: ReviewTenant
) -> None:
    key = service.new_key(["proxy:read"], tenant.info.key)
    app = make_app(service.base_url, key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.console_screen.action_access_review()  # type: ignore[union-attr]
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: bool(screen.problem_text), "the failure")
        panel = screen.query_one(StatePanel)
        assert panel.kind == "error" and "403" in panel.title_text
        assert "application:read" in panel.message_text
        assert "stopped at page 0" in screen.progress_line


def test_special_applications_cover_each_flag_both_ways() -> None:
    """The tenant above holds, for every flag, an application with it and one without."""
    every = {flag for flags in EXPECTED_FLAGS.values() for flag in flags}
    assert len(every) == 5
    for flag in every:
        assert any(flag not in flags for flags in EXPECTED_FLAGS.values())
    assert set(SPECIAL) < set(EXPECTED_FLAGS)


async def test_a_slow_first_page_says_loading_then_the_rows_have_the_keys(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        client = app.client
        release = asyncio.Event()
        page_json = client.applications.page_json

        async def slow_first(page: int = 1, size: int = 20, **options: Any) -> Any:
            if page == 1:
                await release.wait()
            return await page_json(page=page, size=size, **options)

        client.applications.page_json = slow_first
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        panel = screen.query_one(StatePanel)
        await until(pilot, lambda: panel.kind == "loading", "the loading state")
        assert not screen.table.display
        assert "reading the first page" in screen.progress_line
        release.set()
        await until(pilot, lambda: screen.complete, "the walk's end")
        await pilot.pause()
        assert screen.table.display and panel.kind is None
        assert screen.focused is screen.table
        await pilot.press("right_square_bracket")
        assert screen.flag_filter == "any"


async def test_a_hosted_shaped_tenant_is_reviewed_whole() -> None:
    """Unknown types and permissions, nulls, an item without an id and one that is not an
    object (tests/hosted_service.py): each gets a row, none stops the review or who-holds."""
    with HostedService.running() as hosted:
        app = make_app(hosted.base_url, HOSTED_KEY)
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_review(pilot)
            assert screen.complete and not screen.problem_text
            assert screen.table.row_count == len(screen.rows) == 6
            by_name = {row.name: row for row in screen.rows}
            assert by_name["Browser session broker"].type == "session"
            assert by_name["Reactor runner"].permissions[-1] == "document:read"
            assert sum(not row.readable for row in screen.rows) == 2
            await pilot.press("escape")
            app.push_screen(HoldersScreen("token:create"))
            await until(pilot, lambda: isinstance(app.screen, HoldersScreen), "who holds")
            holders = app.screen
            assert isinstance(holders, HoldersScreen)
            await until(pilot, lambda: holders.complete, "the walk's end")
            names = {h.application.name for h in holders.holdings}
            assert {"Reactor runner", "Checkout web", "Browser session broker"} <= names


async def test_a_rejected_key_says_so_and_k_asks_for_a_new_one(service: RunningService) -> None:
    app = make_app(service.base_url, "rejected-key-0123456789abcdef")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.push_screen(ReviewScreen())
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: bool(screen.problem_text), "the failure")
        assert "401" in screen.query_one(StatePanel).title_text
        await pilot.press("K")
        await until(pilot, lambda: type(app.screen).__name__ == "KeyPrompt", "the key prompt")


async def test_the_palette_on_the_review_filters_by_flag(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await pilot.press(*"show reveal")
        options = palette.query_one("CommandList", OptionList)

        def offered() -> list[str]:
            return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

        await until(pilot, lambda: any("Review: show reveal" in o for o in offered()), "hit")
        assert not any(o.startswith("Access review") for o in offered())
        for _ in range(options.option_count):  # to the hit, whatever its rank
            highlighted = options.get_option_at_index(options.highlighted or 0)
            if str(highlighted.prompt).startswith("Review: show reveal"):
                break
            await pilot.press("down")
        await pilot.press("enter")
        await until(pilot, lambda: app.screen is screen, "the review again")
        assert screen.flag_filter == "reveal"
        assert shown_names(screen) == ["Revealer"]
