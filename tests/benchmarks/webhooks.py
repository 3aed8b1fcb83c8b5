"""A write's latency with five webhooks subscribed to it (issue 37), in a process of its own.

`python -m tests.benchmarks.webhooks BASE_URL` (two tenants' keys in $BENCH_QUIET_KEY and
$BENCH_HOOKED_KEY, the writes in $BENCH_WRITES) gives the hooked tenant five webhooks
subscribed to `tenant.updated` through `POST /webhooks` (MAX_WEBHOOKS, the limit): four
deliver to a receiver here that answers 200 at once, one to a socket that listens and never
accepts (each attempt waits for the deliverer's own timeout: the worst receiver, not a
refused connection), then times `PUT /tenants/self` on each tenant in turn, alternately, each
from the call until the answer is read (`quiet_s`, `hooked_s`); `delivered`, the deliveries
the receiver got by the end (waited for: the figures mean nothing if nothing was delivered
meanwhile), and `unreachable_status`, the never-answering webhook's status at the end. It
prints them as one JSON line.

`listen` printing an event within 100 ms of its delivery is `--only listen`
(tests/benchmarks/webhooks_listen.py).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx

KEY_HEADER = "SVC-API-KEY"
WRITES = 300
WARM_UP = 20
EVENT = "tenant.updated"
DELIVERED_TIMEOUT_S = 60.0


# -- receivers -------------------------------------------------------------------------------


class _Counted(BaseHTTPRequestHandler):
    """Answers every POST with 200 at once and counts it (the server's `received`)."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
        server: Any = self.server
        with server.lock:
            server.received += 1
            server.changed.notify_all()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # a line per delivery on the benchmark's stderr says nothing


@contextlib.contextmanager
def receiver() -> Iterator[Any]:
    """A loopback receiver answering 200 (`.received`, `.port`, `wait_for(n, timeout)`)."""
    server: Any = ThreadingHTTPServer(("127.0.0.1", 0), _Counted)
    server.daemon_threads = True
    server.lock = threading.Lock()
    server.changed = threading.Condition(server.lock)
    server.received = 0
    server.port = server.server_address[1]

    def wait_for(count: int, timeout: float) -> int:
        with server.changed:
            server.changed.wait_for(lambda: server.received >= count, timeout)
            return int(server.received)

    server.wait_for = wait_for
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def never_answering() -> Iterator[int]:
    """A loopback port that listens and never accepts: a connection waits in the backlog
    (then, once that is full, its handshake is never answered) until the sender gives up."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    try:
        yield int(sock.getsockname()[1])
    finally:
        sock.close()


# -- a write with five webhooks -------------------------------------------------------------


def _create_webhooks(client: httpx.Client, key: str, urls: list[str]) -> list[str]:
    ids = []
    for number, url in enumerate(urls, 1):
        answer = client.post(
            "/webhooks",
            headers={KEY_HEADER: key},
            json={"name": f"Benchmark receiver {number}", "url": url, "events": [EVENT]},
        )
        if answer.status_code != 201:
            raise RuntimeError(f"POST /webhooks: {answer.status_code} {answer.text}")
        ids.append(str(answer.json()["id"]))
    return ids


def _timed_write(client: httpx.Client, key: str, number: int) -> float:
    started = time.perf_counter()
    answer = client.put(
        "/tenants/self", headers={KEY_HEADER: key}, json={"name": f"Benchmark tenant {number}"}
    )
    elapsed = time.perf_counter() - started
    if answer.status_code != 200:
        raise RuntimeError(f"PUT /tenants/self: {answer.status_code} {answer.text}")
    return elapsed


def writes(base_url: str, quiet_key: str, hooked_key: str, count: int) -> dict[str, Any]:
    """See the module's docstring (`writes`)."""
    with (
        receiver() as stub,
        never_answering() as dead_port,
        httpx.Client(base_url=base_url, timeout=60.0) as client,
    ):
        urls = [f"http://127.0.0.1:{stub.port}/{n}" for n in range(1, 5)]
        urls.append(f"http://127.0.0.1:{dead_port}/")
        ids = _create_webhooks(client, hooked_key, urls)
        for number in range(WARM_UP):  # connections open, caches warm, on both tenants
            _timed_write(client, quiet_key, number)
            _timed_write(client, hooked_key, number)
        before = stub.wait_for(0, 0)
        quiet: list[float] = []
        hooked: list[float] = []
        for number in range(count):  # alternately: both see the same machine's moods
            quiet.append(_timed_write(client, quiet_key, number))
            hooked.append(_timed_write(client, hooked_key, number))
        expected = before + 4 * count
        delivered = stub.wait_for(expected, DELIVERED_TIMEOUT_S) - before
        status = client.get(f"/webhooks/{ids[-1]}", headers={KEY_HEADER: hooked_key}).json()
        for webhook_id in ids:  # the never-answering one stops being tried
            client.delete(f"/webhooks/{webhook_id}", headers={KEY_HEADER: hooked_key})
    return {
        "quiet_s": quiet,
        "hooked_s": hooked,
        "delivered": delivered,
        "expected": 4 * count,
        "unreachable_status": status.get("status"),
    }


def main(base_url: str) -> None:
    count = int(os.environ.get("BENCH_WRITES", WRITES))
    result = writes(base_url, os.environ["BENCH_QUIET_KEY"], os.environ["BENCH_HOOKED_KEY"], count)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
