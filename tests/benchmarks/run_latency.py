"""Test-run latency: from pressing ctrl+r on the run screen to the result on screen, for a
trivial formula, against the engine's own time to evaluate the same code.

`python -m tests.benchmarks.run_latency ENGINE RUNS` runs in a fresh process (so the first
run is cold: the runner's modules, the engine found and started for the first time, the V8
library loaded) and prints one JSON line: the cold run, then RUNS warm ones, each with the
screen time and the engine's own (`engine_ms`: compiling and running the code, start-up of
a Node process or a V8 context not counted) and the runner's total (start-up included).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time

from textual.app import App

from console.tui.screens.test_run import RunTarget, TestRunScreen

TRIVIAL = "module.exports = function (req) {\n  return { raw: { ok: true } };\n};\n"


class RunHost(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.target = RunTarget(
            kind="formula",
            title="Benchmark",
            code=lambda: TRIVIAL,
            sample_key="benchmark",
            default_sample=lambda: {"args": {}, "configuration": {}},
            from_service=lambda: False,  # typed here: never a question, sandbox or not
        )

    def on_mount(self) -> None:
        self.push_screen(TestRunScreen(self.target))


async def measure(runs: int) -> list[dict[str, float]]:
    app = RunHost()
    times: list[dict[str, float]] = []
    async with app.run_test(size=(120, 40)) as pilot:
        while not isinstance(app.screen, TestRunScreen) or not app.screen.is_mounted:
            await pilot.pause(0.01)
        screen = app.screen
        await pilot.pause()
        for _ in range(runs + 1):
            screen.result_shown_at = None
            started = time.perf_counter()
            await pilot.press("ctrl+r")
            deadline = started + 30
            while screen.result_shown_at is None:
                if time.perf_counter() > deadline:
                    raise RuntimeError("no result within 30 s")
                await pilot.pause(0.002)
            result = screen.result
            assert result is not None and result.ok, result and result.message
            times.append(
                {
                    "screen_ms": (screen.result_shown_at - started) * 1000,
                    "engine_ms": float(result.engine_ms or 0.0),
                    "runner_ms": result.total_ms,
                }
            )
    return times


def main() -> None:
    engine, runs = sys.argv[1], int(sys.argv[2])
    os.environ["TENANT_CONSOLE_JS_ENGINE"] = engine
    with tempfile.TemporaryDirectory(prefix="tenant-console-run-bench-") as config:
        os.environ["TENANT_CONSOLE_CONFIG_DIR"] = config
        times = asyncio.run(measure(runs))
    print(json.dumps({"cold": times[0], "warm": times[1:]}))


if __name__ == "__main__":
    main()
