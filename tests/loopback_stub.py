"""What the tests' loopback stub servers share: a server on a free loopback port in the
test's own event loop, its address, and a wait that re-checks whenever a request arrives
or ends (each stub sets `changed` then)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Self


class LoopbackStub:
    """Subclasses (dataclasses) give `changed` (an asyncio.Event) and `_serve`."""

    _server: asyncio.Server | None = None
    changed: asyncio.Event

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raise NotImplementedError

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    async def start(self) -> Self:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()

    async def wait_for(self, condition: Callable[[], bool]) -> None:
        """Until `condition` holds: re-checked whenever a request arrives or ends."""
        while not condition():
            self.changed.clear()
            await self.changed.wait()


@dataclass
class Listener(LoopbackStub):
    """A loopback listener that must hear nothing: it keeps the first line of every request
    that reaches it (`heard`) and answers 500, so that a test proves nothing was sent."""

    heard: list[str] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            head = b"(a connection, no request)"
        self.heard.append(head.decode("latin-1").split("\r\n")[0])
        self.changed.set()
        writer.write(b"HTTP/1.1 500 Heard\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        try:
            await writer.drain()
        finally:
            writer.close()
