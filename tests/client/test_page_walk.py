"""The concurrent page walk (console.client.walk): bounds, order, back-off, cancellation.

Against a stub list that records how many requests are in flight (page_stub): the real
service answers too fast, and in its own order, to show any of this.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest
from client_helpers import RecordedSleeps
from page_stub import PageStub

from console.client import AdminClient, RetryPolicy
from console.client.budget import RequestBudget, waiting_text
from console.client.walk import IN_FLIGHT, InFlight, envelope_end, walk_pages

KEY = "walk-key-0123456789abcdefghijklmn"


@pytest.fixture
async def stub() -> AsyncIterator[PageStub]:
    running = await PageStub().start()
    yield running
    await running.stop()


def client_for(stub: PageStub, sleeps: RecordedSleeps) -> AdminClient:
    retry = dataclasses.replace(RetryPolicy(), sleep=sleeps)
    return AdminClient(stub.base_url, KEY, retry=retry, budget=RequestBudget(None, sleep=sleeps))


async def collect(
    client: AdminClient, window: InFlight | None = None, limits: list[int] | None = None
) -> list[int]:
    """The page numbers as the walk hands them out (and the limit in force at each)."""
    numbers = []
    async for number, envelope in walk_pages(
        lambda n: client.applications.page_json(page=n, size=100),
        envelope_end,
        budget=client.budget,
        in_flight=window or IN_FLIGHT,
    ):
        assert envelope["pagination"]["page_number"] == number
        numbers.append(number)
        if limits is not None and window is not None:
            limits.append(window.limit)
    return numbers


async def test_four_pages_in_flight_at_most_handed_out_in_list_order(
    stub: PageStub, sleeps: RecordedSleeps
) -> None:
    """Page 1 alone (it says how many there are), then four at once; pages 3-5 answered
    before page 2 wait for it, and no fifth request goes out while they wait (only the
    pages in flight are held)."""
    gates = {n: asyncio.Event() for n in (2, 3, 4, 5)}
    stub.hold = gates.get
    async with client_for(stub, sleeps) as client:
        walking = asyncio.ensure_future(collect(client))
        await stub.wait_for(lambda: stub.in_flight == 4)
        assert stub.pages_asked() == [1, 2, 3, 4, 5]
        for n in (5, 4, 3):
            gates[n].set()
        await stub.wait_for(lambda: stub.in_flight == 1)
        assert stub.pages_asked() == [1, 2, 3, 4, 5], "nothing more while page 2 is awaited"
        gates[2].set()
        numbers = await walking
    assert numbers == list(range(1, 11))
    assert sorted(stub.pages_asked()) == list(range(1, 11)), "each page asked for once"
    assert 4 <= stub.most_in_flight <= 8, "clean pages let a few more go out, never many"
    assert stub.arrivals[0].in_flight == 1, "page 1 went alone"


async def test_a_429_halves_the_requests_in_flight_and_waits_out_retry_after(
    stub: PageStub, sleeps: RecordedSleeps
) -> None:
    stub.total = 3000  # 30 pages: room to grow back
    stub.faults = {3: [429]}
    stub.retry_after = "7"
    told: list[float] = []
    window, limits = InFlight(4), []
    async with client_for(stub, sleeps) as client:
        client.budget.watch(told.append)
        numbers = await collect(client, window, limits)
    assert numbers == list(range(1, 31)), "every page, in order, none lost to the 429"
    assert stub.pages_asked().count(3) == 2, "page 3 asked again after the wait"
    assert min(limits) == 2, "fewer requests in flight after the 429"
    assert limits[-1] > 2 and max(limits) <= 8, "growing again after clean pages, bounded"
    assert sleeps.waits and 6.9 <= max(sleeps.waits) <= 7.0, "Retry-After is honoured"
    assert told and 6.9 <= max(told) <= 7.0 and told[-1] == 0.0
    assert waiting_text(max(told)) == "waiting for the rate limit, 7 s"


async def test_a_5xx_halves_the_requests_in_flight(stub: PageStub, sleeps: RecordedSleeps) -> None:
    stub.faults = {2: [503], 6: [502]}
    window, limits = InFlight(4), []  # pages 2 and 6 come before growth could undo it
    async with client_for(stub, sleeps) as client:
        numbers = await collect(client, window, limits)
    assert numbers == list(range(1, 11))
    assert stub.pages_asked().count(2) == 2 and stub.pages_asked().count(6) == 2
    assert min(limits) == 1, "halved twice"


async def test_stopping_the_walk_cancels_every_request_in_flight(
    stub: PageStub, sleeps: RecordedSleeps
) -> None:
    never = asyncio.Event()
    stub.hold = lambda page: never if page >= 2 else None
    async with client_for(stub, sleeps) as client:
        walking = asyncio.ensure_future(collect(client))
        await stub.wait_for(lambda: stub.in_flight == 4)
        walking.cancel()  # what escape does to the worker running a walk
        with pytest.raises(asyncio.CancelledError):
            await walking
        await stub.wait_for(lambda: len(stub.closed_unanswered) == 4)
    assert sorted(stub.closed_unanswered) == [2, 3, 4, 5]
    assert stub.in_flight == 0


async def test_never_more_than_eight_in_flight(stub: PageStub, sleeps: RecordedSleeps) -> None:
    stub.total = 6000
    window, limits = InFlight(4), []
    async with client_for(stub, sleeps) as client:
        assert await collect(client, window, limits) == list(range(1, 61))
    assert stub.most_in_flight <= 8 and max(limits) == 8


async def test_a_walk_of_one_page_sends_one_request(stub: PageStub, sleeps: RecordedSleeps) -> None:
    stub.total = 30
    async with client_for(stub, sleeps) as client:
        assert await collect(client) == [1]
    assert stub.pages_asked() == [1]


async def test_without_totals_pages_are_asked_for_ahead_and_the_end_is_kept(
    sleeps: RecordedSleeps,
) -> None:
    """A service without totals: a full page means more may follow; pages asked for past
    the end come back empty and are not handed out."""
    rows = [{"id": str(n), "name": f"n{n}"} for n in range(250)]

    async def fetch(number: int) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"data": rows[(number - 1) * 100 : number * 100]}

    got = [n async for n, _page in walk_pages(fetch, envelope_end)]
    assert got == [1, 2, 3]


def test_the_budget_waits_before_sending_and_says_so() -> None:
    """Three a minute: the fourth request waits for the first to leave the minute, and
    the listeners are told how long ("waiting for the rate limit, 61 s"), then 0."""
    now = [1000.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    budget = RequestBudget(3, clock=lambda: now[0], sleep=sleep)
    told: list[float] = []
    budget.watch(told.append)

    async def run() -> None:
        for _ in range(3):
            await budget.acquire()
            now[0] += 0.5
        await budget.acquire()

    asyncio.run(run())
    assert slept == [pytest.approx(59.5)]
    assert told == [pytest.approx(59.5), 0.0]
    assert waiting_text(told[0]) == "waiting for the rate limit, 60 s"
    assert budget.waits == 1


def test_a_429_pauses_every_request_of_the_budget() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    budget = RequestBudget(None, clock=lambda: now[0], sleep=sleep)
    budget.pushback(429, 12)
    asyncio.run(budget.acquire())
    assert slept == [12]
    assert budget.pushbacks == 1


def test_the_room_left_counts_the_minute_and_a_429s_pause() -> None:
    """What a list read again unasked asks of the budget: the requests it may still send
    this minute without waiting; none during a 429's Retry-After; no limit of its own."""
    now = [1000.0]
    budget = RequestBudget(4, clock=lambda: now[0])

    async def send(count: int) -> None:
        for _ in range(count):
            await budget.acquire()

    asyncio.run(send(3))
    assert budget.room() == 1
    now[0] += 62  # the minute (and its margin) is over
    assert budget.room() == 4
    budget.pushback(429, 10)
    assert budget.room() == 0
    now[0] += 11
    assert budget.room() == 4
    assert RequestBudget(None, clock=lambda: now[0]).room() is None


async def test_an_expected_page_count_is_a_hint_the_totals_correct(
    stub: PageStub, sleeps: RecordedSleeps
) -> None:
    """A list that thought it had 3 pages (it grew to 10 meanwhile), or none: every page
    is still read, in order."""
    async with client_for(stub, sleeps) as client:
        for hint in (3, 0):
            got = [
                n
                async for n, _page in walk_pages(
                    lambda n: client.applications.page_json(page=n, size=100),
                    envelope_end,
                    budget=client.budget,
                    pages=hint,
                )
            ]
            assert got == list(range(1, 11)), hint
