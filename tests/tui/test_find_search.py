"""Finding things in a tenant of a few hundred applications: the live `/` filter (plain and
`column:value`), enter to the server's filter or to the tenant search (progress, escape),
the palette's open-by-name beyond the loaded rows, and sorting every list both ways."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from benchmarks.seeding import seed_applications
from console_support import (
    SIZE,
    Seeder,
    footer_status,
    make_app,
    notifications,
    resource_list,
    settle,
)
from textual.pilot import Pilot
from textual.widgets import Input

from console.tui.base.connection import Connection
from console.tui.browse.kinds import APPLICATIONS
from console.tui.palette.commands import ObjectProvider
from console.tui.palette.list_commands import ListCommands
from console.tui.screens.detail import DetailScreen
from console.tui.start.screenshots import FROZEN_NOW, SNAPSHOT_PORT, deterministic_env
from console.tui.widgets.resource_list import sort_key

APPS = 250
"""Seeded applications: with the bootstrap one, 251, three pages of the search's 100."""

MOMENT = datetime.fromisoformat(FROZEN_NOW)


@pytest.fixture(scope="module")
def big(service: Any) -> Iterator[Any]:
    """A tenant of 250 applications ("Application 00001" ... in that order), written
    straight to the store (seeding.py: as the API would), two proxies and a formula."""
    info = service.new_tenant("Search Corp")
    seed_applications(service.data_dir, info.tenant_id, info.application_id, APPS, moment=MOMENT)
    seeder = Seeder(service.base_url, info.key)
    try:
        seeder.proxy("Orders EU", destination_url="https://eu.example.com/orders")
        seeder.proxy("Billing hook", destination_url="https://billing.example.org/in")
        seeder.formula("Orders scoring")
        yield info
    finally:
        seeder.close()


async def until(pilot: Pilot[Any], condition: Any, what: str, deadline_s: float = 15) -> None:
    """Polls with a deadline (Textual's timers, not sleeps, move the app on)."""
    deadline = time.monotonic() + deadline_s
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await pilot.pause(0.02)


async def typed(pilot: Pilot[Any], text: str) -> None:
    """The focused filter input's text set (each change filters live), the change handled."""
    field = pilot.app.focused
    assert isinstance(field, Input), f"focused: {field}"
    field.value = text
    await pilot.pause()


def names(items: list[dict[str, Any]]) -> list[str]:
    return [item["name"] for item in items]


