"""The baseline: the smallest useful Textual app (Header, Static, Footer).

`python -m tests.benchmarks.minimal_app` runs it in the terminal (the cold-start baseline);
`--rss` runs it headless at 120x40 and prints its resident memory once on screen; `--frame`
prints the seconds Textual takes to draw one frame of it after its content changed (the
floor under any "press a key, see new rows" time).
"""

from __future__ import annotations

import sys

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static

MARKER = "Baseline ready"


class MinimalApp(App[None]):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(MARKER)
        yield Footer()


async def headless_rss_kb() -> int:
    """The app's resident set once it is on a headless 120x40 screen."""
    from tests.benchmarks.memory import rss_kb

    app = MinimalApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        return rss_kb()


FRAMES = 31


async def headless_frame_s() -> list[float]:
    """Each time: 30 new lines in the Static, a layout, and the frame drawn at once (the
    screen's update, forced instead of waiting for its 60 fps timer)."""
    import time

    app = MinimalApp()
    times = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        static = app.query_one(Static)
        for n in range(FRAMES):
            static.update(f"{MARKER} {n}\n" * 30)
            app.screen.refresh(layout=True)
            started = time.perf_counter()
            app.screen._on_timer_update()  # textual 8.2's frame: layout, render, display
            times.append(time.perf_counter() - started)
            await pilot.pause()
    return times


if __name__ == "__main__":
    import asyncio
    import json

    if "--rss" in sys.argv:
        print(json.dumps({"rss_kb": asyncio.run(headless_rss_kb())}))
    elif "--frame" in sys.argv:
        print(json.dumps({"frame_s": asyncio.run(headless_frame_s())}))
    else:
        MinimalApp().run()
