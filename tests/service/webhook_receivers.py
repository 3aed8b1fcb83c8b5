"""Webhook receivers for the delivery tests: real HTTP servers on loopback, each on a thread
of its own, that record every delivery and answer as the test says; and a webhook written
straight into a data dir (as the routes would store it), so that these tests need no route.

Tests wait on what a receiver got (`wait_for`), never sleep: every request notifies a
condition that the wait re-checks.
"""

from __future__ import annotations

import json
import socket
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

WAIT_SECONDS = 30.0


@dataclass(frozen=True)
class Received:
    """One request as the receiver read it."""

    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def document(self) -> Any:
        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


@dataclass
class Receiver:
    """A loopback HTTP server that keeps every request; `statuses` answers the first
    requests (then 200); while `hold` is set, each request waits for `released`."""

    statuses: list[int] = field(default_factory=list)
    hold: bool = False
    received: list[Received] = field(default_factory=list)
    released: threading.Event = field(default_factory=threading.Event)
    arrived: threading.Condition = field(default_factory=threading.Condition)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/hooks"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with receiver.arrived:
                    receiver.received.append(Received(self.path, dict(self.headers.items()), body))
                    status = receiver.statuses.pop(0) if receiver.statuses else 200
                    receiver.arrived.notify_all()
                if receiver.hold:
                    receiver.released.wait(WAIT_SECONDS)
                payload = b"receiver says no" if status >= 300 else b"ok"
                try:
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the sender gave up on a held request (its timeout, or it stopped)

            def log_message(self, format: str, *args: Any) -> None:
                pass  # the test's output stays its own

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        self.released.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def wait_for(self, count: int, timeout: float = WAIT_SECONDS) -> list[Received]:
        """The first `count` requests, once they arrived (AssertionError after `timeout`)."""
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} of {count} deliveries arrived")
            return list(self.received[:count])


@contextmanager
def receiving(**options: Any) -> Iterator[Receiver]:
    receiver = Receiver(**options).start()
    try:
        yield receiver
    finally:
        receiver.stop()


@contextmanager
def unreachable_url() -> Iterator[str]:
    """A loopback URL whose port is bound by the test but never listened on: connecting is
    refused, and no other process can take the port meanwhile."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        sock.close()


def insert_webhook(
    data_dir: Path,
    tenant_id: str,
    url: str,
    events: list[str],
    *,
    status: str = "enabled",
    name: str = "Test webhook",
    notify_email: str | None = "ops@example.com",
) -> str:
    """A webhook stored straight into the data dir's database, as the routes store one
    (in a write transaction of its own); returns its id."""
    webhook_id = str(uuid.uuid4())
    conn = sqlite3.connect(data_dir / "tenant-console.sqlite3", timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO webhooks (id, tenant_id, name, url, notify_email, events, status,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, strftime('%Y-%m-%dT%H:%M:%f000+00:00'))",
            (webhook_id, tenant_id, name, url, notify_email, json.dumps(events), status),
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return webhook_id


def read_rows(data_dir: Path, sql: str, *params: Any) -> list[sqlite3.Row]:
    conn = sqlite3.connect(data_dir / "tenant-console.sqlite3", timeout=30)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def wait_until(condition: Callable[[], Any], timeout: float = WAIT_SECONDS) -> Any:
    """`condition()`'s first truthy value, re-checked every 20 ms until `timeout` (for what
    the service writes after a receiver answered: nothing in the test can be notified)."""
    pause = threading.Event()
    deadline = threading.Event()
    timer = threading.Timer(timeout, deadline.set)
    timer.start()
    try:
        while True:
            value = condition()
            if value:
                return value
            if deadline.is_set():
                raise AssertionError(f"not within {timeout:g} s: {condition}")
            pause.wait(0.02)
    finally:
        timer.cancel()
