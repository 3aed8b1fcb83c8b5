"""Large tenant: the console on 10,000 applications, headless at 120x40, in a process of its own.

`python -m tests.benchmarks.large_tenant BASE_URL` (key in $BENCH_API_KEY) prints one JSON
line:
- open_s: with the console on screen, from opening an Applications list that was never
  loaded (after a profile switch; key 1 from the Tenant section) until a frame with its
  rows has been composed; median of five;
- raw_request_s: the client's own request for that page, `applications.page_json(page=1,
  size=PAGE_SIZE)` (what the list asks for: the page as sent, no models), on an open
  connection, as the console's client has; median of five;
- pages: the pages the list fetched while the cursor went down to row 1,000, 20 rows at
  a time;
- rss_kb: resident memory after that.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

TARGET_ROW = 999  # row 1,000, zero-based
STEP_ROWS = 20
"""Rows the cursor moves per step on its way down (a screenful is about 30)."""
OPENINGS = 5
"""Times Applications is opened anew in one run (medians are reported)."""


async def _console_run(base_url: str, key: str) -> dict[str, Any]:
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.screens.console import ConsoleScreen
    from console.tui.widgets.resource_list import PAGE_SIZE
    from tests.benchmarks.memory import rss_kb

    frames: list[float] = []
    app = TenantConsoleApp(connection=Connection(None, base_url, key))
    display = app._display

    def timed_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if isinstance(screen, ConsoleScreen):
            listing = screen.resource_list("applications")
            if screen.current == "applications" and listing.items and listing.table.display:
                frames.append(time.perf_counter())

    app._display = timed_display  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)):
        await _until(lambda: bool(frames), "the Applications list never showed rows")
        screen = app.console_screen
        assert screen is not None
        listing = screen.resource_list("applications")
        opening: list[float] = []
        for _ in range(OPENINGS):
            screen.action_section(section_number("tenant"))  # then Applications opened anew
            await _settle(app, screen, listing)
            app.screen._on_timer_update()
            listing.reset()  # what a profile switch does: the list has never been loaded
            frames.clear()
            started = time.perf_counter()
            screen.action_section(section_number("applications"))
            await _until(lambda: bool(frames), "the Applications list never showed rows")
            opening.append(frames[0] - started)
            await _settle(app, screen, listing)
        table = listing.table
        table.focus()
        deadline = time.monotonic() + 120
        while table.cursor_row < TARGET_ROW:
            if time.monotonic() > deadline:
                raise RuntimeError(f"stuck at row {table.cursor_row} of {len(listing.items)}")
            step = min(table.cursor_row + STEP_ROWS, len(listing.items) - 1, TARGET_ROW)
            table.move_cursor(row=step)
            await _settle(app, table, listing)
            app.screen._on_timer_update()  # draw the frame, as the update timer would
        await _settle(app, table, listing)
        return {
            "open_s": sorted(opening)[len(opening) // 2],
            "pages": list(listing.pages_fetched),
            "page_size": PAGE_SIZE,
            "loaded": len(listing.items),
            "total": listing.total,
            "rss_kb": rss_kb(),
        }


def section_number(key: str) -> str:
    """The number key of section `key`: the sections follow the registry's kinds, so a new
    kind (Reactors, issue 35) moves the ones after it (and Usage keeps 0)."""
    from console.tui.browse.sections import sections

    return next(s.hotkey for s in sections() if s.key == key)


async def _settle(app: Any, *widgets: Any) -> None:
    """Until the widgets have handled their messages and the page loads they started are done."""
    for _ in range(1000):
        await asyncio.sleep(0)
        if all(widget._message_queue.empty() for widget in widgets):
            break
    await app.workers.wait_for_complete()
    for _ in range(1000):
        await asyncio.sleep(0)
        if all(widget._message_queue.empty() for widget in widgets):
            break


async def _until(condition: Callable[[], bool], failure: str, timeout: float = 30) -> None:
    """Polls every millisecond (a timer, not a synchronisation) with a deadline."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(failure)
        await asyncio.sleep(0.001)


async def _raw_requests(base_url: str, key: str, size: int) -> list[float]:
    from console.client import AdminClient

    times = []
    async with AdminClient(base_url, key) as client:
        await client.applications.page_json(page=1, size=size)  # connect, as the console had
        for _ in range(OPENINGS):
            started = time.perf_counter()
            page = await client.applications.page_json(page=1, size=size)
            times.append(time.perf_counter() - started)
            assert page["data"]
    return times


def main(base_url: str) -> None:
    key = os.environ["BENCH_API_KEY"]
    result = asyncio.run(_console_run(base_url, key))
    raw = asyncio.run(_raw_requests(base_url, key, result["page_size"]))
    result["raw_request_s"] = sorted(raw)[len(raw) // 2]
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
