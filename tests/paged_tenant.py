"""A stub of a whole tenant whose list pages may come without totals, recording how many
requests are in flight: for the walks the real service answers too fast to show (the
overview's counts).

`GET /tenants/self` and its usage report are answered at once; `GET /applications`,
`/proxies` and `/reactor-formulas` (`page=N&size=S`) from `sizes` objects each (formulas
alternate private and official), with or without `pagination` (`totals`), each page after
a gate the test controls (`hold(path, page)`) or a fault it scripts (`faults`). It counts
the list requests in flight as each arrives and notes those whose connection closed
unanswered (a cancelled request). Loopback only, in the test's own event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from loopback_stub import LoopbackStub

KEY = "paged-tenant-key-0123456789abcdef"
LISTS = ("/applications", "/proxies", "/reactor-formulas")
TENANT = {"id": "7e2a0c1e-0000-4000-8000-00000000aaaa", "name": "Paged Tenant"}


@dataclass
class PagedTenant(LoopbackStub):
    sizes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LISTS, 0))
    totals: bool = False
    hold: Callable[[str, int], asyncio.Event | None] = lambda path, page: None
    faults: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    """(path, page) -> statuses to answer first (429 and 503 with `Retry-After: 1`)."""
    asked: list[tuple[str, int, int]] = field(default_factory=list)
    """(path, page, size) of every list request, in the order they arrived."""
    closed_unanswered: list[tuple[str, int]] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0
    in_flight_of: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LISTS, 0))
    most_in_flight_of: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LISTS, 0))
    """The same, per list: one walk's requests."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def pages_of(self, path: str) -> list[int]:
        return [page for asked, page, _size in self.asked if asked == path]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:  # keep-alive: one request after another on the connection
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                target = head.decode("latin-1").split("\r\n")[0].split(" ")[1]
                parts = urlsplit(target)
                if parts.path not in LISTS:
                    writer.write(_json(self._other(parts.path)))
                    await writer.drain()
                    continue
                query = parse_qs(parts.query)
                page = int(query.get("page", ["1"])[0])
                size = int(query.get("size", ["20"])[0])
                if not await self._list(reader, writer, parts.path, page, size):
                    return
        except ConnectionError:
            return
        finally:
            writer.close()

    async def _list(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        path: str,
        page: int,
        size: int,
    ) -> bool:
        """One list page, after its gate; False when the client closed the connection first."""
        self.asked.append((path, page, size))
        self.in_flight += 1
        self.in_flight_of[path] += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.most_in_flight_of[path] = max(self.most_in_flight_of[path], self.in_flight_of[path])
        self.changed.set()
        try:
            gate = self.hold(path, page)
            if gate is not None:
                closed = asyncio.ensure_future(reader.read(1))
                opened = asyncio.ensure_future(gate.wait())
                done, _ = await asyncio.wait({closed, opened}, return_when=asyncio.FIRST_COMPLETED)
                if closed in done:  # the client gave up on this request
                    opened.cancel()
                    self.closed_unanswered.append((path, page))
                    return False
                closed.cancel()
            statuses = self.faults.get((path, page))
            answer = (statuses.pop(0), None) if statuses else self._page(path, page, size)
            writer.write(_json(answer))
            await writer.drain()
            return True
        finally:
            self.in_flight -= 1
            self.in_flight_of[path] -= 1
            self.changed.set()

    def _other(self, path: str) -> tuple[int, Any]:
        if path == "/tenants/self":
            return 200, TENANT
        if path == "/tenants/self/reports/usage":
            return 200, {"total_tokens": 7}
        return 404, None

    def _page(self, path: str, page: int, size: int) -> tuple[int, Any]:
        count = self.sizes.get(path, 0)
        start = (page - 1) * size
        numbers = range(start + 1, min(start + size, count) + 1)
        data = [_item(path, n) for n in numbers]
        envelope: dict[str, Any] = {"data": data}
        if self.totals:
            envelope["pagination"] = {
                "page_number": page,
                "page_size": size,
                "total_items": count,
                "total_pages": -(-count // size),
            }
        return 200, envelope


def _item(path: str, number: int) -> dict[str, Any]:
    kind = path.strip("/")
    item = {"id": f"{kind}-{number:05d}", "name": f"{kind} {number:05d}"}
    if path == "/reactor-formulas":
        item["type"] = "private" if number % 2 else "official"
    return item


def _json(answer: tuple[int, Any]) -> bytes:
    status, body = answer
    if body is None:  # a fault: an empty problem, with Retry-After where the service sends one
        extra = "Retry-After: 1\r\n" if status in (429, 503) else ""
        return f"HTTP/1.1 {status} Fault\r\n{extra}Content-Length: 0\r\n\r\n".encode()
    data = json.dumps(body).encode()
    return (
        f"HTTP/1.1 {status} OK\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    ).encode() + data
