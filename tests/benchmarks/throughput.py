"""Service throughput: requests per second and p99 latency under a bounded concurrent load.

The load comes from this process (asyncio, httpx, CONNECTIONS keep-alive connections), so
the service process has a core to itself on a two-core machine. Every endpoint gets the
same treatment in the same run, alternating, so drift in the machine hits both alike.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

CONNECTIONS = 8
REQUESTS = 2000
WARM_UP = 100


@dataclass(frozen=True)
class Load:
    requests_per_second: float
    p99_s: float


async def _load(base_url: str, key: str, path_of: Callable[[int], str], count: int) -> Load:
    limits = httpx.Limits(max_connections=CONNECTIONS, max_keepalive_connections=CONNECTIONS)
    headers = {"SVC-API-KEY": key}
    latencies: list[float] = []
    counter = itertools.count()
    async with httpx.AsyncClient(
        base_url=base_url, headers=headers, limits=limits, timeout=30
    ) as http:

        async def worker(record: bool, total: int) -> None:
            while (n := next(counter)) < total:
                started = time.perf_counter()
                response = await http.get(path_of(n))
                if response.status_code != 200:
                    raise RuntimeError(f"{path_of(n)} answered {response.status_code}")
                if record:
                    latencies.append(time.perf_counter() - started)

        await asyncio.gather(*(worker(False, WARM_UP) for _ in range(CONNECTIONS)))
        counter = itertools.count()
        started = time.perf_counter()
        await asyncio.gather(*(worker(True, count) for _ in range(CONNECTIONS)))
        elapsed = time.perf_counter() - started
    latencies.sort()
    return Load(len(latencies) / elapsed, latencies[int(len(latencies) * 0.99) - 1])


def applications_paths(total_pages: int, seed: int = 1) -> Callable[[int], str]:
    """`/applications?size=20&page=N` over every page of the tenant, in a shuffled order."""
    pages = list(range(1, total_pages + 1))
    random.Random(seed).shuffle(pages)
    return lambda n: f"/applications?size=20&page={pages[n % len(pages)]}"


def measure(
    base_url: str, key: str, applications: int, rounds: int
) -> tuple[list[Load], list[Load]]:
    """(GET /applications loads, GET /permissions loads), one of each per round."""
    paths = applications_paths(applications // 20)
    listing: list[Load] = []
    catalogue: list[Load] = []
    for _ in range(rounds):
        listing.append(asyncio.run(_load(base_url, key, paths, REQUESTS)))
        catalogue.append(asyncio.run(_load(base_url, key, lambda n: "/permissions", REQUESTS)))
    return listing, catalogue
