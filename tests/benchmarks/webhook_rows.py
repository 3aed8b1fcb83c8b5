"""The Webhooks rows of the benchmark table (issue 37): a write's latency on the local
service with five webhooks subscribed to it, one of them never answering, against the same
write with none (see webhooks.py for what is timed). `listen` printing an event is
`--only listen` (webhooks_listen.py)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .results import Row, median

if TYPE_CHECKING:  # the smoke test imports this module under a plain pytest, without `tests`
    from tests.local_service import RunningService

WRITE_RATIO = 1.2

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
    """Two tenants of their own on the benchmark's service."""
    writes = max(300, 60 * runs)
    say(f"webhooks: {writes} writes on a tenant with five webhooks and on one with none")
    quiet = service.new_tenant("Webhooks benchmark, none")
    hooked = service.new_tenant("Webhooks benchmark, five")
    env = {
        "BENCH_QUIET_KEY": quiet.key,
        "BENCH_HOOKED_KEY": hooked.key,
        "BENCH_WRITES": str(writes),
    }
    data = json_from("tests.benchmarks.webhooks", service.base_url, env=env)
    return write_rows(data)


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
