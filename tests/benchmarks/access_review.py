"""Access review: the console's review of 10,000 applications, headless at 120x40, in a
process of its own, against the client walking the same pages itself.

`python -m tests.benchmarks.access_review BASE_URL` (key in $BENCH_API_KEY) prints one JSON
line:
- first_rows_s: from opening the review (`A` in Applications) until a frame showing its first
  rows has been composed; one value per opening;
- complete_s: from the same moment until the last page's rows are in the table and the walk
  has ended; one value per opening;
- rows: the rows the last review held (every application);
- walk_first_s, walk_complete_s: the client's own walk of the same pages
  (`applications.page_json(page=n, size=100)` until the last), on an open connection: the
  first page, and every page; one value per walk.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from tests.benchmarks.large_tenant import _settle, _until

OPENINGS = 3
"""Reviews per run (and walks of the baseline): medians are reported."""


async def _run(base_url: str, key: str) -> dict[str, Any]:
    """Rounds of one console review then one client walk, so that both meet the same load
    on a shared machine."""
    from console.client import AdminClient
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.screens.review import ReviewScreen

    frames: list[float] = []
    shown, ended = asyncio.Event(), asyncio.Event()
    app = TenantConsoleApp(connection=Connection(None, base_url, key))
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if isinstance(screen, ReviewScreen) and screen.table.row_count:
            frames.append(time.perf_counter())
            shown.set()

    app._display = timed_display  # type: ignore[method-assign]
    show_totals = ReviewScreen.show_totals

    def noting_the_end(screen: ReviewScreen) -> None:
        # Events, not polling: a poll would share the loop with the review it times.
        show_totals(screen)
        if screen.complete:
            ended.set()

    ReviewScreen.show_totals = noting_the_end  # type: ignore[method-assign]
    result: dict[str, Any] = {
        "first_rows_s": [],
        "complete_s": [],
        "walk_first_s": [],
        "walk_complete_s": [],
    }
    async with app.run_test(size=(120, 40)), AdminClient(base_url, key) as client:
        console = app.console_screen
        assert console is not None
        await _until(lambda: bool(console.resource_list("applications").items), "no rows")
        await _settle(app, console)
        await _walk(client)  # connected, as the console's client is
        for _ in range(OPENINGS):
            frames.clear()
            shown.clear()
            ended.clear()
            started = time.perf_counter()
            console.action_access_review()
            await asyncio.wait_for(ended.wait(), timeout=300)
            result["complete_s"].append(time.perf_counter() - started)
            await asyncio.wait_for(shown.wait(), timeout=60)
            result["first_rows_s"].append(frames[0] - started)
            screen = app.screen
            assert isinstance(screen, ReviewScreen) and screen.complete
            result["rows"] = len(screen.rows)
            assert screen.table.row_count == len(screen.rows)
            await _settle(app, screen)
            app.pop_screen()
            await _settle(app, console)
            first, complete, walked = await _walk(client)
            result["walk_first_s"].append(first)
            result["walk_complete_s"].append(complete)
            assert walked == result["rows"], (walked, result["rows"])
    return result


async def _walk(client: Any) -> tuple[float, float, int]:
    """The same pages, asked for by the client in turn, as a script would: the time to the
    first page, to the last, and the applications read."""
    from console.client.review import REVIEW_PAGE_SIZE

    started = time.perf_counter()
    first = 0.0
    number, seen = 1, 0
    while True:
        page = await client.applications.page_json(page=number, size=REVIEW_PAGE_SIZE)
        if number == 1:
            first = time.perf_counter() - started
        seen += len(page["data"])
        pagination = page.get("pagination") or {}
        if not page["data"] or number >= (pagination.get("total_pages") or 0):
            break
        number += 1
    return first, time.perf_counter() - started, seen


def main(base_url: str) -> None:
    key = os.environ["BENCH_API_KEY"]
    print(json.dumps(asyncio.run(_run(base_url, key))))


if __name__ == "__main__":
    main(sys.argv[1])
