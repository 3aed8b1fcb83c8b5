"""Name search: the console's tenant search for one application near the end of 10,000,
headless at 120x40, in a process of its own.

`python -m tests.benchmarks.name_search BASE_URL` (key in $BENCH_API_KEY) prints one JSON
line:
- first_s / end_s: from enter in the Applications list's `/` input (the name typed) until
  the match is in the table, and until the search has read the last page; one per run,
  after one unmeasured search (and one unmeasured client walk) warms both up;
- baseline_first_s / baseline_end_s: the client walking the same pages itself
  (`applications.page_json(page=n, size=100)`, each name compared), on an open connection,
  as the console's client has; one per run, alternating with the console's;
- pages: the pages the console's search read; matches: what it found;
- rss_kb: resident memory once the console's last search has ended (the client walks before
  it ran in this process too).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from tests.benchmarks.large_tenant import _settle, _until

TARGET = "Application 09995"
"""On page 100 of 101 (10,000 seeded and the bootstrap application, 100 a page)."""
RUNS = 3


async def _baseline_walk(client: Any, needle: str, size: int) -> tuple[float, float, int]:
    """The client alone: every page at `size`, each name compared; (first match, end, pages)."""
    needle = needle.casefold()
    started = time.perf_counter()
    first: float | None = None
    page = 0
    while True:
        page += 1
        envelope = await client.applications.page_json(page=page, size=size)
        rows = envelope["data"]
        if first is None and any(needle in str(row.get("name")).casefold() for row in rows):
            first = time.perf_counter() - started
        pagination = envelope.get("pagination") or {}
        if not rows or page >= (pagination.get("total_pages") or page):
            break
    end = time.perf_counter() - started
    assert first is not None, f"the baseline never found {needle!r}"
    return first, end, page


async def _run(base_url: str, key: str, runs: int) -> dict[str, Any]:
    from console.client import AdminClient
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.browse.search import SEARCH_PAGE_SIZE
    from tests.benchmarks.memory import rss_kb

    result: dict[str, Any] = {
        "first_s": [],
        "end_s": [],
        "baseline_first_s": [],
        "baseline_end_s": [],
    }
    app = TenantConsoleApp(connection=Connection(None, base_url, key))
    async with AdminClient(base_url, key) as client:
        await client.applications.page_json(page=1, size=SEARCH_PAGE_SIZE)  # connect
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.console_screen
            assert screen is not None
            listing = screen.resource_list("applications")
            await _until(lambda: bool(listing.items), "the Applications list never showed rows")
            await _settle(app, listing)
            # No polling (it would slow the loop it measures): the list's own calls say when
            # a match reached the table, and the search's worker when it ended.
            marks: dict[str, float] = {}
            started_workers: list[Any] = []
            add_found, run_worker = listing.add_found, listing.run_worker

            def timed_add_found(items: Any) -> None:
                add_found(items)  # the matches are in the table now
                marks.setdefault("first", time.perf_counter())

            def captured(*args: Any, **kwargs: Any) -> Any:
                started_workers.append(run_worker(*args, **kwargs))
                return started_workers[-1]

            listing.add_found = timed_add_found  # type: ignore[method-assign]
            listing.run_worker = captured  # type: ignore[method-assign]
            await _baseline_walk(client, TARGET, SEARCH_PAGE_SIZE)  # warm-up, not counted
            for run in range(-1, runs):  # run -1: the console's warm-up, not counted
                if run > 0:  # the client's walk, alternating with the console's
                    first, end, _pages = await _baseline_walk(client, TARGET, SEARCH_PAGE_SIZE)
                    result["baseline_first_s"].append(first)
                    result["baseline_end_s"].append(end)
                listing.table.focus()
                await pilot.press("slash")
                listing.filter_input.value = TARGET  # the live filter: none of the loaded
                await _settle(app, listing, listing.filter_input)
                assert not listing.shown_items
                marks.clear()
                started_workers.clear()
                started = time.perf_counter()
                await pilot.press("enter")
                assert started_workers, "enter started no search"
                await started_workers[-1].wait()
                ended = time.perf_counter()
                search = listing.search
                assert search is not None and search.done
                if run >= 0:
                    result["first_s"].append(marks["first"] - started)
                    result["end_s"].append(ended - started)
                result["pages"] = search.page
                result["matches"] = [item["name"] for item in listing.shown_items]
                if run == runs - 1:
                    result["rss_kb"] = rss_kb()
                await pilot.press("escape")  # back to the loaded rows
                await _settle(app, listing)
            first, end, pages = await _baseline_walk(client, TARGET, SEARCH_PAGE_SIZE)
            result["baseline_first_s"].append(first)
            result["baseline_end_s"].append(end)
            result["baseline_pages"] = pages
    return result


def main(base_url: str) -> None:
    key = os.environ["BENCH_API_KEY"]
    runs = int(os.environ.get("BENCH_RUNS", RUNS))
    print(json.dumps(asyncio.run(_run(base_url, key, runs))))


if __name__ == "__main__":
    main(sys.argv[1])
