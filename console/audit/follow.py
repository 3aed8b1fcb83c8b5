"""New audit entries as they come: `tenant-console logs --follow` and the Logs section's `f`.

`LogFollower` sends exactly one request an interval (at 5 s, 12 a minute, within the
service's 200), each `GET /logs` from the newest entry seen (`start_date`, inclusive), one
page of the largest size, newest first. What it has already seen (by `Log.identity`) is not
given again; entries are given oldest first, so a stream reads in time order. More than a
page in one interval: the rest is read by cursor on the following intervals (still one
request each) before the newest are asked for again, so nothing is skipped. Every entry
read is kept in the archive when one is given; the actor filter is the follower's own (the
service has none).

Time is injectable (`clock`, `sleep`): tests drive it without waiting. Without `since`, the
first request only marks where "new" starts (the entries already there are not given);
with it, every entry from `since` on is given (those in `seen` excepted).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from console.models.logs import Log

if TYPE_CHECKING:
    from console.audit.archive import LogArchive
    from console.client import AdminClient, ApiError

log = logging.getLogger("console.audit")

DEFAULT_INTERVAL = 5.0
"""Seconds between requests: 12 a minute."""
MIN_INTERVAL = 1.0


class LogFollower:
    """`async for entry in LogFollower(client, interval=5.0, entity_type="proxy"):` ..."""

    def __init__(
        self,
        client: AdminClient,
        *,
        interval: float = DEFAULT_INTERVAL,
        entity_type: str | None = None,
        entity_id: str | None = None,
        actor_id: str | None = None,
        archive: LogArchive | None = None,
        since: datetime | None = None,
        seen: Iterable[str] = (),
        on_error: Callable[[ApiError], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        """`on_error`: told of a failed request, and following goes on at the next interval;
        without it the error ends the iteration (raised)."""
        if not interval >= MIN_INTERVAL:  # NaN too
            raise ValueError(f"The interval must be at least {MIN_INTERVAL:g} s, not {interval}.")
        self.client = client
        self.interval = interval
        self.entity_type = entity_type
        self.entity_id = entity_id
        self.actor_id = actor_id
        self.archive = archive
        self.on_error = on_error
        self._clock = clock
        self._sleep = sleep
        self.newest: datetime | None = since
        """The newest entry's time seen: where the next request starts."""
        self._seen: dict[str, datetime | None] = dict.fromkeys(seen)
        self._baseline = since is None
        self._pending: tuple[str, datetime | None] | None = None
        """A cursor still to read (more than a page came at once), with its start_date."""
        self.requests = 0

    def __aiter__(self) -> AsyncIterator[Log]:
        return self._follow()

    async def _follow(self) -> AsyncIterator[Log]:
        while True:
            started = self._clock()
            try:
                fresh = await self.poll()
            except Exception as error:
                from console.client import ApiError

                if self.on_error is None or not isinstance(error, ApiError):
                    raise
                log.warning("Following the logs: a request failed: %s", error)
                self.on_error(error)
                fresh = []
            for entry in fresh:
                yield entry
            wait = started + self.interval - self._clock()
            if wait > 0:
                await self._sleep(wait)

    async def poll(self) -> list[Log]:
        """One request: the entries new since the last, oldest first (the actor filter
        applied). Used by `__aiter__` once an interval; callable alone (the console's timer)."""
        if self._pending is not None:
            cursor, start_date = self._pending
        else:
            cursor, start_date = "", self.newest
        self.requests += 1
        envelope = await self.client.logs.page(
            entity_type=self.entity_type,
            entity_id=self.entity_id,
            start_date=start_date,
            start=cursor,
        )
        entries = [e for e in map(_readable, envelope["data"]) if e is not None]
        after = (envelope.get("pagination") or {}).get("after")
        self._pending = None
        if envelope["data"] and isinstance(after, str) and after and after != cursor:
            self._pending = (after, start_date)
        if self.archive is not None and entries:
            try:
                self.archive.store(entries)
            except Exception:  # the stream goes on; the archive catches up at its next sync
                log.exception("The followed log entries could not be archived")
        fresh = [e for e in entries if e.identity not in self._seen]
        for entry in fresh:
            self._seen[entry.identity] = entry.created_at
        times = [e.created_at for e in entries if e.created_at is not None]
        if times and (self.newest is None or max(times) > self.newest):
            self.newest = max(times)
        self._forget_older()
        if self._baseline:
            self._baseline = False
            if self._pending is not None:
                self._pending = None  # what was there before is not followed back
            return []
        fresh.reverse()  # oldest first
        if self.actor_id is not None:
            fresh = [e for e in fresh if e.actor_id == self.actor_id]
        return fresh

    def _forget_older(self) -> None:
        """Identities older than any later request can answer are dropped (memory stays
        flat however long it follows)."""
        floor = self.newest
        if self._pending is not None:
            floor = self._pending[1]
        if floor is None or len(self._seen) < 1000:
            return
        self._seen = {k: at for k, at in self._seen.items() if at is None or at >= floor}


def _readable(item: Any) -> Log | None:
    from pydantic import ValidationError

    try:
        return Log.model_validate(item)
    except ValidationError:
        log.warning("Skipped a log entry the console cannot read")
        return None
