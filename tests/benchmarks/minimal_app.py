"""The baseline: the smallest useful Textual app (Header, Static, Footer).

`python -m tests.benchmarks.minimal_app` runs it in the terminal (the cold-start baseline);
`--rss` runs it headless at 120x40 and prints its resident memory once on screen.
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


if __name__ == "__main__":
    if "--rss" in sys.argv:
        import asyncio
        import json

        print(json.dumps({"rss_kb": asyncio.run(headless_rss_kb())}))
    else:
        MinimalApp().run()
