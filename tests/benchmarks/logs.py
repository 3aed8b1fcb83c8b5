"""Audit logs through the latency proxy (issue 36), each part in a process of its own.

`python -m tests.benchmarks.logs PART ...` prints one JSON line:

- `follow BASE_URL` (the proxy's; the key in $BENCH_API_KEY, the service's data dir and the
  tenant in $BENCH_DATA_DIR and $BENCH_TENANT_ID): a LogFollower (console.audit.follow, as
  `logs --follow` and the Logs section's `f` use it) at its default interval follows the
  tenant's logs for FOLLOW_S; meanwhile an entry is written into the service's store every
  WRITE_EVERY_S, so that the writes fall at every phase of the poll. `seen_s`: for each
  entry, from just before its write until the follower yielded it; `requests`: when the
  client sent each request, `answered`: those the service answered (`interval_s`, the
  follower's interval);
- `archive BASE_URL` (the key in $BENCH_API_KEY, a directory for archives in $BENCH_DIR,
  the runs in $BENCH_RUNS, the service itself in $BENCH_UPSTREAM): each run syncs a new,
  empty archive (LogArchive.sync) with the tenant's logs through a client with the hosted
  service's request budget (200 a minute); `sync_s`, `sync_cpu_s` (this process's CPU time:
  the client's and the archive's work), `new`, `requests` and `waits` (the budget's waits)
  per run; `loopback_s`, the same syncs straight to the service; then `again_s`, a sync of
  the full archive again (nothing new);
- `year PATH` ($BENCH_RUNS runs): writes YEAR entries, a year of them, into a new archive at
  PATH (LogArchive.store, in bulk, not timed: `write_s`), then times `by_entity_s` (every
  entry of one proxy over the year), `by_time_s` (every entry of one day), with their CPU
  time (`..._cpu_s`), and `by_actor_s` (every application's last activity, as the access
  review asks), each on the archive opened anew; `size_bytes`, the file's size on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.benchmarks.log_seeding import (
    ACTORS,
    actor_id,
    entity_id,
    year_of_entries,
)

FOLLOW_S = 68.0
"""How long the follower runs: a minute of polls (counted in any 60 s) and a little more."""
WRITE_EVERY_S = 5.45
"""An entry every 5.45 s: with a 5 s poll, each lands 0.45 s later in the poll's cycle than
the last, so the eleven of a minute cover the whole cycle (the worst is written just after a
poll was read)."""
YEAR = 1_000_000
RUNS = 5


class CountingTransport(httpx.AsyncBaseTransport):
    """httpx's own transport, noting when each request was sent, and which were answered.

    The two differ when a connection the service closed (idle past its keep-alive, 30 s on
    the local service) takes a request as it closes: the request never
    reaches the service (nothing answers it, no rate limit counts it) and the client sends it
    again on a new connection, as it does a GET whose connection was lost."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.sent: list[tuple[float, str, str]] = []
        self.answered: list[float] = []
        """When each request the service answered was sent."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        at = time.perf_counter()
        self.sent.append((at, request.method, request.url.path))
        response = await self._inner.handle_async_request(request)
        self.answered.append(at)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()


def _client(base_url: str, key: str, transport: CountingTransport) -> Any:
    """A client as a profile has one: the hosted service's budget of 200 requests a minute."""
    from console.client import AdminClient
    from console.client.budget import DEFAULT_PER_MINUTE, RequestBudget

    return AdminClient(base_url, key, transport=transport, budget=RequestBudget(DEFAULT_PER_MINUTE))


async def _follow(base_url: str, key: str, data_dir: Path, tenant_id: str) -> dict[str, Any]:
    from console.audit.follow import LogFollower
    from console.clock import now

    transport = CountingTransport()
    written: dict[str, float] = {}
    seen: dict[str, float] = {}
    async with _client(base_url, key, transport) as client:
        follower = LogFollower(client)
        interval = float(getattr(follower, "interval", 5.0))
        started = time.perf_counter()

        async def follow() -> None:
            async for entry in follower:
                seen.setdefault(entry.entity_id or "", time.perf_counter())

        following = asyncio.ensure_future(follow())
        number = 0
        try:
            while time.perf_counter() - started + WRITE_EVERY_S < FOLLOW_S - interval - 1:
                await asyncio.sleep(started + WRITE_EVERY_S * (number + 1) - time.perf_counter())
                marker = entity_id("follow", number)
                written[marker] = time.perf_counter()
                await asyncio.to_thread(_write_one, data_dir, tenant_id, marker, now())
                number += 1
            await asyncio.sleep(started + FOLLOW_S - time.perf_counter())
        finally:
            following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await following
            closing = getattr(follower, "aclose", None)
            if closing is not None:
                await closing()
    missing = sorted(set(written) - set(seen))
    assert not missing, f"the follower never showed {len(missing)} of {len(written)} entries"
    return {
        "interval_s": interval,
        "seen_s": [seen[marker] - at for marker, at in written.items()],
        "requests": [at - started for at, _, _ in transport.sent],
        "answered": [at - started for at in transport.answered],
        "paths": sorted({path for _, _, path in transport.sent}),
    }


