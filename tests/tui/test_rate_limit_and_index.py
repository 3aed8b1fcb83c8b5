"""The console within the rate limit and from the local index: a walk held back by the
profile's request budget says so on its progress line and carries on; the palette answers
from the index before the service does; the profile's pages land in the index."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from console_support import SIZE, make_app, settle
from local_service import RunningService
from review_tenant import ReviewTenant, make_review_tenant
from textual.pilot import Pilot

from console.client.budget import RequestBudget
from console.client.index import LocalIndex
from console.tui.palette.commands import ObjectProvider
from console.tui.screens.detail import DetailScreen
from console.tui.screens.review import ReviewScreen


@pytest.fixture(scope="module")
def tenant(service: RunningService) -> ReviewTenant:
    return make_review_tenant(service)


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.01)


async def test_a_walk_waiting_for_the_rate_limit_says_so_and_completes(
    service: RunningService, tenant: ReviewTenant
) -> None:
    """Two requests a minute: the review's third request waits (the wait is held here
    instead of spent), the progress line says "waiting for the rate limit, 61 s", and once
    the wait is over the walk reads every page: the limit slows it, never fails it."""
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        over = asyncio.Event()
        waits: list[float] = []

        async def held(seconds: float) -> None:
            waits.append(seconds)
            await over.wait()

        app.client.budget = RequestBudget(2, sleep=held)
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the review")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await until(pilot, lambda: bool(waits), "a request waiting")
        await until(pilot, lambda: "waiting for the rate limit" in screen.progress_line, "it")
        assert "waiting for the rate limit, 61 s" in screen.progress_line
        assert screen.walking and not screen.problem_text
        over.set()
        await until(pilot, lambda: screen.complete or bool(screen.problem_text), "the end")
        assert screen.complete and not screen.problem_text
        assert screen.applications_read == len(screen.rows) >= 300
        assert "waiting" not in screen.progress_line


async def test_the_palette_answers_from_the_index_first(
    service: RunningService, tenant: ReviewTenant
) -> None:
    """An object only the index knows (the service never had it) is offered at once, saying
    where the answer came from; what the service has is offered once."""
    index = LocalIndex.for_profile("test", service.base_url)
    index.record("applications", [{"id": "0000-only-in-the-index", "name": "Zebra crossing"}])
    index.close()
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await until(pilot, lambda: app.client.index is not None, "the index opened")
        provider = ObjectProvider(app.screen)
        hits = [hit async for hit in provider.search("zebra")]
        assert [str(hit.text) for hit in hits] == ["Open application: Zebra crossing"]
        assert hits[0].help is not None and "from the index" in hits[0].help

        hits = [hit async for hit in provider.search("Revealer")]
        assert [str(hit.text) for hit in hits] == ["Open application: Revealer"]
        reopened = [hit async for hit in provider.search("Revealer")]
        assert [str(hit.text) for hit in reopened] == ["Open application: Revealer"]
        assert reopened[0].help is not None and "from the index" in reopened[0].help
        reopened[0].command()
        await until(pilot, lambda: isinstance(app.screen, DetailScreen), "the detail")
        await settle(pilot)
        assert app.screen.fields_view.value_of("Name") == "Revealer"  # type: ignore[attr-defined]


async def test_the_list_search_shows_the_index_at_once_then_confirms_and_marks_gone(
    service: RunningService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/` then enter: what the index knows by that name shows before any page of the walk
    has come back ("from the index"); the walk puts the live row in its place, and one the
    tenant no longer has is marked so, in the table and in the index."""
    from benchmarks.seeding import seed_applications

    from console.tui.browse.kinds import APPLICATIONS

    info = service.new_tenant("Indexed search")
    seed_applications(service.data_dir, info.tenant_id, info.application_id, 150)
    release = asyncio.Event()
    fetch = APPLICATIONS.fetch

    async def gated(client: Any, number: int, size: int, query: Any) -> Any:
        if size == 100:  # the search's pages (the list reads 50 at a time)
            await release.wait()
        return await fetch(client, number, size, query)

    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await until(pilot, lambda: app.client.index is not None, "the index opened")
        page = await app.client.applications.page_json(page=3, size=50)
        real = next(item for item in page["data"] if item["name"] == "Application 00140")
        app.client.index.record(
            "applications", [{"id": "retired-1", "name": "Application 00140 old"}]
        )
        monkeypatch.setattr(APPLICATIONS, "fetch", gated)
        listing = app.console_screen.resource_list("applications")  # type: ignore[union-attr]
        assert "Application 00140" not in [item["name"] for item in listing.items]
        listing.table.focus()
        await pilot.press("slash", *"00140", "enter")
        await until(pilot, lambda: listing.searching, "the search")
        shown = [item["name"] for item in listing.shown_items]
        assert shown == ["Application 00140", "Application 00140 old"], "at once, from the index"
        assert "2 from the index, less than a minute old" in listing.status_text
        first = listing.table.row(0)[0]
        assert "from the index" in getattr(first, "plain", str(first))

        release.set()
        await until(pilot, lambda: not listing.searching, "the end of the search")
        await settle(pilot)
        assert [item["id"] for item in listing.shown_items] == [real["id"], "retired-1"]
        assert listing.shown_items[0] == real, "the live row took its place"
        gone = listing.table.row(1)[0]
        assert "no longer exists" in getattr(gone, "plain", str(gone))
        assert listing.status_text.startswith("1 match in ")
        assert "1 no longer exist" in listing.status_text
        assert [r.id for r in app.client.index.search("00140")] == [real["id"]]


async def test_a_list_search_waiting_for_the_rate_limit_says_so_in_the_footer(
    service: RunningService, tenant: ReviewTenant
) -> None:
    app = make_app(service.base_url, tenant.info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        over = asyncio.Event()

        async def held(seconds: float) -> None:
            await over.wait()

        app.client.budget = RequestBudget(1, sleep=held)
        listing = app.console_screen.resource_list("applications")  # type: ignore[union-attr]
        listing.table.focus()
        await pilot.press("slash", *"Revealer", "enter")
        await until(pilot, lambda: "waiting for the rate limit" in listing.status_text, "it")
        assert listing.searching and "esc stops" in listing.status_text
        over.set()
        await until(pilot, lambda: not listing.searching, "the end of the search")
        assert "waiting" not in listing.status_text
        assert [item["name"] for item in listing.shown_items] == ["Revealer"]
