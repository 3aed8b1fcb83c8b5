"""Reactors through the latency proxy: a react's round trip, and the Reactors section of a
tenant with 1,000 reactors opened, each in a process of its own.

`python -m tests.benchmarks.reactors PART BASE_URL` (BASE_URL the latency proxy's; the key in
$BENCH_API_KEY, the runs in $BENCH_RUNS) prints one JSON line:
- PART `react`: `react_s`, each `POST /reactors/{id}/react` of a small reactor (made for
  the run, without a runtime: active at once) through the client on an open connection (as
  the console's React has one), from the call until the answer is parsed, a second apart
  (PACE_S); `engine_ms`, the engine's own time to
  run the same code on the same request here (console.runner's `engine_ms`: compiling and
  running the code; the engine's start-up not counted), warm, as many runs; `runner_ms`,
  the runner's whole run here (with an engine process started ahead, as the service has
  one), for context;
- PART `open`: `open_s`, with the console on screen, from opening a Reactors section that
  was never loaded (after the Tenant section; the list reset as a profile switch resets it)
  until a frame with its rows has been composed; `total`, the reactors the list reports.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from tests.benchmarks.large_tenant import _settle, _until, section_number

RUNS = 5
REACT_CODE = """\
module.exports = async function (req) {
  const { args, configuration } = req;
  return { raw: { bin: String(args.card_number).slice(0, 8), region: configuration.REGION } };
};
"""
"""The reactor the react is timed on: small, as the issue's "the engine's own time" is the
code's share, not the code's size."""
REACT_ARGS: dict[str, Any] = {"card_number": "4242424242424242"}
REACT_CONFIGURATION = {"REGION": "EU"}
EXPECTED = {"bin": "42424242", "region": "EU"}
PACE_S = 1.0
"""Between two timed reacts: a person reads an answer before pressing React again. Pacing,
not synchronisation: in that second the service starts the engine process the next react
will use (the runner's spares), as it would between a person's reacts; back to back, each
react would wait for that start instead."""


async def _react(base_url: str, key: str, runs: int) -> dict[str, Any]:
    """Creates the timed reactor (no runtime: active at once), then reacts `runs` times."""
    from console.client import AdminClient
    from console.models import ReactorCreate

    times: list[float] = []
    body = {"name": "Benchmark react", "code": REACT_CODE, "configuration": REACT_CONFIGURATION}
    async with AdminClient(base_url, key) as client:
        reactor = await client.reactors.create(ReactorCreate.parse(body))
        assert reactor.state == "active", reactor.state
        first = await client.reactors.react(reactor.id, REACT_ARGS)  # connected, warmed
        assert first.raw == EXPECTED, first
        for _ in range(runs):
            await asyncio.sleep(PACE_S)
            started = time.perf_counter()
            answer = await client.reactors.react(reactor.id, REACT_ARGS)
            times.append(time.perf_counter() - started)
            assert answer.raw == EXPECTED, answer
        await client.reactors.delete(reactor.id)
    return {"react_s": times}


def _engine(runs: int) -> dict[str, Any]:
    """The same code and request, run here by the runner (as the service runs a react)."""
    from console.runner import prepare_runs, run_code

    prepare_runs()
    request = {"args": REACT_ARGS, "configuration": REACT_CONFIGURATION}
    engine_ms: list[float] = []
    runner_ms: list[float] = []
    run_code(REACT_CODE, request, "reactor")  # warm
    for _ in range(runs):
        time.sleep(PACE_S)  # as between reacts: the next engine process is started meanwhile
        result = run_code(REACT_CODE, request, "reactor")
        assert result.status == "ok", result.message
        engine_ms.append(float(result.engine_ms or 0.0))
        runner_ms.append(result.total_ms)
    return {"engine_ms": engine_ms, "runner_ms": runner_ms, "engine": result.engine}


async def _open(base_url: str, key: str, runs: int) -> dict[str, Any]:
    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.screens.console import ConsoleScreen

    frames: list[float] = []
    connection = Connection("bench", base_url, key, rate_limit=100_000)
    app = TenantConsoleApp(connection=connection)
    display = app._display
    section = {"name": "applications"}

    def timed_display(screen: Any, renderable: Any) -> None:
        display(screen, renderable)
        if isinstance(screen, ConsoleScreen) and screen.current == section["name"]:
            listing = screen.resource_list(section["name"])
            if listing.items and listing.table.display:
                frames.append(time.perf_counter())

    app._display = timed_display  # type: ignore[method-assign]
    result: dict[str, Any] = {"open_s": []}
    async with app.run_test(size=(120, 40)):
        await _until(lambda: bool(frames), "the Applications list never showed rows", 60)
        screen = app.console_screen
        assert screen is not None
        number = section_number("reactors")
        section["name"] = "reactors"
        frames.clear()
        screen.action_section(number)  # mounted (lazily) and loaded once, not measured
        await _until(lambda: bool(frames), "the Reactors list never showed rows", 60)
        listing = screen.resource_list("reactors")
        await _settle(app, screen, listing)
        tenant = section_number("tenant")
        for _ in range(runs):
            screen.action_section(tenant)  # the Tenant section; then Reactors is opened anew
            await _settle(app, screen, listing)
            listing.reset()  # what a profile switch does: the list has never been loaded
            frames.clear()
            started = time.perf_counter()
            screen.action_section(number)
            await _until(lambda: bool(frames), "the Reactors list never showed rows", 60)
            result["open_s"].append(frames[0] - started)
            await _settle(app, screen, listing)
        result["total"] = listing.total
        result["loaded"] = len(listing.items)
    return result


def main(part: str, base_url: str) -> None:
    key = os.environ["BENCH_API_KEY"]
    runs = int(os.environ.get("BENCH_RUNS", RUNS))
    if part == "react":
        result = asyncio.run(_react(base_url, key, runs))
        result.update(_engine(runs))
    else:
        result = asyncio.run(_open(base_url, key, runs))
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
