"""The Webhooks rows of the benchmark table (issue 37): a write's latency on the local
service with five webhooks subscribed to it, one of them never answering, against the same
write with none; and `listen` printing an event after its delivery (see webhooks.py for what
is timed)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import Any

from tests.benchmarks.results import Row, median
from tests.local_service import RunningService

WRITE_RATIO = 1.2
LISTEN_LIMIT_S = 0.1

JsonFrom = Callable[..., Any]
"""run.py's `_json_from`: a module run in a process of its own, its last line as JSON."""


def p95(values: list[float]) -> float:
    """The 95th percentile (statistics' inclusive method, between the two values around it)."""
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=20, method="inclusive")[-1]


def webhook_rows(
    service: RunningService, runs: int, json_from: JsonFrom, say: Callable[[str], None]
) -> list[Row]:
    """Two tenants of their own on the benchmark's service; `listen` in a process of its own."""
    writes = max(300, 60 * runs)
    say(f"webhooks: {writes} writes on a tenant with five webhooks and on one with none")
    quiet = service.new_tenant("Webhooks benchmark, none")
    hooked = service.new_tenant("Webhooks benchmark, five")
    env = {
        "BENCH_QUIET_KEY": quiet.key,
        "BENCH_HOOKED_KEY": hooked.key,
        "BENCH_WRITES": str(writes),
    }
    data = json_from("tests.benchmarks.webhooks", "writes", service.base_url, env=env)
    rows = write_rows(data)

    events = max(50, 10 * runs)
    say(f"webhooks: {events} signed deliveries to a `listen` process")
    seen = json_from("tests.benchmarks.webhooks", "listen", env={"BENCH_EVENTS": str(events)})
    return rows + listen_rows(seen)


def write_rows(data: dict[str, Any]) -> list[Row]:
    quiet, hooked = data["quiet_s"], data["hooked_s"]
    context = (
        f"{data['delivered']:,} of {data['expected']:,} deliveries received by the end; the "
        f"never-answering webhook {data['unreachable_status']}"
    )
    return [
        Row(
            f"Webhooks: PUT /tenants/self, median of {len(hooked)}, five webhooks subscribed "
            "(one never answers) against none",
            median(hooked),
            median(quiet),
            "s",
            f"≤ {WRITE_RATIO}x the same write with none",
            limit=WRITE_RATIO,
        ),
        Row(
            f"Webhooks: the same writes' p95 ({context})",
            p95(hooked),
            p95(quiet),
            "s",
            f"≤ {WRITE_RATIO}x the same write with none",
            limit=WRITE_RATIO,
        ),
    ]


def listen_rows(data: dict[str, Any]) -> list[Row]:
    seen = data["seen_s"]
    return [
        Row(
            f"Webhooks: listen, a signed delivery until its line is printed, worst of {len(seen)}",
            max(seen),
            None,
            "s",
            f"≤ {LISTEN_LIMIT_S * 1000:.0f} ms",
            limit=LISTEN_LIMIT_S,
            absolute=True,
        ),
        Row(
            "Context: the same, median",
            median(seen),
            None,
            "s",
            "reported",
        ),
    ]
