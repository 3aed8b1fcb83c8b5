"""Holds hostile clients off: a deadline for each request to arrive, and a connection cap.

uvicorn has no timeout for a request head or body that never completes, and no cap on open
connections, so a few hundred half-sent requests held the service's file descriptors until
it refused everyone. `guarded_protocol` returns uvicorn's h11 protocol with both:

* From the moment a connection opens, or its previous response ends, the next request's head
  and body must arrive within `request_timeout` seconds. Otherwise the connection is closed:
  with a 408 problem if part of a request had arrived, silently if nothing had.
* A connection beyond `max_connections` open at once gets a 503 problem and is closed at
  once, so the cap (not the open-file limit) is what a flood of connections runs into.

This subclasses uvicorn's `H11Protocol` and reads its `conn`, `cycle`, `transport` and
`connections` attributes: a debt listed in README's upgrade checklist, guarded by
tests/service/test_stalled_connections.py.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from console.service.api.problems import problem_body

DEFAULT_REQUEST_TIMEOUT = 10.0
DEFAULT_MAX_CONNECTIONS = 200
ACCEPT_BATCH = 32
"""At most this many connections are accepted per turn of the event loop (asyncio accepts
up to the server's `backlog` at a time, uvicorn's `Config.backlog`). Refused connections
close a turn or two later, so this bounds how far past the cap descriptors can run."""
LISTEN_BACKLOG = 2048
"""The kernel's queue of connections not yet accepted: they use none of our descriptors."""
RESERVED_FDS = 24 + 2 * 40 + 2 * ACCEPT_BATCH
"""Descriptors the service needs besides the connections it holds: its own few, a SQLite
connection (database and WAL files) for each of up to 40 worker threads, and two accept
batches of connections on their way to being refused."""

log = logging.getLogger("console.service")

_REQUEST_DONE = (h11.DONE, h11.MUST_CLOSE, h11.CLOSED, h11.ERROR)


def _problem_bytes(status: int, detail: str, headers: tuple[str, ...] = ()) -> bytes:
    """A whole HTTP/1.1 problem response that closes the connection, written raw: h11 can
    only answer a request whose head it has parsed."""
    body = json.dumps(problem_body(status, detail)).encode()
    title = problem_body(status, None)["title"]
    lines = [
        f"HTTP/1.1 {status} {title}",
        "content-type: application/problem+json",
        f"content-length: {len(body)}",
        "connection: close",
        *headers,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class _Throttled:
    """Logs a warning at most once per interval: a flood must not flood the log too."""

    def __init__(self, interval: float = 10.0) -> None:
        self.interval = interval
        self.last = -interval

    def warning(self, message: str, *args: Any) -> None:
        now = time.monotonic()
        if now - self.last >= self.interval:
            self.last = now
            log.warning(message, *args)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a request deadline and a connection cap (see module)."""

    request_timeout: float = DEFAULT_REQUEST_TIMEOUT
    max_connections: int = DEFAULT_MAX_CONNECTIONS
    _refusals = _Throttled()
    _timeouts = _Throttled()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        self._request_begun = False
        super().connection_made(transport)
        if len(self.connections) > self.max_connections:
            self._refusals.warning(
                "Refused connections beyond the cap of %d open at once (503).",
                self.max_connections,
            )
            detail = "Too many connections are open; try again shortly."
            transport.write(_problem_bytes(503, detail, ("retry-after: 1",)))
            transport.close()
            return
        self._arm(begun=False)

    def data_received(self, data: bytes) -> None:
        if data:
            self._request_begun = True
        super().data_received(data)
        if self._deadline is not None and self.conn.their_state in _REQUEST_DONE:
            self._disarm()  # the whole request is here; the handler's time is its own

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing():
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            self._arm(begun=False)  # waiting for the next request on a kept-alive connection
        elif state not in _REQUEST_DONE:
            self._arm(begun=True)  # a pipelined request is partly here

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self, *, begun: bool) -> None:
        self._disarm()
        self._request_begun = begun
        self._deadline = self.loop.call_later(self.request_timeout, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        self._deadline = None
        if self.transport.is_closing() or self.conn.their_state in _REQUEST_DONE:
            return
        if self._request_begun:
            self._timeouts.warning(
                "Closed a connection whose request did not arrive in full within %g s (408).",
                self.request_timeout,
            )
            if self.cycle is None or not self.cycle.response_started:
                detail = f"The request did not arrive in full within {self.request_timeout:g} s."
                self.transport.write(_problem_bytes(408, detail))
        self.transport.close()


def guarded_protocol(request_timeout: float, max_connections: int) -> type[GuardedH11Protocol]:
    """The protocol class to give uvicorn (`Config(http=...)`) for these limits."""
    return type(
        "GuardedH11Protocol",
        (GuardedH11Protocol,),
        {"request_timeout": request_timeout, "max_connections": max_connections},
    )


def fit_to_open_file_limit(max_connections: int) -> tuple[int, str | None]:
    """The connection cap the process's open-file limit can hold, raising the soft limit
    toward the hard one if needed; with a sentence when the cap had to be lowered."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to fit
        return max_connections, None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = max_connections + RESERVED_FDS
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass  # keep the soft limit we have, and fit the cap to it
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return max_connections, None
    fitted = max(1, soft - RESERVED_FDS)
    return fitted, (
        f"the open-file limit ({soft}) leaves room for {fitted} connections, not "
        f"{max_connections}: the cap is {fitted} (raise the limit with `ulimit -n`)."
    )


__all__ = [
    "ACCEPT_BATCH",
    "DEFAULT_MAX_CONNECTIONS",
    "DEFAULT_REQUEST_TIMEOUT",
    "LISTEN_BACKLOG",
    "RESERVED_FDS",
    "GuardedH11Protocol",
    "fit_to_open_file_limit",
    "guarded_protocol",
]
