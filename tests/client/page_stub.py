"""A stub of a paged list that records how many requests are in flight at once.

The real service answers too fast, and in no order we choose, to show a walk's bounds: this
one answers `GET /applications?page=N&size=S` from a list of `total` names, each page after
a gate the test controls (`hold`), or a fault it scripts (`faults`: page -> statuses to
answer first, e.g. [429] or [503]). It counts requests in flight as each arrives and notes
when a connection closes unanswered (a cancelled request).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

from loopback_stub import LoopbackStub


@dataclass
class Arrival:
    page: int
    in_flight: int
    """Requests in flight when this one arrived, itself included."""


@dataclass
class PageStub(LoopbackStub):
    total: int = 1000
    hold: Callable[[int], asyncio.Event | None] = lambda page: None
    """The event page N waits on before it is answered (None: answered at once)."""
    faults: dict[int, list[int]] = field(default_factory=dict)
    retry_after: str = "1"
    arrivals: list[Arrival] = field(default_factory=list)
    closed_unanswered: list[int] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def pages_asked(self) -> list[int]:
        return [arrival.page for arrival in self.arrivals]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        page = 0
        answered = False
        try:
            while True:  # keep-alive: one request after another on the connection
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                target = head.decode("latin-1").split("\r\n")[0].split(" ")[1]
                query = parse_qs(urlsplit(target).query)
                page = int(query.get("page", ["1"])[0])
                size = int(query.get("size", ["100"])[0])
                answered = False
                self.in_flight += 1
                self.most_in_flight = max(self.most_in_flight, self.in_flight)
                self.arrivals.append(Arrival(page, self.in_flight))
                self.changed.set()
                try:
                    gate = self.hold(page)
                    if gate is not None:
                        closed = asyncio.ensure_future(reader.read(1))
                        opened = asyncio.ensure_future(gate.wait())
                        done, _ = await asyncio.wait(
                            {closed, opened}, return_when=asyncio.FIRST_COMPLETED
                        )
                        if closed in done:  # the client gave up on this request
                            opened.cancel()
                            self.closed_unanswered.append(page)
                            return
                        closed.cancel()
                    writer.write(self._answer(page, size))
                    await writer.drain()
                    answered = True
                finally:
                    self.in_flight -= 1
                    self.changed.set()
        except ConnectionError:
            if not answered:
                self.closed_unanswered.append(page)
        finally:
            writer.close()

    def _answer(self, page: int, size: int) -> bytes:
        statuses = self.faults.get(page)
        if statuses:
            status = statuses.pop(0)
            body = json.dumps({"title": "Slow down", "status": status}).encode()
            extra = f"Retry-After: {self.retry_after}\r\n" if status in (429, 503) else ""
            return (
                f"HTTP/1.1 {status} Fault\r\nContent-Type: application/problem+json\r\n"
                f"{extra}Content-Length: {len(body)}\r\n\r\n"
            ).encode() + body
        start = (page - 1) * size
        end = min(start + size, self.total)
        names = [f"Application {n:05d}" for n in range(start + 1, end + 1)]
        data = [{"id": f"id-{name[-5:]}", "name": name, "type": "private"} for name in names]
        pages = -(-self.total // size)
        envelope = {
            "data": data,
            "pagination": {
                "page_number": page,
                "page_size": size,
                "total_pages": pages,
                "total_items": self.total,
            },
        }
        body = json.dumps(envelope).encode()
        return (
            f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
