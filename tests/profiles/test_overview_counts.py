"""The overview's counts (console.estate.overview): the service's total when page 1 has one,
else a walk of the pages through the page walker, a few in flight and never more than its
bound, within the profile's request budget, stopped with the check.

Against a stub tenant that records how many requests are in flight (tests/paged_tenant.py):
the real service sends totals and answers too fast to show a walk's bounds."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from paged_tenant import KEY, PagedTenant

from console.client.budget import RequestBudget
from console.client.index import LocalIndex
from console.client.walk import IN_FLIGHT, MOST_IN_FLIGHT
from console.estate.overview import (
    COUNT_PAGE_SIZE,
    Count,
    KeyLookup,
    ProfileStatus,
    ProfileTarget,
    check_profile,
    check_profiles,
)

APPS, PROXIES, FORMULAS = "/applications", "/proxies", "/reactor-formulas"


@pytest.fixture
async def tenant() -> AsyncIterator[PagedTenant]:
    running = await PagedTenant(sizes={APPS: 1_050, PROXIES: 3, FORMULAS: 250}).start()
    yield running
    await running.stop()


def target(stub: PagedTenant, **extra: Any) -> ProfileTarget:
    def read(timeout: float) -> KeyLookup:
        return KeyLookup(KEY)

    return ProfileTarget(name="paged", base_url=stub.base_url, read_key=read, **extra)


async def test_without_totals_the_count_walks_several_pages_in_flight_never_more_than_the_bound(
    tenant: PagedTenant,
) -> None:
    """Page 1 says nothing of a total: the other pages go out several at once (IN_FLIGHT),
    no more while those are held, and never more than MOST_IN_FLIGHT; every object is
    counted, each page asked for once."""
    gates = {n: asyncio.Event() for n in range(2, 13)}
    tenant.hold = lambda path, page: gates.get(page) if path == APPS else None
    checking = asyncio.ensure_future(check_profile(target(tenant), timeout=30))
    await tenant.wait_for(lambda: tenant.in_flight_of[APPS] == IN_FLIGHT)
    assert sorted(tenant.pages_of(APPS)) == [1, 2, 3, 4, 5], "page 1, then four at once"
    for n in (5, 4, 3):  # answered before page 2: they wait for it, nothing more goes out
        gates[n].set()
    await tenant.wait_for(lambda: tenant.in_flight_of[APPS] == 1)
    assert sorted(tenant.pages_of(APPS)) == [1, 2, 3, 4, 5]
    for gate in gates.values():
        gate.set()
    status = await checking

    assert status.status == "ok", status.message
    assert status.applications == Count(value=1_050)
    assert status.proxies == Count(value=3)  # a short page 1 is all there is
    assert status.formulas == Count(value=125)  # the private ones among 250
    pages = tenant.pages_of(APPS)
    assert len(pages) == len(set(pages)) and set(range(1, 12)) <= set(pages), "each page once"
    assert max(pages) <= 11 + MOST_IN_FLIGHT, "past the short page 11, only those in flight"
    assert 1 < tenant.most_in_flight_of[APPS] <= MOST_IN_FLIGHT
    # Besides the walks' pages, only the code surfaces' probe: page 1 of size 1 of the
    # formulas and of the reactors (which this tenant's service does not offer).
    probes = sorted(path for path, _page, size in tenant.asked if size != COUNT_PAGE_SIZE)
    assert probes == [FORMULAS]  # (the 404 of /reactors is not among the pages asked)
    assert status.reactors is not None and status.reactors.text() == "not offered"


async def test_a_total_on_page_1_is_the_count_and_nothing_is_walked(tenant: PagedTenant) -> None:
    tenant.totals = True
    status = await check_profile(target(tenant), timeout=30)
    assert status.applications == Count(value=1_050)
    assert status.proxies == Count(value=3)
    assert tenant.pages_of(APPS) == [1] and tenant.pages_of(PROXIES) == [1]
    # The private formulas cannot be filtered: the pages the total names, walked together.
    assert status.formulas == Count(value=125)
    walked = [page for path, page, size in tenant.asked if path == FORMULAS and size > 1]
    assert sorted(walked) == [1, 2, 3]  # (and the code surfaces' probe, of size 1)


async def test_the_count_walk_keeps_to_the_profiles_request_budget() -> None:
    """A budget of 5 requests a minute, shared (as the console shares its own): the walk
    waits for it rather than send more, says how long through the budget, and completes."""
    stub = await PagedTenant(sizes={APPS: 1_050, PROXIES: 0, FORMULAS: 0}).start()
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    budget = RequestBudget(5, clock=lambda: 1000.0, sleep=sleep)
    try:
        status = await check_profile(target(stub, budget=budget), timeout=30)
    finally:
        await stub.stop()
    assert status.applications == Count(value=1_050)
    assert budget.waits >= 1 and slept and all(s > 0 for s in slept)


async def test_a_walk_past_its_deadline_says_at_least_and_the_row_stays_ok(
    tenant: PagedTenant,
) -> None:
    """Pages that never come: the count stops at its share of the timeout with what it has
    (page 1's 100, "≥100"), the row is not lost to a timeout, and nothing stays in flight."""
    never = asyncio.Event()
    tenant.hold = lambda path, page: never if path == APPS and page > 1 else None
    status = await check_profile(target(tenant), timeout=2.0)
    assert status.status == "ok", status.message
    assert status.applications == Count(value=100, exact=False)
    assert status.applications.text() == "≥100"
    await tenant.wait_for(lambda: tenant.in_flight == 0)
    assert {page for path, page in tenant.closed_unanswered if path == APPS} == {2, 3, 4, 5}


async def test_stopping_the_overview_stops_every_count_request_in_flight(
    tenant: PagedTenant,
) -> None:
    """What leaving the overview does (its worker cancelled): every request still in flight
    is closed unanswered."""
    never = asyncio.Event()
    tenant.hold = lambda path, page: never if page > 1 else None

    async def first_status() -> list[ProfileStatus]:
        return [status async for status in check_profiles([target(tenant)], timeout=30)]

    checking = asyncio.ensure_future(first_status())
    await tenant.wait_for(
        lambda: tenant.in_flight_of[APPS] == tenant.in_flight_of[FORMULAS] == IN_FLIGHT
    )
    checking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await checking
    await tenant.wait_for(lambda: tenant.in_flight == 0)
    closed = sorted(tenant.closed_unanswered)
    assert closed == [(path, page) for path in (APPS, FORMULAS) for page in (2, 3, 4, 5)]


async def test_the_pages_a_count_reads_go_into_the_profiles_local_index(
    tenant: PagedTenant,
) -> None:
    """As every page and walk of the console: kind, id and name of each object the counts
    saw, in the profile's index (the private cache directory of the tests)."""
    status = await check_profile(target(tenant), timeout=30)
    assert status.applications == Count(value=1_050)
    index = LocalIndex.for_profile("paged", tenant.base_url)
    try:
        assert index.count("applications") == 1_050
        assert index.count("proxies") == 3
        assert index.count("formulas") == 250
        assert [row.id for row in index.search("applications 01050")] == ["applications-01050"]
    finally:
        index.close()


async def test_a_429_in_the_count_walk_is_waited_out_and_the_count_completes(
    tenant: PagedTenant,
) -> None:
    """The service pushes back on page 3: its Retry-After is waited out through the
    profile's budget (no real time here), page 3 is asked again, and the count is exact."""
    tenant.faults = {(APPS, 3): [429]}
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    budget = RequestBudget(None, sleep=sleep)
    status = await check_profile(target(tenant, budget=budget), timeout=30)
    assert status.status == "ok", status.message
    assert status.applications == Count(value=1_050)
    assert tenant.pages_of(APPS).count(3) == 2
    assert budget.pushbacks == 1
    assert any(0 < seconds <= 1 for seconds in slept), slept
