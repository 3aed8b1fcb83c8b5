"""The Reactors rows of the benchmark table (issue 35): at 150 ms of round trip, a react's
round trip, and the Reactors section of a tenant with 1,000 reactors opened (see
reactors.py for what is timed)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.benchmarks.latency_proxy import latency_proxy
from tests.benchmarks.reactor_seeding import seed_reactors
from tests.benchmarks.results import Row, median
from tests.local_service import RunningService

REACTORS = 1_000
RTT_MS = 150

JsonFrom = Callable[..., Any]
"""run.py's `_json_from`: a module run in a process of its own, its last line as JSON."""


def reactor_rows(service: RunningService, root: Path, runs: int, json_from: JsonFrom) -> list[Row]:
    """A tenant of its own with REACTORS reactors, beside the service's other data, for the
    section; the react on a service of its own per engine (the service runs reactors with
    the engine TENANT_CONSOLE_JS_ENGINE names, Node.js by default when installed)."""
    tenant = service.new_tenant("Reactors benchmark")
    seed_reactors(service.data_dir, tenant.tenant_id, tenant.application_id, REACTORS)
    env = {"BENCH_API_KEY": tenant.key, "BENCH_RUNS": str(runs)}
    with latency_proxy(service.base_url, RTT_MS) as proxied:
        opened = json_from("tests.benchmarks.reactors", "open", proxied, env=env)
    assert opened["total"] == REACTORS, opened
    rtt = RTT_MS / 1000
    rows: list[Row] = []
    for engine in (["node"] if shutil.which("node") else []) + ["embedded"]:
        engine_env = {"TENANT_CONSOLE_JS_ENGINE": engine}
        reacting = RunningService(root / f"react-{engine}", env=engine_env)
        reacting.start()
        try:
            env = {"BENCH_API_KEY": reacting.key, "BENCH_RUNS": str(runs), **engine_env}
            loopback = json_from("tests.benchmarks.reactors", "react", reacting.base_url, env=env)
            with latency_proxy(reacting.base_url, RTT_MS) as proxied:
                react = json_from("tests.benchmarks.reactors", "react", proxied, env=env)
        finally:
            reacting.stop()
        assert react["engine"] == engine, react["engine"]
        engine_s = median(react["engine_ms"]) / 1000
        rows += [
            Row(
                f"Reactors: a react's round trip ({RTT_MS} ms round trip, {engine} engine)",
                median(react["react_s"]),
                rtt + engine_s,
                "s",
                "≤ one round trip + the engine's own time + 50 ms; baseline: the first two",
                limit=rtt + engine_s + 0.05,
                absolute=True,
            ),
            Row(
                f"Context: the same react on loopback ({engine} engine, no round trip added)",
                median(loopback["react_s"]),
                engine_s,
                "s",
                "reported: what the service and the runner spend; baseline: the engine's own",
            ),
            Row(
                f"Context: the runner's whole run of the same code here ({engine} engine)",
                median(react["runner_ms"]) / 1000,
                engine_s,
                "s",
                "reported; baseline: the engine's own time",
            ),
        ]
    rows.append(
        Row(
            f"Reactors: open the section until first rows ({REACTORS:,} reactors, "
            f"{RTT_MS} ms round trip)",
            median(opened["open_s"]),
            rtt,
            "s",
            "≤ one round trip + 0.3 s",
            limit=rtt + 0.3,
            absolute=True,
        )
    )
    return rows
