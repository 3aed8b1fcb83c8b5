"""Webhooks (issue 37), each part in a process of its own.

`python -m tests.benchmarks.webhooks PART ...` prints one JSON line:

- `writes BASE_URL` (two tenants' keys in $BENCH_QUIET_KEY and $BENCH_HOOKED_KEY, the writes
  in $BENCH_WRITES): gives the hooked tenant five webhooks subscribed to `tenant.updated`
  through `POST /webhooks` (MAX_WEBHOOKS, the limit): four deliver to a receiver here that
  answers 200 at once, one to a socket that listens and never accepts (each attempt waits
  for the deliverer's own timeout: the worst receiver, not a refused connection), then
  times `PUT /tenants/self` on each tenant in turn, alternately, each from the call until
  the answer is read (`quiet_s`, `hooked_s`); `delivered`, the deliveries the receiver got
  by the end (waited for: the figures mean nothing if nothing was delivered meanwhile), and
  `unreachable_status`, the never-answering webhook's status at the end;
- `listen` (the events in $BENCH_EVENTS): starts `tenant-console webhooks listen
  --no-register --port P --signing-key KEY.pem --format json` with a key pair made here,
  waits for its "Ready!" line on stderr, then sends it one signed delivery at a time, as the
  service does; `seen_s`, for each, from
  just before the POST went out until listen's stdout line about it was read here.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO, Any

import httpx

KEY_HEADER = "SVC-API-KEY"
WRITES = 300
WARM_UP = 20
EVENTS = 50
EVENT = "tenant.updated"
READY_TIMEOUT_S = 30.0
LINE_TIMEOUT_S = 10.0
READY = "Ready!"
"""How listen's stderr line saying it receives begins."""
DELIVERED_TIMEOUT_S = 60.0
REPO_ROOT = Path(__file__).resolve().parents[2]


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


# -- listen ---------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_for_ready(errors: queue.Queue[str | None], timeout: float) -> None:
    """Until listen says it is ready on stderr ("Ready! Listening on ..."), or it ended."""
    deadline = time.monotonic() + timeout
    seen: list[str] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise RuntimeError(f"listen was not ready within {timeout:.0f} s: {seen[-3:]}")
        try:
            line = errors.get(timeout=remaining)
        except queue.Empty:
            continue
        if line is None:
            raise RuntimeError(f"listen ended before it was ready: {seen[-3:]}")
        seen.append(line.strip())
        if line.startswith(READY):
            return


def sample_delivery(tenant_id: str) -> dict[str, Any]:
    """A delivery as the service sends one (console.models.webhooks.Delivery)."""
    at = datetime.now(UTC).isoformat()
    return {
        "event": {
            "id": str(uuid.uuid4()),
            "type": EVENT,
            "timestamp": at,
            "tenant_id": tenant_id,
            "trace_id": str(uuid.uuid4()),
            "data": {
                "tenant": {"id": tenant_id, "name": "Benchmark tenant"},
                "actor": {"id": str(uuid.uuid4()), "type": "application", "name": "Bench"},
            },
        },
        "delivered_at": at,
    }


def listen_command(port: int, key_file: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "console",
        "webhooks",
        "listen",
        "--no-register",
        "--port",
        str(port),
        "--signing-key",
        str(key_file),
        "--format",
        "json",
    ]


def listen(count: int) -> dict[str, Any]:
    """See the module's docstring (`listen`)."""
    from console.models.webhooks import (
        SIGNATURE_HEADER,
        SIGNATURE_VERSION,
        SIGNATURE_VERSION_HEADER,
    )
    from console.webhooks.signing import new_private_key, public_key_pem, sign, stable_json

    key = new_private_key()
    lines: queue.Queue[tuple[float, str] | None] = queue.Queue()
    errors: queue.Queue[str | None] = queue.Queue()

    def pump(stream: IO[str]) -> None:
        for line in stream:
            lines.put((time.perf_counter(), line))
        lines.put(None)

    def pump_errors(stream: IO[str]) -> None:
        for line in stream:
            errors.put(line)
        errors.put(None)

    with tempfile.TemporaryDirectory(prefix="tenant-console-bench-listen-") as directory:
        key_file = Path(directory) / "webhooks.v1.key"
        key_file.write_text(public_key_pem(key))
        port = _free_port()
        process = subprocess.Popen(
            listen_command(port, key_file),
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(target=pump, args=(process.stdout,), daemon=True).start()
        threading.Thread(target=pump_errors, args=(process.stderr,), daemon=True).start()
        seen: list[float] = []
        try:
            _wait_for_ready(errors, READY_TIMEOUT_S)
            tenant_id = str(uuid.uuid4())
            with httpx.Client(timeout=30.0) as client:
                for number in range(count + 1):  # the first warms the connection, not timed
                    body = sample_delivery(tenant_id)
                    headers = {
                        SIGNATURE_HEADER: sign(key, body),
                        SIGNATURE_VERSION_HEADER: SIGNATURE_VERSION,
                        "Content-Type": "application/json",
                    }
                    content = stable_json(body)
                    started = time.perf_counter()
                    answer = client.post(
                        f"http://127.0.0.1:{port}/", content=content, headers=headers
                    )
                    if answer.status_code >= 300:
                        raise RuntimeError(f"listen answered {answer.status_code}")
                    at = _line_about(lines, body["event"]["id"])
                    if number:
                        seen.append(at - started)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
    return {"seen_s": seen}


def _line_about(lines: queue.Queue[tuple[float, str] | None], event_id: str) -> float:
    """When listen's line naming `event_id` was read (lines about nothing else skipped)."""
    deadline = time.monotonic() + LINE_TIMEOUT_S
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise RuntimeError(f"listen printed no line about {event_id}")
        try:
            item = lines.get(timeout=remaining)
        except queue.Empty:
            continue
        if item is None:
            raise RuntimeError("listen's output ended")
        at, line = item
        if event_id in line:
            json.loads(line)  # --format json: one JSON object a line
            return at


def main(part: str, target: str = "") -> None:
    if part == "writes":
        count = int(os.environ.get("BENCH_WRITES", WRITES))
        result = writes(
            target, os.environ["BENCH_QUIET_KEY"], os.environ["BENCH_HOOKED_KEY"], count
        )
    else:
        result = listen(int(os.environ.get("BENCH_EVENTS", EVENTS)))
    print(json.dumps(result))


if __name__ == "__main__":
    main(*sys.argv[1:])
