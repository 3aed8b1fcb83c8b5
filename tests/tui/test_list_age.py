"""A list older than a few minutes says how old it is, on a line of its own above its rows,
and is read again when its section is opened again (within the profile's request budget):
what the CLI, an undo or another admin created meanwhile then shows, the old rows staying on
screen until the new ones come and the cursor on the same object. The console's clock
(console.clock) is moved, never waited for."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from console_support import SIZE, Seeder, make_app, resource_list, settle
from form_host import wait_until

from console.client.budget import RequestBudget
from console.clock import FROZEN_NOW_ENV
from console.tui.browse.kinds import PROXIES
from console.tui.widgets.resource_list import OLD_AFTER, AgeNote


def names(items: list[dict[str, Any]]) -> list[str]:
    return [item["name"] for item in items]


def age_line(listing: Any) -> str | None:
    """The age line's text while it shows, else None."""
    note = listing.query_one(AgeNote)
    return str(note.content) if note.has_class("-shown") and note.display else None


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The console's clock, frozen at the real time and moved on by `clock.move(seconds)`."""
    start = datetime.now(UTC).replace(microsecond=0)

    class Clock:
        moment = start

        def move(self, seconds: float) -> None:
            self.moment += timedelta(seconds=seconds)
            monkeypatch.setenv(FROZEN_NOW_ENV, self.moment.isoformat())

    moved = Clock()
    moved.move(0)
    return moved


async def test_an_old_list_says_its_age_and_opening_it_again_shows_what_was_created(
    service: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Ageing")
    seed = Seeder(service.base_url, info.key)
    try:
        for name in ("Proxy A", "Proxy B", "Proxy C"):
            seed.proxy(name)
        app = make_app(service.base_url, info.key)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            proxies = resource_list(app, "proxies")
            assert names(proxies.items) == ["Proxy A", "Proxy B", "Proxy C"]
            await pilot.press("j")
            assert proxies.current_row is not None and proxies.current_row["name"] == "Proxy B"
            assert age_line(proxies) is None

            created = seed.proxy("Proxy D")  # behind the console's back
            clock.move(OLD_AFTER - 60)
            app.refresh_times()  # what the app's clock tick calls
            await pilot.pause()
            assert age_line(proxies) is None, "not old yet"

            clock.move(120)
            app.refresh_times()
            await pilot.pause()
            line = age_line(proxies)
            assert line is not None and line.startswith("Loaded 6 minutes ago, at ")
            assert "opening it again refreshes" in line
            assert names(proxies.items) == ["Proxy A", "Proxy B", "Proxy C"], "not read unasked"

            release = asyncio.Event()
            fetch = PROXIES.fetch

            async def held(client: Any, number: int, size: int, query: Any) -> Any:
                await release.wait()
                return await fetch(client, number, size, query)

            monkeypatch.setattr(PROXIES, "fetch", held)
            await pilot.press("1")
            await settle(pilot)
            await pilot.press("2")  # opened again: read again
            await wait_until(pilot, lambda: proxies.refreshing, what="the refresh")
            assert names(proxies.shown_items) == ["Proxy A", "Proxy B", "Proxy C"]
            assert proxies.table.row_count == 3, "the old rows stay until the new ones come"
            assert proxies.current_row is not None and proxies.current_row["name"] == "Proxy B"
            assert "refreshing…" in (age_line(proxies) or "")

            release.set()
            await wait_until(pilot, lambda: not proxies.refreshing, what="the new rows")
            await settle(pilot)
            assert names(proxies.shown_items) == ["Proxy A", "Proxy B", "Proxy C", "Proxy D"]
            assert proxies.shown_items[3]["id"] == created["id"]
            assert proxies.current_row is not None and proxies.current_row["name"] == "Proxy B"
            assert age_line(proxies) is None

            await pilot.press("1")
            await settle(pilot)
            fetched = proxies.pages_fetched
            await pilot.press("2")  # opened again while young: not read again
            await settle(pilot)
            assert proxies.pages_fetched is fetched and not proxies.refreshing
    finally:
        seed.close()


async def test_an_old_list_is_not_read_again_unasked_when_the_budget_is_short(
    service: Any, clock: Any
) -> None:
    """Four requests a minute, three spent: opening the old list again would take more than
    its share of what is left, so it only says its age; r still reads it."""
    info = service.new_tenant("Budgeted")
    seed = Seeder(service.base_url, info.key)
    try:
        seed.proxy("Proxy A")
        app = make_app(service.base_url, info.key)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            proxies = resource_list(app, "proxies")
            seed.proxy("Proxy B")
            ticks = [1000.0]  # the budget's own clock, moved instead of waited for
            budget = RequestBudget(4, clock=lambda: ticks[0])
            for _ in range(3):
                await budget.acquire()
            app.client.budget = budget
            assert budget.room() == 1

            clock.move(OLD_AFTER + 1)
            app.refresh_times()
            await pilot.press("1")
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            assert names(proxies.items) == ["Proxy A"] and not proxies.refreshing
            assert (age_line(proxies) or "").startswith("Loaded 5 minutes ago")

            ticks[0] += 62  # a minute on: the budget has room again
            await pilot.press("r")
            await settle(pilot)
            assert names(proxies.items) == ["Proxy A", "Proxy B"]
            assert age_line(proxies) is None
    finally:
        seed.close()
