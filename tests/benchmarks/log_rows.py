"""The Logs rows of the benchmark table (issue 36): at 150 ms of round trip, following a
tenant's logs and archiving a day of them; and an archive holding a year, queried (see
logs.py for what is timed)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.benchmarks.latency_proxy import latency_proxy
from tests.benchmarks.log_seeding import max_per_minute, seed_service_logs
from tests.benchmarks.logs import YEAR
from tests.benchmarks.results import Row, median
from tests.local_service import RunningService

DAY = 10_000
RTT_MS = 150
BUDGET = 200
"""The hosted service's management limit a minute: the request budget a sync keeps within."""
FOLLOW_PER_MINUTE = 12

JsonFrom = Callable[..., Any]
"""run.py's `_json_from`: a module run in a process of its own, its last line as JSON."""


def log_rows(
    service: RunningService, root: Path, runs: int, json_from: JsonFrom, say: Callable[[str], None]
) -> list[Row]:
    """Each part on a tenant of its own, beside the service's other data."""
    rtt = RTT_MS / 1000
    rows: list[Row] = []

    say(f"logs: following a tenant's logs for a minute at {RTT_MS} ms round trip")
    following = service.new_tenant("Logs follow benchmark")
    env = {
        "BENCH_API_KEY": following.key,
        "BENCH_DATA_DIR": str(service.data_dir),
        "BENCH_TENANT_ID": following.tenant_id,
    }
    with latency_proxy(service.base_url, RTT_MS) as proxied:
        follow = json_from("tests.benchmarks.logs", "follow", proxied, env=env)
    interval = follow["interval_s"]
    seen = follow["seen_s"]
    rows += [
        Row(
            f"Logs: follow, a new entry until the follower shows it, worst of {len(seen)} "
            f"({interval:g} s poll, {RTT_MS} ms round trip)",
            max(seen),
            interval + rtt,
            "s",
            "≤ the poll interval + one round trip",
            limit=interval + rtt,
            absolute=True,
        ),
        Row(
            f"Context: the same, median of the {len(seen)} entries (written at every phase "
            "of the poll)",
            median(seen),
            interval + rtt,
            "s",
            "reported; baseline: the poll interval + one round trip",
        ),
        Row(
            "Logs: follow, requests the service answered in any minute of following",
            float(max_per_minute(follow["answered"])),
            float(FOLLOW_PER_MINUTE),
            "requests",
            f"≤ {FOLLOW_PER_MINUTE} a minute",
            limit=float(FOLLOW_PER_MINUTE),
            absolute=True,
        ),
        Row(
            "Context: requests the client sent in any minute, those sent again after the "
            "service closed an idle connection as they went out included "
            f"({len(follow['requests']) - len(follow['answered'])} of {len(follow['requests'])})",
            float(max_per_minute(follow["requests"])),
            float(FOLLOW_PER_MINUTE),
            "requests",
            "reported (the local service keeps an idle connection 5 s, the poll's interval)",
        ),
    ]

    say(f"logs: archiving a day of {DAY:,} entries at {RTT_MS} ms round trip, {runs} runs")
    archiving = service.new_tenant("Logs archive benchmark")
    seed_service_logs(service.data_dir, archiving.tenant_id, DAY)
    directory = root / "log-archives"
    directory.mkdir(exist_ok=True)
    env = {
        "BENCH_API_KEY": archiving.key,
        "BENCH_DIR": str(directory),
        "BENCH_RUNS": str(runs),
        "BENCH_UPSTREAM": service.base_url,
    }
    with latency_proxy(service.base_url, RTT_MS) as proxied:
        day = json_from("tests.benchmarks.logs", "archive", proxied, env=env)
    assert all(new >= DAY for new in day["new"]), day["new"]
    assert day["again_new"] == 0, day["again_new"]
    pages = -(-DAY // 100)
    floor = -(-pages // 4) * rtt
    rows += [
        Row(
            f"Logs: archive a day of {DAY:,} entries into an empty archive ({RTT_MS} ms "
            "round trip)",
            median(day["sync_s"]),
            floor,
            "s",
            "≤ 5 s; baseline: pages of 100 ÷ 4 in flight x round trip",
            limit=5.0,
            absolute=True,
        ),
        Row(
            f"Logs: the same sync's requests, and its waits for the budget: {max(day['waits'])}",
            float(max(day["requests"])),
            float(BUDGET),
            "requests",
            f"within the request budget: ≤ {BUDGET} (a minute's), no wait",
            limit=float(BUDGET) if max(day["waits"]) == 0 else 0.0,
            absolute=True,
        ),
        Row(
            "Context: the same sync's CPU time in the console's process (the client's and the "
            "archive's work: what a busy machine stretches)",
            median(day["sync_cpu_s"]),
            None,
            "s",
            "reported",
        ),
        Row(
            "Context: the same sync on loopback (no round trip added)",
            median(day["loopback_s"]),
            None,
            "s",
            "reported: what the service and the console spend on this machine",
        ),
        Row(
            f"Context: a sync of the same archive again, nothing new ({day['again_requests']} "
            "requests)",
            day["again_s"],
            rtt,
            "s",
            "reported; baseline: one round trip",
        ),
    ]

    say(f"logs: an archive of a year ({YEAR:,} entries), queried {runs} times")
    year = json_from(
        "tests.benchmarks.logs",
        "year",
        str(root / "log-archives" / "year.sqlite3"),
        env={"BENCH_RUNS": str(runs)},
    )
    size = year["size_bytes"]
    rows += [
        Row(
            f"Logs: archive of a year ({YEAR:,} entries), query by entity "
            f"(one proxy: {year['by_entity_rows']:,} entries)",
            median(year["by_entity_s"]),
            None,
            "s",
            "≤ 100 ms",
            limit=0.1,
            absolute=True,
        ),
        Row(
            f"Logs: archive of a year, query by time (one day: {year['by_time_rows']:,} entries)",
            median(year["by_time_s"]),
            None,
            "s",
            "≤ 100 ms",
            limit=0.1,
            absolute=True,
        ),
        Row(
            "Context: the same two queries' CPU time (by entity; by time as the baseline)",
            median(year["by_entity_cpu_s"]),
            median(year["by_time_cpu_s"]),
            "s",
            "reported: what a busy machine stretches",
        ),
        Row(
            "Context: archive of a year, every application's last activity (the review's "
            "question, 40 applications, 36 of which acted)",
            median(year["by_actor_s"]),
            None,
            "s",
            "reported",
        ),
        Row(
            f"Logs: archive of a year, size on disk ({size / YEAR:.0f} bytes an entry; "
            f"written in {year['write_s']:.0f} s)",
            size / 2**20,
            None,
            "MiB",
            "reported",
        ),
    ]
    return rows
