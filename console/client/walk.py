"""The one way the console walks every page of a collection: several pages in flight, in order.

The hosted service is 50-200 ms away, and the pages of a list are independent (`page=N`):
reading them one after another costs a round trip each, so a walk keeps a few requests in
flight (IN_FLIGHT to start with, MOST_IN_FLIGHT at most). It stays polite: a 429 or 5xx
answer (seen through the profile's RequestBudget) halves the requests in flight, clean
pages let them grow again one at a time, and the budget itself waits out Retry-After and
the profile's requests a minute before anything is sent. Pages are handed out in list
order, whatever order they arrive in; at most the pages in flight are held (a page arrived
early waits for those before it, and counts as in flight until then). Stopping the loop
(escape cancels the worker running it; callers close it with contextlib.aclosing) cancels
every request still in flight.

Used by the tenant search and the palette (console.tui.browse.search), load all (the lists), the
access review and who holds (console.client.review), `export`, `diff` and `apply`
(console.estate.tenant), `tenant-console search` (console.client.find), the client's
`iterate()`, the proxies-using scan and the overview's counts of a service that sends no
totals (console.estate.overview). Neither Textual nor pydantic here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from console.client.envelope import page_numbers

if TYPE_CHECKING:
    from console.client.budget import RequestBudget

log = logging.getLogger("console.client")

IN_FLIGHT = 4
"""Requests in flight at the start of a walk: 101 pages in some 26 round trips instead of
101, well within the service's limit of requests a minute."""
MOST_IN_FLIGHT = 8
"""At most, once pages come back clean: a service 150 ms away spends some of each round
trip working, and a few more in flight hide that; the request budget still bounds the
requests a minute."""
GROW_AFTER = 4
"""Clean pages (no 429 or 5xx meanwhile) before one more request may be in flight."""
MAX_PAGES = 100_000
"""A guard against a service that never ends its pages."""
WALK_PAGE_SIZE = 100
"""The largest page the service serves (api-decisions.md: `size` 1 to 100)."""

T = TypeVar("T")


@dataclass(frozen=True)
class PageEnd:
    """What one page says of the walk: whether more follow, and how many there are."""

    has_more: bool
    total_pages: int | None = None


def envelope_end(envelope: dict[str, Any], number: int, size: int = WALK_PAGE_SIZE) -> PageEnd:
    """PageEnd of a page envelope as sent (console.client.envelope): an empty page ends it."""
    total, has_more = page_numbers(envelope, number, size)
    pages = (envelope.get("pagination") or {}).get("total_pages")
    if not isinstance(pages, int) and total is not None and size > 0:
        pages = -(-total // size)
    return PageEnd(
        has_more and bool(envelope.get("data")), pages if isinstance(pages, int) else None
    )


@dataclass
class InFlight:
    """How many requests a walk keeps in flight: `limit` to start with, halved on a 429 or
    5xx, up by one after GROW_AFTER clean pages, never above `ceiling` nor below one."""

    limit: int = IN_FLIGHT
    ceiling: int = MOST_IN_FLIGHT
    _clean: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self.limit = max(1, self.limit)
        self.ceiling = max(self.limit, self.ceiling)

    def shrink(self) -> None:
        self.limit = max(1, self.limit // 2)
        self._clean = 0

    def clean(self) -> None:
        self._clean += 1
        if self._clean >= GROW_AFTER and self.limit < self.ceiling:
            self.limit += 1
            self._clean = 0


async def walk_pages(
    fetch: Callable[[int], Awaitable[T]],
    end_of: Callable[[T, int], PageEnd],
    *,
    budget: RequestBudget | None = None,
    in_flight: int | InFlight = IN_FLIGHT,
    pages: int | None = None,
    first: int = 1,
    max_pages: int = MAX_PAGES,
) -> AsyncGenerator[tuple[int, T], None]:
    """`(number, page)` for every page from `first`, in order, with several in flight.

    `fetch(n)` reads page n; `end_of(page, n)` says whether more follow. `pages`: how many
    pages the caller expects (a list that knows its total): the first requests then go
    out together; otherwise page `first` goes alone, and its totals say how many follow
    (without totals, pages are asked for ahead and those past the end come back empty).
    `budget`: the client's, whose 429s and 5xx make the walk send fewer at once."""
    window = in_flight if isinstance(in_flight, InFlight) else InFlight(in_flight)
    tasks: dict[int, asyncio.Future[T]] = {}
    # A hint only: at least page `first` is asked for, and every page's totals correct it.
    last = min(max(pages, first), max_pages) if pages is not None else None
    number = next_send = first
    first_seen = pages is not None
    pushbacks = budget.pushbacks if budget is not None else 0

    def launch() -> None:
        nonlocal next_send
        while len(tasks) < window.limit and next_send <= min(last or max_pages, max_pages):
            if not first_seen and next_send > first:
                return  # how many pages there are comes with the first
            task = asyncio.ensure_future(fetch(next_send))
            task.add_done_callback(_observed)
            tasks[next_send] = task
            next_send += 1

    try:
        launch()
        while number in tasks:
            result = await tasks[number]
            del tasks[number]
            if budget is not None and budget.pushbacks != pushbacks:
                pushbacks = budget.pushbacks
                window.shrink()
                log.info("The service pushed back: %d requests in flight now", window.limit)
            else:
                window.clean()
            end = end_of(result, number)
            if end.total_pages is not None:
                last = max(number, min(end.total_pages, max_pages))
            if not end.has_more or number >= max_pages:
                last = number
                for later in [n for n in tasks if n > number]:
                    tasks.pop(later).cancel()
            first_seen = True
            number += 1
            launch()  # the next requests go out before this page is worked on
            yield number - 1, result
            if last is not None and number > last:
                return
    finally:
        for task in tasks.values():  # stopped (escape, an error): nothing stays in flight
            task.cancel()


def _observed(task: asyncio.Future[Any]) -> None:
    """Reads a finished request's failure, so one cancelled or past the end of the walk is
    not reported as lost."""
    if not task.cancelled():
        task.exception()