class PageGate:
    """Holds the tenant search's page `page` (pages of 100) until released: the walk stops
    at a known place, without sleeps."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, page: int) -> None:
        self.page = page
        self.release = asyncio.Event()
        self.waiting = False
        fetch = APPLICATIONS.fetch

        async def gated(client: Any, number: int, size: int, query: Any) -> Any:
            if size == 100 and number >= self.page:
                self.waiting = True
                await self.release.wait()
            return await fetch(client, number, size, query)

        monkeypatch.setattr(APPLICATIONS, "fetch", gated)


# ---- the live filter ---------------------------------------------------------------------


async def test_slash_filters_the_loaded_rows_as_one_types(service: Any, big: Any) -> None:
    app = make_app(service.base_url, big.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        assert len(apps.items) == 50 and apps.has_more
        await pilot.press("slash", *"0001")
        await pilot.pause()
        expected = ["Application 00001", *(f"Application {n:05d}" for n in range(10, 20))]
        assert names(apps.shown_items) == expected
        assert footer_status(app).startswith("11 of 50 loaded rows match")
        await pilot.press("2")  # one more letter: narrower at once, nothing fetched
        await pilot.pause()
        assert names(apps.shown_items) == ["Application 00012"]
        assert apps.pages_fetched == [1] and len(apps.items) == 50
        assert apps.table.row_count == 1

        # column:value, the column named case-insensitively by its label or key
        await typed(pilot, "TYPE:management")
        assert {a["type"] for a in apps.shown_items} == {"management"}
        assert len(apps.shown_items) == 12  # 4, 8, ..., 48
        await typed(pilot, "expires:never")
        assert all(a.get("expires_at") is None for a in apps.shown_items)
        assert len(apps.shown_items) == 45
        await typed(pilot, "perm:1 rule")  # "Permissions / rules", by its start
        assert all(len(a.get("rules") or ()) == 1 for a in apps.shown_items)

        # A word that names no column: the text is matched as typed, and the console says so.
        await typed(pilot, "colour:red")
        field = apps.filter_input
        assert field.has_class("-unknown") and field.value == "colour:red"
        assert "“colour” is no column" in footer_status(app)
        assert apps.shown_items == [] and apps.state_panel.kind == "empty"
        assert "None of the 50 loaded applications match" in apps.state_panel.title_text

        await pilot.press("escape")  # clears: every loaded row again
        await pilot.pause()
        assert apps.live is None and len(apps.shown_items) == 50
        assert not field.has_class("-visible")
        assert footer_status(app).startswith("50 of 251 loaded")


async def test_enter_asks_the_server_for_proxies_and_formulas(service: Any, big: Any) -> None:
    app = make_app(service.base_url, big.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        proxies = resource_list(app, "proxies")
        await pilot.press("slash")
        await typed(pilot, "destination:billing")  # live, on a column the API cannot filter
        assert names(proxies.shown_items) == ["Billing hook"]
        await pilot.press("enter")  # all loaded: the live filter stays, the service is asked
        await settle(pilot)
        assert proxies.query_params == {} and proxies.live is not None
        assert proxies.search is not None and proxies.search.done
        assert names(proxies.shown_items) == ["Billing hook"]
        assert proxies.table.has_focus

        await pilot.press("slash")
        await typed(pilot, "name:orders")
        await pilot.press("enter")  # a name: the server's filter
        await settle(pilot)
        assert proxies.query_params == {"name": "orders"} and proxies.live is None
        assert names(proxies.items) == ["Orders EU"]
        assert footer_status(app).startswith("1 of 1 loaded")

        await pilot.press("3")
        await settle(pilot)
        formulas = resource_list(app, "reactor_formulas")
        await pilot.press("slash")
        await typed(pilot, "scor")
        await pilot.press("enter")
        await settle(pilot)
        assert formulas.query_params == {"name": "scor"}
        assert names(formulas.items) == ["Orders scoring"]

        await pilot.press("5")
        await settle(pilot)
        permissions = resource_list(app, "permissions")
        await pilot.press("slash")
        await typed(pilot, "types:bogus")
        await pilot.press("enter")  # the service knows three application types
        await pilot.pause()
        assert permissions.filter_input.has_class("-refused")
        assert any("filtered by application type" in n for n in notifications(app))
        await typed(pilot, "types:public")
        await pilot.press("enter")
        await settle(pilot)
        assert permissions.query_params == {"application_type": "public"}


# ---- the tenant search -------------------------------------------------------------------


async def test_enter_searches_the_tenant_page_by_page_and_escape_stops(
    service: Any, big: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = PageGate(monkeypatch, page=3)
    app = make_app(service.base_url, big.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        await pilot.press("slash")
        await typed(pilot, "Application 0012")
        assert apps.shown_items == []  # none of the 50 loaded
        await pilot.press("enter")
        await until(pilot, lambda: gate.waiting and apps.search and apps.search.page == 2, "p2")
        await pilot.pause()
        expected = [f"Application {n:05d}" for n in range(120, 130)]
        assert names(apps.shown_items) == expected  # found on page 2, shown at once
        assert footer_status(app) == "searching: page 2 of 3, 10 matches · esc stops"
        assert apps.searching and apps.table.has_focus
        assert len(apps.items) == 50  # the list's own rows: no more loaded than before

        await pilot.press("enter")  # the highlighted match opens
        await settle_detail(pilot)
        assert app.screen.item_id == apps.shown_items[0]["id"]  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("escape")  # stops the walk where it is
        await pilot.pause()
        assert not apps.searching and apps.search_stopped
        assert footer_status(app) == "search stopped at page 2 of 3, 10 matches"
        assert any("Stopped at page 2 of 3, 10 matches" in n for n in notifications(app))
        assert names(apps.shown_items) == expected  # the matches stay
        gate.release.set()
        await settle(pilot)
        assert apps.search is not None and apps.search.page == 2  # no page after escape

        await pilot.press("escape")  # again: back to the loaded rows
        await pilot.pause()
        assert apps.search is None and len(apps.shown_items) == 50


async def test_a_search_finds_matches_loaded_and_not_and_ends(service: Any, big: Any) -> None:
    app = make_app(service.base_url, big.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        await pilot.press("slash")
        await typed(pilot, "name:00*9")  # a wildcard, as the server's name filter reads it
        await pilot.press("enter")
        await settle(pilot)
        assert not apps.searching and apps.search is not None and apps.search.done
        every = [f"Application {n:05d}" for n in range(1, APPS + 1)]
        expected = [name for name in every if re.search("00.*9", name)]
        shown = names(apps.shown_items)
        assert shown == expected  # the server's order, loaded ones not twice
        assert footer_status(app) == f"{len(expected)} matches in 251 applications"
        # Sorting covers the matches, and says so.
        await pilot.press("S")
        assert names(apps.shown_items)[0] == "Application 00249"
        assert f"(the {len(expected)} matches found)" in notifications(app)[-1]

        await pilot.press("slash")
        await typed(pilot, "no such application")
        await pilot.press("enter")
        await settle(pilot)
        assert apps.shown_items == [] and apps.state_panel.kind == "empty"
        assert "in the tenant match" in apps.state_panel.title_text


async def settle_detail(pilot: Pilot[Any]) -> None:
    await until(pilot, lambda: isinstance(pilot.app.screen, DetailScreen), "the detail")
    await pilot.pause()


# ---- the palette ---------------------------------------------------------------------------


async def test_palette_opens_an_application_far_beyond_the_loaded_rows(
    service: Any, big: Any
) -> None:
    app = make_app(service.base_url, big.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        assert "Application 00247" not in names(apps.items)
        provider = ObjectProvider(app.screen)
        hits = [hit async for hit in provider.search("lication 00247")]
        assert [str(hit.text) for hit in hits] == ["Open application: Application 00247"]
        walk = provider._walk
        assert walk is not None and walk.done and walk.page == 3
        assert len(walk.found) == 1  # the matches, not the pages
        hits[0].command()
        await settle_detail(pilot)
        assert app.screen.fields_view.value_of("Name") == "Application 00247"  # type: ignore[attr-defined]


# ---- sorting every list ----------------------------------------------------------------------


async def test_every_list_sorts_by_every_column_both_ways(service: Any, big: Any) -> None:
    app = make_app(service.base_url, big.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for number, key in (("1", "applications"), ("2", "proxies"), ("3", "reactor_formulas")):
            await pilot.press(number)
            await settle(pilot)
            listing = resource_list(app, key)
            provider = ListCommands(app.screen)
            found = [str(hit.text) async for hit in provider.discover()]
            for index, column in enumerate(listing.kind.columns):
                for descending, arrow in ((False, "↑"), (True, "↓")):
                    title = f"Sort {listing.kind.title} by {column.label} {arrow}"
                    assert title in found
                    hits = [hit async for hit in provider.search(title)]
                    best = max(hits, key=lambda hit: hit.score)
                    assert str(best.text) == title
                    best.command()
                    keys = [sort_key(row[index]) for row in listing.rows]
                    assert keys == sorted(keys, reverse=descending), title
                    shown = [listing.table.row(n)[index] for n in range(listing.table.row_count)]
                    assert [sort_key(cell) for cell in shown] == keys
        # Permissions by each column with s and S, from the keyboard
        await pilot.press("5")
        await settle(pilot)
        permissions = resource_list(app, "permissions")
        for index in range(len(permissions.kind.columns)):
            await pilot.press("s")
            assert permissions.sort == (index, False)
            keys = [sort_key(row[index]) for row in permissions.rows]
            assert keys == sorted(keys)
            await pilot.press("S")
            keys = [sort_key(row[index]) for row in permissions.rows]
            assert keys == sorted(keys, reverse=True)
            await pilot.press("S")  # back to ascending, for the next s


async def test_load_all_and_sort_covers_every_row(service: Any, big: Any) -> None:
    app = make_app(service.base_url, big.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        provider = ListCommands(app.screen)
        found = [str(hit.text) async for hit in provider.discover()]
        assert "Load all Applications and sort by Name ↓" in found
        hits = [hit async for hit in provider.search("Load all Applications and sort by Name ↓")]
        max(hits, key=lambda hit: hit.score).command()
        await until(pilot, lambda: not apps.has_more and not apps.fetching, "all loaded")
        await settle(pilot)
        assert len(apps.items) == APPS + 1 and apps.sort == (0, True)
        assert names(apps.items)[:2] == ["Bootstrap management", "Application 00250"]
        assert "loaded rows" not in apps.status_text


# ---- a search in progress, as it looks ---------------------------------------------------------


def test_snapshot_search_in_progress(
    service: Any, big: Any, monkeypatch: pytest.MonkeyPatch, snap_compare: Any
) -> None:
    """The walk held at page 3 of 3: two pages read, their matches shown, the footer saying
    where the search is (frozen time; the header's URL fixed)."""
    gate = PageGate(monkeypatch, page=3)
    shown = f"http://127.0.0.1:{SNAPSHOT_PORT}"
    with deterministic_env():
        connection = Connection("search", service.base_url, big.key, display_url=shown)
        from console.tui.app import TenantConsoleApp

        app = TenantConsoleApp(connection=connection)

        async def run_before(pilot: Pilot[Any]) -> None:
            await settle(pilot)
            apps = resource_list(app, "applications")
            await pilot.press("slash")
            await typed(pilot, "Application 0012")
            apps.filter_input.cursor_blink = False
            await pilot.press("enter")
            await until(pilot, lambda: gate.waiting and len(apps.shown_items) == 10, "p2")
            app.clear_notifications()
            await pilot.pause()

        assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
