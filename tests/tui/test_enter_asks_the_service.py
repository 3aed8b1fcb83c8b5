"""`/` then enter answers at once from what the console knows (the loaded rows and the local
index, marked), then asks the service and puts its answer in place, the cursor on the same
object: also when every row is loaded, so that an object created behind the console's back
(by the CLI, an undo, another admin) is found."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from console_support import SIZE, Seeder, footer_status, make_app, resource_list, settle
from textual.pilot import Pilot
from textual.widgets import Input

from console.tui.browse.kinds import APPLICATIONS, PROXIES


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await pilot.pause(0.01)


def names(items: list[dict[str, Any]]) -> list[str]:
    return [item["name"] for item in items]


def first_cell(listing: Any, row: int) -> str:
    cell = listing.table.row(row)[0]
    return str(getattr(cell, "plain", cell))


class Gate:
    """Holds the pages `held` says are the answer to enter until released (no sleeps)."""

    def __init__(
        self, monkeypatch: pytest.MonkeyPatch, kind: Any, held: Callable[[int, Any], bool]
    ) -> None:
        self.release = asyncio.Event()
        self.waiting = False
        fetch = kind.fetch

        async def gated(client: Any, number: int, size: int, query: Any) -> Any:
            if held(size, query):
                self.waiting = True
                await self.release.wait()
            return await fetch(client, number, size, query)

        monkeypatch.setattr(kind, "fetch", gated)


async def enter_filter(pilot: Pilot[Any], text: str) -> None:
    await pilot.press("slash")
    field = pilot.app.focused
    assert isinstance(field, Input), f"focused: {field}"
    field.value = text
    await pilot.pause()
    await pilot.press("enter")


async def test_enter_with_every_row_loaded_answers_from_the_index_then_asks_the_service(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every application is loaded. Behind the console's back one is created (the index
    knows it, as after `tenant-console search`), another created (the index does not know
    it) and a loaded one deleted. Enter shows the loaded match and the index's at once,
    marked; the walk then puts the service's row in place of the index's (the cursor stays
    on it), adds the one nobody had seen and marks the deleted one no longer found."""
    info = service.new_tenant("Behind its back")
    seed = Seeder(service.base_url, info.key)
    try:
        one = seed.application("Alpha one")
        two = seed.application("Alpha two")
        app = make_app(service.base_url, info.key)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await until(pilot, lambda: app.client.index is not None, "the index opened")
            apps = resource_list(app, "applications")
            assert names(apps.items) == ["Bootstrap management", "Alpha one", "Alpha two"]
            assert not apps.has_more

            three = seed.application("Alpha three")
            four = seed.application("Alpha four")
            app.client.index.record("applications", [four])  # seen by the CLI
            seed.delete(f"/applications/{two['id']}")
            gate = Gate(monkeypatch, APPLICATIONS, lambda size, _query: size == 100)

            await enter_filter(pilot, "alpha")
            await until(pilot, lambda: gate.waiting, "the walk asking the service")
            assert apps.searching
            assert names(apps.shown_items) == ["Alpha one", "Alpha two", "Alpha four"]
            assert "from the index" in first_cell(apps, 2)
            assert "from the index" not in first_cell(apps, 0)
            assert "1 from the index, less than a minute old" in footer_status(app)
            await pilot.press("j", "j")  # onto the index's row
            assert apps.current_row is not None and apps.current_row["id"] == four["id"]

            gate.release.set()
            await until(pilot, lambda: not apps.searching, "the end of the walk")
            await settle(pilot)
            shown = names(apps.shown_items)
            assert shown == ["Alpha one", "Alpha two", "Alpha four", "Alpha three"]
            assert apps.shown_items[2]["id"] == four["id"] and "type" in apps.shown_items[2]
            assert apps.shown_items[3]["id"] == three["id"]
            assert "from the index" not in first_cell(apps, 2)
            assert "no longer found" in first_cell(apps, 1)
            assert apps.current_row is not None and apps.current_row["id"] == four["id"]
            assert footer_status(app) == "3 matches in 4 applications · 1 no longer found"
            assert apps.shown_items[0]["id"] == one["id"]
    finally:
        seed.close()


async def test_enter_on_a_name_the_service_filters_answers_from_the_index_first(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Proxies by name: the service filters. Enter shows the loaded match and what the
    index knows by that name at once ("checking the service…"), the rows stay until the
    service's answer replaces them, with the one nobody had seen, and the cursor stays on
    the object it was on."""
    info = service.new_tenant("Proxies behind its back")
    seed = Seeder(service.base_url, info.key)
    try:
        seed.proxy("Orders EU")
        seed.proxy("Billing hook")
        app = make_app(service.base_url, info.key)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await until(pilot, lambda: app.client.index is not None, "the index opened")
            await pilot.press("2")
            await settle(pilot)
            proxies = resource_list(app, "proxies")
            assert names(proxies.items) == ["Orders EU", "Billing hook"]

            us = seed.proxy("Orders US")
            app.client.index.record("proxies", [us])
            seed.proxy("Orders APAC")
            gate = Gate(monkeypatch, PROXIES, lambda _size, query: bool(query.get("name")))

            await enter_filter(pilot, "orders")
            await until(pilot, lambda: gate.waiting, "the service asked")
            assert proxies.query_params == {"name": "orders"}
            assert names(proxies.shown_items) == ["Orders EU", "Orders US"]
            assert "from the index" in first_cell(proxies, 1)
            status = footer_status(app)
            assert status.startswith("checking the service…")
            assert "1 from the index, less than a minute old" in status
            await pilot.press("j")
            assert proxies.current_row is not None and proxies.current_row["id"] == us["id"]

            gate.release.set()
            await settle(pilot)
            assert names(proxies.shown_items) == ["Orders EU", "Orders US", "Orders APAC"]
            assert proxies.items is proxies.shown_items and proxies.live is None
            assert "from the index" not in first_cell(proxies, 1)
            assert proxies.current_row is not None and proxies.current_row["id"] == us["id"]
            assert footer_status(app).startswith("3 of 3 loaded")
    finally:
        seed.close()
