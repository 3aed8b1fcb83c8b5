"""A tiny scripted HTTP server for the faults the real service cannot produce.

It answers each request with the next scripted action: a canned response, a dropped
connection, or silence (for read timeouts). It records every request it saw.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any


@dataclass
class SeenRequest:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes


@dataclass
class Respond:
    status: int
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Drop:
    """Close the connection after reading the request, without a byte of answer."""


@dataclass
class Hang:
    """Read the request and never answer (until the server stops)."""


Action = Respond | Drop | Hang

_REASONS = {200: "OK", 201: "Created", 204: "No Content", 429: "Too Many Requests"}


class StubServer:
    """Serves `script` actions in order; after the script runs out, repeats the last one."""

    def __init__(self, *script: Action) -> None:
        self.script = list(script)
        self.requests: list[SeenRequest] = []
        self._server: asyncio.Server | None = None
        self._hanging: list[asyncio.Event] = []

    @property
    def base_url(self) -> str:
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    async def start(self) -> StubServer:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def stop(self) -> None:
        for event in self._hanging:
            event.set()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    def count(self, method: str | None = None) -> int:
        return sum(1 for r in self.requests if method is None or r.method == method)

    def _next(self) -> Action:
        index = min(len(self.requests) - 1, len(self.script) - 1)
        return self.script[index]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, target, _ = lines[0].split(" ", 2)
            headers = {}
            for line in lines[1:]:
                if ":" in line:
                    name, value = line.split(":", 1)
                    headers[name.strip().lower()] = value.strip()
            length = int(headers.get("content-length", "0"))
            body = await reader.readexactly(length) if length else b""
            self.requests.append(SeenRequest(method, target, headers, body))
            action = self._next()
            if isinstance(action, Hang):
                event = asyncio.Event()
                self._hanging.append(event)
                await event.wait()
            elif isinstance(action, Respond):
                writer.write(_encode(action))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def _encode(action: Respond) -> bytes:
    payload = b"" if action.body is None else json.dumps(action.body).encode()
    headers = {"Content-Length": str(len(payload)), "Connection": "close", **action.headers}
    if action.body is not None:
        headers.setdefault("Content-Type", "application/json")
    reason = _REASONS.get(action.status, "Status")
    lines = [f"HTTP/1.1 {action.status} {reason}"] + [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload


def problem(status: int, title: str, detail: str) -> dict[str, Any]:
    return {"type": "about:blank", "title": title, "status": status, "detail": detail}
