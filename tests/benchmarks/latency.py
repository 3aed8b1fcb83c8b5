"""Latency: the console and its walks through a loopback proxy that adds a round trip.

`python -m tests.benchmarks.latency BASE_URL` (key in $BENCH_API_KEY, BASE_URL the proxy's,
the cache dir in $TENANT_CONSOLE_CACHE_DIR) prints one JSON line, each figure a list of
runs:
- first_rows_s: opening an Applications list never loaded, until a frame with its rows;
- section_s: the same for the Permissions section (another request, another list);
- detail_s: an application's detail opened by id (the palette's way) until its fields show;
- search_first_s / search_end_s: enter in the Applications `/` filter with the name of one
  application near the end of the tenant, until the match is in the table / the walk ends;
- again_first_s: the same search again, until the match is in the table (from the local
  index the first search filled, as the search starts; the walk then confirms it);
- palette_first_s: the same name asked of a new palette, until its first answer (the index);
- review_s / export_s: the access review (console.client.review.full_review) and the
  export's read of the tenant (console.estate.tenant.read_tenant), through the client;
- pages: the pages the search read.
With $BENCH_PART=limited instead: one search of every application right after another
client spent $BENCH_SPENT requests of the key's limit straight at $BENCH_UPSTREAM
(limited_s, the 429s seen and the seconds waited).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from tests.benchmarks.large_tenant import _settle, _until, section_number

TARGET = "Application 09995"
RUNS = 2


async def _console(base_url: str, key: str, runs: int) -> dict[str, Any]:
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.browse.kinds import APPLICATIONS
    from console.tui.palette.commands import ObjectProvider
    from console.tui.screens.console import ConsoleScreen
    from console.tui.screens.detail import DetailScreen

    result: dict[str, Any] = {
        "first_rows_s": [],
        "section_s": [],
        "detail_s": [],
        "search_first_s": [],
        "search_end_s": [],
        "again_first_s": [],
        "palette_first_s": [],
    }
    frames: list[float] = []
    watched = ["applications"]
    # The service here has no limit, and these runs send some 500 requests in a few minutes:
    # a profile budget that never binds, so each figure is the walk's own (the budget's
    # waits are the rate-limit row's subject).
    connection = Connection("bench", base_url, key, rate_limit=100_000)
    app = TenantConsoleApp(connection=connection)
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if isinstance(screen, ConsoleScreen):
            listing = screen.resource_list(watched[0])
            if screen.current == watched[0] and listing.items and listing.table.display:
                frames.append(time.perf_counter())

    app._display = timed_display  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await _until(lambda: bool(frames), "the Applications list never showed rows", 60)
        screen = app.console_screen
        assert screen is not None
        for key_name, figure in (("applications", "first_rows_s"), ("permissions", "section_s")):
            number = section_number(key_name)
            watched[0] = key_name
            screen.action_section(number)  # mounted (lazily) and loaded once, not measured
            await _until(lambda: bool(frames), f"{key_name} never showed rows", 60)
            listing = screen.resource_list(key_name)
            await _settle(app, screen, listing)
            for _ in range(runs):
                screen.action_section(section_number("tenant"))  # then the list opened anew
                await _settle(app, screen, listing)
                listing.reset()
                frames.clear()
                started = time.perf_counter()
                screen.action_section(number)
                await _until(lambda: bool(frames), f"{key_name} never showed rows", 60)
                result[figure].append(frames[0] - started)
                await _settle(app, screen, listing)
        watched[0] = "applications"
        screen.action_section(section_number("applications"))
        listing = screen.resource_list("applications")
        await _settle(app, screen, listing)

        # The detail of one application, by id (as the palette opens what the index knows).
        target_id = await _id_of(app.client, TARGET)
        for _ in range(runs):
            started = time.perf_counter()
            detail = DetailScreen(APPLICATIONS, item_id=target_id)
            await app.push_screen(detail)
            await _until(lambda d=detail: d.item is not None, "the detail never loaded", 60)
            await _settle(app, detail)
            result["detail_s"].append(time.perf_counter() - started)
            await app.pop_screen()
            await _settle(app, screen)

        await _until(lambda: app.client.index is not None, "the index never opened", 30)
        marks: dict[str, float] = {}
        workers: list[Any] = []
        add_found, run_worker = listing.add_found, listing.run_worker

        def timed_add_found(items: Any) -> None:
            add_found(items)
            marks.setdefault("first", time.perf_counter())

        def captured(*args: Any, **kwargs: Any) -> Any:
            workers.append(run_worker(*args, **kwargs))
            return workers[-1]

        start_search = listing.start_search

        def timed_start_search(row_filter: Any) -> None:
            start_search(row_filter)  # the rows the index knows are in the table now
            if TARGET in [item.get("name") for item in listing.shown_items]:
                marks.setdefault("shown", time.perf_counter())

        listing.start_search = timed_start_search  # type: ignore[method-assign]
        listing.add_found = timed_add_found  # type: ignore[method-assign]
        listing.run_worker = captured  # type: ignore[method-assign]
        for _ in range(runs):
            app.client.index.clear()  # a first search: nothing known yet
            listing.table.focus()
            await pilot.press("slash")
            listing.filter_input.value = TARGET
            await _settle(app, listing, listing.filter_input)
            marks.clear()
            workers.clear()
            started = time.perf_counter()
            await pilot.press("enter")
            assert workers, "enter started no search"
            await workers[-1].wait()
            ended = time.perf_counter()
            search = listing.search
            assert search is not None and search.done, "the search did not end"
            assert [item["name"] for item in listing.shown_items] == [TARGET]
            result["search_first_s"].append(marks["first"] - started)
            result["search_end_s"].append(ended - started)
            result["pages"] = search.page
            await pilot.press("escape")
            await _settle(app, listing)

        for _ in range(runs):  # the same search again: the index answers, the walk confirms
            listing.table.focus()
            await pilot.press("slash")
            listing.filter_input.value = TARGET
            await _settle(app, listing, listing.filter_input)
            workers.clear()
            marks.clear()
            started = time.perf_counter()
            await pilot.press("enter")
            await workers[-1].wait()
            assert "shown" in marks, "the index's row never reached the table"
            result["again_first_s"].append(marks["shown"] - started)
            assert listing.shown_items[0].get("type"), "the walk confirmed the row"
            await pilot.press("escape")
            await _settle(app, listing)

        for _ in range(runs):
            provider = ObjectProvider(app.screen)  # a new palette: no walk of its own yet
            started = time.perf_counter()
            hits = provider.search(TARGET)
            first = await hits.__anext__()
            result["palette_first_s"].append(time.perf_counter() - started)
            assert TARGET in str(first.text) and "from the index" in (first.help or "")
            await hits.aclose()
            await _settle(app, screen)
        result["budget_waits"] = app.client.budget.waits
    return result


async def _id_of(client: Any, name: str) -> str:
    number = int(name.rsplit(" ", 1)[1])
    page = await client.applications.page_json(page=number // 100 + 1, size=100)
    return next(item["id"] for item in page["data"] if item["name"] == name)


async def _client_walks(base_url: str, key: str, runs: int) -> dict[str, Any]:
    from console.client import AdminClient
    from console.client.budget import RequestBudget
    from console.client.review import full_review
    from console.estate.tenant import read_tenant

    result: dict[str, Any] = {"review_s": [], "export_s": []}
    for _ in range(runs):
        async with AdminClient(base_url, key, budget=RequestBudget()) as client:
            started = time.perf_counter()
            rows, _catalogue = await full_review(client)
            result["review_s"].append(time.perf_counter() - started)
            result["review_rows"] = len(rows)
        async with AdminClient(base_url, key, budget=RequestBudget()) as client:
            started = time.perf_counter()
            snapshot = await read_tenant(client)
            result["export_s"].append(time.perf_counter() - started)
            result["export_applications"] = len(snapshot.document["applications"])
    return result


async def _limited(base_url: str, upstream_url: str, key: str, spent: int) -> dict[str, Any]:
    """A search of every application right after another client of the same key spent
    `spent` requests of the service's limit (behind the console's back): the service
    answers 429, the console waits Retry-After out, and the search completes."""
    from console.client import AdminClient
    from console.client.budget import RequestBudget
    from console.client.find import IndexAnswer, confirm_live

    async with AdminClient(upstream_url, key) as other:
        for _ in range(spent // 10):
            await asyncio.gather(*(other.permissions.list_json() for _ in range(10)))
    async with AdminClient(base_url, key, budget=RequestBudget()) as client:
        started = time.perf_counter()
        found = await confirm_live(client, TARGET, IndexAnswer([], None), ["applications"])
        elapsed = time.perf_counter() - started
        budget = client.budget
    return {
        "limited_s": elapsed,
        "limited_found": [f.name for f in found],
        "limited_pushbacks": budget.pushbacks,
        "limited_waited_s": budget.waited,
    }


def main(base_url: str) -> None:
    key = os.environ["BENCH_API_KEY"]
    runs = int(os.environ.get("BENCH_RUNS", RUNS))
    what = os.environ.get("BENCH_PART", "all")
    result: dict[str, Any] = {}
    if what in ("all", "console"):
        result.update(asyncio.run(_console(base_url, key, runs)))
    if what in ("all", "walks"):
        result.update(asyncio.run(_client_walks(base_url, key, runs)))
        upstream = os.environ.get("BENCH_UPSTREAM")
        if upstream:  # the same walk with no round trip added: the machine's own share
            loopback = asyncio.run(_client_walks(upstream, key, 1))
            result["review_loopback_s"] = loopback["review_s"]
    if what == "limited":
        upstream, spent = os.environ["BENCH_UPSTREAM"], int(os.environ["BENCH_SPENT"])
        result.update(asyncio.run(_limited(base_url, upstream, key, spent)))
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
