"""Helpers for the client tests: a counting transport, recorded waits, sample payloads."""

from __future__ import annotations

import dataclasses
import socket
import uuid
from collections import Counter
from typing import TYPE_CHECKING, Any

import httpx

from console.client import RetryPolicy


class CountingTransport(httpx.AsyncBaseTransport):
    """A real HTTP transport that counts what the client sends, by (method, path)."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.sent: Counter[tuple[str, str]] = Counter()
        self.headers: list[httpx.Headers] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent[(request.method, request.url.path)] += 1
        self.headers.append(request.headers)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()

    def count(self, method: str, path: str | None = None) -> int:
        return sum(n for (m, p), n in self.sent.items() if m == method and path in (None, p))

    @property
    def total(self) -> int:
        return sum(self.sent.values())


@dataclasses.dataclass
class Limited:
    """A tenant of the rate-limited service: its key and a spare key made beforehand."""

    base_url: str
    key: str = dataclasses.field(repr=False)
    application_id: str
    spare_key: str = dataclasses.field(repr=False)


class RecordedSleeps:
    """A RetryPolicy.sleep that records each wait instead of spending it.

    Retries still happen for real (the next request goes to the server at once); only the
    wall-clock wait is skipped, so a Retry-After of a minute costs the test nothing.
    """

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)

    @property
    def total(self) -> float:
        return sum(self.waits)


if TYPE_CHECKING:  # what RetryPolicy.sleep takes
    _recorded = RetryPolicy(sleep=RecordedSleeps())


FAST_RETRY = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05, max_total_wait=1.0)
"""Retries as in production, with waits short enough for a test suite."""


def unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:8]}"


def proxy_payload(**overrides: Any) -> dict[str, Any]:
    return {
        "name": unique("Proxy"),
        "destination_url": "https://echo.example.com/post",
        "require_auth": True,
        **overrides,
    }


def formula_payload(**overrides: Any) -> dict[str, Any]:
    return {
        "name": unique("Formula"),
        "description": "Adds one.",
        "type": "private",
        "code": "module.exports = async (req) => ({ raw: { n: req.args.n + 1 } });",
        "configuration": [{"name": "SECRET", "type": "string"}],
        "request_parameters": [{"name": "n", "type": "number"}],
        **overrides,
    }


def application_payload(**overrides: Any) -> dict[str, Any]:
    return {
        "name": unique("App"),
        "type": "management",
        "permissions": ["proxy:read"],
        **overrides,
    }


def closed_port_url() -> str:
    """The URL of a loopback port nothing listens on: connections are refused."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"
