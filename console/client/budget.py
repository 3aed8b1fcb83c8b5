"""A profile's request budget: at most N requests in any minute, waited for before sending.

The hosted service limits management keys to about 200 requests a minute and answers 429
beyond. Rather than be refused, the console waits before it sends (a walk slows down and
says so), and a 429 that comes anyway pauses every request of the budget for its
Retry-After. Waiting happens before a request is sent, so it holds for a POST too: a POST
is delayed, never repeated. Neither httpx nor Textual here.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("console.client")

DEFAULT_PER_MINUTE = 200
"""The hosted service's management limit: a profile's budget unless it sets its own."""
WINDOW = 60.0
MARGIN = 1.0
"""Seconds added to the window: the service counts a request when it arrives, a little
after the console sent it, so its minute ends a little later than the console's."""

WaitListener = Callable[[float], None]
"""Told the seconds a wait will last when it starts, and 0 when it ends."""


def waiting_text(seconds: float) -> str:
    """ "waiting for the rate limit, 12 s": what the console says while it waits."""
    return f"waiting for the rate limit, {max(1, math.ceil(seconds))} s"


class RequestBudget:
    """The requests one profile may still send this minute, shared by all its requests.

    `per_minute` None: no budget of its own (a 429 still pauses, as the service says).
    `clock` and `sleep` are injectable so tests wait no real time."""

    def __init__(
        self,
        per_minute: int | None = DEFAULT_PER_MINUTE,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        if per_minute is not None and per_minute < 1:
            raise ValueError(f"A request budget must allow at least 1 a minute, not {per_minute}.")
        self.per_minute = per_minute
        self._clock = clock
        self._sleep = sleep
        self._sent: deque[float] = deque()
        self._resume_at = 0.0
        self._listeners: list[WaitListener] = []
        self._lock: asyncio.Lock | None = None
        self.pushbacks = 0
        """429s and 5xx answers seen: a page walk sends fewer at once after each."""
        self.waiting_until: float | None = None
        """While a request waits: when (on `clock`) the wait ends."""
        self.waits = 0
        self.waited = 0.0
        """How many waits there were, and their seconds (for the benchmarks and logs)."""

    def watch(self, listener: WaitListener) -> Callable[[], None]:
        """Calls `listener` as waits start and end; returns what stops it."""
        self._listeners.append(listener)

        def unwatch() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return unwatch

    @property
    def waiting(self) -> float:
        """Seconds the current wait still lasts (0 when none)."""
        if self.waiting_until is None:
            return 0.0
        return max(0.0, self.waiting_until - self._clock())

    def delay(self) -> float:
        """Seconds before the next request may be sent."""
        now = self._clock()
        while self._sent and self._sent[0] <= now - WINDOW - MARGIN:
            self._sent.popleft()
        wait = max(0.0, self._resume_at - now)
        if self.per_minute is not None and len(self._sent) >= self.per_minute:
            oldest = self._sent[len(self._sent) - self.per_minute]
            wait = max(wait, oldest + WINDOW + MARGIN - now)
        return wait

    def room(self) -> int | None:
        """Requests that may be sent now without waiting: None where the budget sets no limit
        of its own, 0 while a wait (a 429's Retry-After) lasts. For work nobody asked for
        (a list read again when opened), which is skipped when it would make others wait."""
        if self.delay() > 0:  # also forgets the requests older than the window
            return 0
        if self.per_minute is None:
            return None
        return max(0, self.per_minute - len(self._sent))

    async def acquire(self) -> None:
        """Waits, if need be, until a request may be sent, and counts it as sent. Requests
        wait in turn; cancelling one (escape) takes it out of the queue."""
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            wait = self.delay()
            if wait > 0:
                await self._wait(wait)
            self._sent.append(self._clock())
            if self.per_minute is not None:
                while len(self._sent) > self.per_minute:
                    self._sent.popleft()

    async def _wait(self, seconds: float) -> None:
        self.waiting_until = self._clock() + seconds
        self.waits += 1
        self.waited += seconds
        self._tell(seconds)
        try:
            await self._sleep(seconds)
        finally:
            self.waiting_until = None
            self._tell(0.0)

    def pushback(self, status: int | None, retry_after: float | None = None) -> None:
        """The service answered 429 or 5xx: walks send fewer at once, and for `retry_after`
        seconds no request of this budget is sent."""
        self.pushbacks += 1
        if retry_after is not None and retry_after > 0:
            self._resume_at = max(self._resume_at, self._clock() + retry_after)

    def _tell(self, seconds: float) -> None:
        for listener in list(self._listeners):
            try:
                listener(seconds)
            except Exception:  # a view that cannot show the wait must not stop the request
                log.exception("A rate-limit listener failed")

    def __repr__(self) -> str:
        return f"RequestBudget(per_minute={self.per_minute!r})"
