"""The follower (console.audit.follow) against the local service: exactly one request an
interval, from the newest entry seen, each new entry once, oldest first; time driven by an
injected clock and sleep, never waited for."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from audit_helpers import Counting, ago

from console.audit.archive import LogArchive
from console.audit.follow import LogFollower
from console.client import AdminClient, RetryPolicy, ServiceUnreachable


class Time:
    """A clock that moves only when slept on; each sleep may run a step of the test (new
    entries made "meanwhile")."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []
        self.steps: list[Callable[[], Any]] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        if self.steps:
            result = self.steps.pop(0)()
            if isinstance(result, Awaitable):
                await result


async def take(follower: LogFollower, count: int) -> list[Any]:
    taken: list[Any] = []
    async for entry in follower:
        taken.append(entry)
        if len(taken) == count:
            break
    return taken


async def test_one_request_an_interval_each_new_entry_once_oldest_first(
    client: AdminClient, seed: Any, counting: Counting
) -> None:
    seed([ago(minutes=5)], message="Before")
    time = Time()
    time.steps = [
        lambda: None,  # nothing new in the first interval
        lambda: seed([ago(seconds=3), ago(seconds=2)], message="New"),
        lambda: seed([ago(seconds=1)], message="Newer"),
    ]
    follower = LogFollower(client, interval=5.0, clock=time.clock, sleep=time.sleep)
    entries = await take(follower, 3)
    assert [e.message for e in entries] == ["New", "New", "Newer"]
    assert entries[0].created_at < entries[1].created_at  # oldest first
    assert follower.requests == len(counting.logs_requests()) == 4
    assert time.slept == [5.0, 5.0, 5.0]  # one request each 5 s: 12 a minute
    # Each request starts at the newest entry seen (inclusive).
    starts = [r.url.params.get("start_date") for r in counting.logs_requests()]
    assert starts[0] is None and all(starts[1:])


async def test_more_than_a_page_at_once_is_read_on_the_next_intervals(
    client: AdminClient, seed: Any, counting: Counting
) -> None:
    time = Time()
    time.steps = [lambda: seed([ago(seconds=60 - n * 0.1) for n in range(150)])]
    follower = LogFollower(client, interval=5.0, clock=time.clock, sleep=time.sleep)
    entries = await take(follower, 150)
    assert len({e.identity for e in entries}) == 150
    assert follower.requests == 3  # the baseline, then 100 and 50: one an interval
    assert len(time.slept) == 2


async def test_since_actor_and_archive(
    client: AdminClient, seed: Any, tenant: Any, data_dir: Any
) -> None:
    seed([ago(minutes=10)], message="Too old")
    seed([ago(minutes=2)], message="Mine")
    seed([ago(minutes=1)], actor="someone-else", message="Theirs")
    time = Time()
    with LogArchive.open("prod") as archive:
        follower = LogFollower(
            client,
            since=ago(minutes=5),
            actor_id=tenant.application_id,
            archive=archive,
            clock=time.clock,
            sleep=time.sleep,
        )
        (mine,) = await take(follower, 1)
        assert mine.message == "Mine"
        assert {e.message for e in archive.query()} == {"Mine", "Theirs"}  # all it read


async def test_an_interval_below_a_second_is_refused(client: AdminClient) -> None:
    with pytest.raises(ValueError):
        LogFollower(client, interval=0.5)


class Enough(Exception):
    """Ends a follow that would go on for ever."""


def enough() -> None:
    raise Enough


async def test_a_failed_request_is_told_and_following_goes_on(tenant: Any) -> None:
    told: list[Exception] = []
    time = Time()
    time.steps = [lambda: None, enough]
    no_retry = RetryPolicy(max_attempts=1)
    async with AdminClient("http://127.0.0.1:9", tenant.key, retry=no_retry) as dead:
        follower = LogFollower(dead, on_error=told.append, clock=time.clock, sleep=time.sleep)
        with pytest.raises(Enough):
            await take(follower, 1)
        assert len(told) == 2 and all(isinstance(e, ServiceUnreachable) for e in told)
        assert time.slept == [5.0, 5.0]
        with pytest.raises(ServiceUnreachable):  # without on_error, the error ends it
            await take(LogFollower(dead, clock=time.clock, sleep=time.sleep), 1)