def _write_one(data_dir: Path, tenant_id: str, marker: str, moment: Any) -> None:
    """One entry about the object `marker`, written now, as a logged change is."""
    from console.service.changes import Actor, Change, record
    from console.service.store import Store
    from console.service.timestamps import stamp

    store = Store(data_dir)
    try:
        with store.write() as conn:
            record(
                conn,
                Change(
                    tenant_id=tenant_id,
                    entity_type="proxy",
                    entity_id=marker,
                    operation="update",
                    message="Proxy updated",
                    actor=Actor(actor_id(0), "application"),
                    at=stamp(moment),
                ),
            )
    finally:
        store.close()


async def _archive(
    base_url: str, key: str, directory: Path, runs: int, loopback: str | None
) -> dict[str, Any]:
    """`runs` syncs into new archives through `base_url` (the proxy), and as many straight to
    `loopback` (the service itself), for what this machine spends without the round trips."""
    from console.audit.archive import LogArchive

    result: dict[str, Any] = {
        "sync_s": [],
        "sync_cpu_s": [],
        "new": [],
        "requests": [],
        "waits": [],
        "loopback_s": [],
    }
    archive = None
    for run in range(runs):
        if archive is not None:
            archive.close()
        archive = LogArchive.open("bench", path=directory / f"day-{run}.sqlite3")
        transport = CountingTransport()
        async with _client(base_url, key, transport) as client:
            started, cpu = time.perf_counter(), time.process_time()
            synced = await archive.sync(client)
            result["sync_s"].append(time.perf_counter() - started)
            result["sync_cpu_s"].append(time.process_time() - cpu)
            result["new"].append(synced.new)
            result["requests"].append(len(transport.sent))
            result["waits"].append(client.budget.waits)
    for run in range(runs if loopback else 0):
        assert loopback is not None
        with LogArchive.open("bench", path=directory / f"loopback-{run}.sqlite3") as fresh:
            async with _client(loopback, key, CountingTransport()) as client:
                started = time.perf_counter()
                await fresh.sync(client)
                result["loopback_s"].append(time.perf_counter() - started)
    assert archive is not None
    transport = CountingTransport()
    async with _client(base_url, key, transport) as client:
        started = time.perf_counter()
        synced = await archive.sync(client)
        result["again_s"] = time.perf_counter() - started
        result["again_new"] = synced.new
        result["again_requests"] = len(transport.sent)
    result["stored"] = archive.reach().count
    archive.close()
    return result


def _year(path: Path, runs: int) -> dict[str, Any]:
    from console.audit.archive import LogArchive
    from console.clock import now

    end = now()
    tenant_id = "00000000-0000-4000-8000-00000000b36e"
    result: dict[str, Any] = {
        "by_entity_s": [],
        "by_time_s": [],
        "by_actor_s": [],
        "by_entity_cpu_s": [],
        "by_time_cpu_s": [],
    }
    started = time.perf_counter()
    archive = LogArchive.open("bench", path=path)
    try:
        entries = year_of_entries(tenant_id, YEAR, end=end)
        stored = 0
        while True:
            batch = [entry for _, entry in zip(range(50_000), entries, strict=False)]
            if not batch:
                break
            stored += archive.store(batch)
        assert stored == YEAR, stored
    finally:
        archive.close()
    result["write_s"] = time.perf_counter() - started
    proxy = entity_id("proxy", 7)
    day_end = end - timedelta(days=100)
    applications = [actor_id(number) for number in range(ACTORS)]
    for _ in range(runs):
        archive = LogArchive.open("bench", path=path)
        try:
            started, cpu = time.perf_counter(), time.process_time()
            by_entity = archive.query(entity_type="proxy", entity_id=proxy)
            result["by_entity_s"].append(time.perf_counter() - started)
            result["by_entity_cpu_s"].append(time.process_time() - cpu)
            started, cpu = time.perf_counter(), time.process_time()
            by_time = archive.query(since=day_end - timedelta(days=1), until=day_end)
            result["by_time_s"].append(time.perf_counter() - started)
            result["by_time_cpu_s"].append(time.process_time() - cpu)
            started = time.perf_counter()
            last = archive.last_activity(applications)
            result["by_actor_s"].append(time.perf_counter() - started)
        finally:
            archive.close()
    assert by_entity and all(entry.entity_id == proxy for entry in by_entity)
    acted = ACTORS - ACTORS // 10  # every tenth entry is a person's: 4 of 40 never act
    assert by_time and len(last) == acted, (len(by_time), len(last))
    result["by_entity_rows"] = len(by_entity)
    result["by_time_rows"] = len(by_time)
    result["size_bytes"] = path.stat().st_size
    result["entries"] = YEAR
    return result


def main(part: str, target: str) -> None:
    runs = int(os.environ.get("BENCH_RUNS", RUNS))
    if part == "follow":
        result = asyncio.run(
            _follow(
                target,
                os.environ["BENCH_API_KEY"],
                Path(os.environ["BENCH_DATA_DIR"]),
                os.environ["BENCH_TENANT_ID"],
            )
        )
    elif part == "archive":
        key = os.environ["BENCH_API_KEY"]
        directory = Path(os.environ["BENCH_DIR"])
        loopback = os.environ.get("BENCH_UPSTREAM")
        result = asyncio.run(_archive(target, key, directory, runs, loopback))
    else:
        result = _year(Path(target), runs)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
