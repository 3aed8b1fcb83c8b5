"""A per-key request limit: at most N requests in any 60 seconds, then 429 with Retry-After.

A sliding log of request times per key (by hash, never the key itself). Requests without a
key are not counted: they get 401 anyway.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from typing import Any

from console.models.contract import DEFAULT_KEY_HEADER
from console.service.api.problems import problem_body
from console.service.keys import hash_key

WINDOW_SECONDS = 60.0


class RateLimiter:
    def __init__(self, per_minute: int, clock: Any = time.monotonic) -> None:
        self.per_minute = per_minute
        self._clock = clock
        self._log: dict[str, deque[float]] = {}
        self._lock = threading.Lock()
        self._calls = 0

    def _forget_idle(self, now: float) -> None:
        """Drops keys with no request in the window, so random keys cannot grow the table."""
        idle = [k for k, log in self._log.items() if not log or log[-1] <= now - WINDOW_SECONDS]
        for digest in idle:
            del self._log[digest]

    def retry_after(self, key: str) -> int | None:
        """Records a request; None if allowed, else the seconds until one would be."""
        now = self._clock()
        digest = hash_key(key)
        with self._lock:
            self._calls += 1
            if self._calls % 1024 == 0:
                self._forget_idle(now)
            log = self._log.setdefault(digest, deque())
            while log and log[0] <= now - WINDOW_SECONDS:
                log.popleft()
            if len(log) >= self.per_minute:
                return max(1, math.ceil(log[0] + WINDOW_SECONDS - now))
            log.append(now)
            return None


class RateLimitMiddleware:
    """ASGI middleware applying a RateLimiter before any handler runs."""

    def __init__(self, app: Any, per_minute: int, header: str = DEFAULT_KEY_HEADER) -> None:
        self.app = app
        self.limiter = RateLimiter(per_minute)
        self.header = header.lower().encode("latin-1")

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            key = next((v for k, v in scope["headers"] if k == self.header), None)
            if key:
                wait = self.limiter.retry_after(key.decode("latin-1"))
                if wait is not None:
                    await _too_many(send, wait)
                    return
        await self.app(scope, receive, send)


async def _too_many(send: Any, wait: int) -> None:
    import json

    body = json.dumps(
        problem_body(429, f"Too many requests for this key; retry after {wait} seconds.")
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(wait).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
