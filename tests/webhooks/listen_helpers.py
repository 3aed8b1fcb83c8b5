"""What the `webhooks listen` tests share: a signing key pair of the test's own, deliveries
shaped as the service sends them, a loopback recorder for forwards, and `listen` run as a
real process whose output lines are waited for (never slept on).

Import it as `from listen_helpers import ...` (pytest puts this folder on sys.path).
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loopback_stub import LoopbackStub

from console.models.webhooks import SIGNATURE_HEADER, SIGNATURE_VERSION_HEADER
from console.webhooks import signing

ROOT = Path(__file__).resolve().parents[2]
LINE_TIMEOUT = 30.0
"""Seconds a test waits for a line `listen` should print (a loaded CI machine included)."""

REACTOR_ID = "3e4d5c6b-0000-4000-8000-000000000030"


def delivery(
    kind: str = "reactor.created",
    *,
    name: str = "Enricher",
    event_id: str = "0b8f1d2e-0000-4000-8000-0000000000e1",
) -> dict[str, Any]:
    """A delivery as the service sends it (the vendor's "Webhook Event Data")."""
    from console.models.webhooks import EVENT_OBJECTS

    return {
        "event": {
            "id": event_id,
            "type": kind,
            "timestamp": "2026-11-29T01:00:00.000+00:00",
            "tenant_id": "f88da999-b124-4a14-acde-cbc121444f14",
            "trace_id": "00-trace-01",
            "data": {
                EVENT_OBJECTS.get(kind, "object"): {"id": REACTOR_ID, "name": name},
                "actor": {"id": "0a7e3c1e-0000-4000-8000-000000000001", "type": "application"},
            },
        },
        "delivered_at": "2026-11-29T01:00:00.250+00:00",
    }


def signed(key: Any, document: dict[str, Any]) -> tuple[bytes, dict[str, str]]:
    """The body (JSON with spaces, as a sender may write it) and its signature headers."""
    body = json.dumps(document).encode()
    return body, {
        "Content-Type": "application/json",
        SIGNATURE_VERSION_HEADER: "v1",
        SIGNATURE_HEADER: signing.sign(key, document),
    }


def write_public_key(key: Any, path: Path) -> Path:
    path.write_text(signing.public_key_pem(key))
    return path


@dataclass
class Recorder(LoopbackStub):
    """A loopback server that keeps every request (head lines and body) and answers
    `status`: where `--forward-to` sends."""

    status: int = 200
    requests: list[tuple[str, dict[str, str], bytes]] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, ConnectionError):
                    return
                lines = head.decode("latin-1").split("\r\n")
                headers: dict[str, str] = {}
                for line in lines[1:]:
                    if ":" in line:
                        name, _, value = line.partition(":")
                        headers[name.strip()] = value.strip()
                length = int(
                    next((v for k, v in headers.items() if k.lower() == "content-length"), "0")
                )
                body = await reader.readexactly(length)
                self.requests.append((lines[0], headers, body))
                self.changed.set()
                writer.write(f"HTTP/1.1 {self.status} Status\r\nContent-Length: 0\r\n\r\n".encode())
                await writer.drain()
        finally:
            writer.close()


class ListenProcess:
    """`python -m console webhooks listen ...` in its own process; its stdout and stderr read
    line by line in threads, so a test waits for a line with a timeout."""

    def __init__(self, *args: str, env: dict[str, str], stdout: int | None = None) -> None:
        """`stdout`: a file descriptor of the test's for standard output (then stdout_line
        cannot be used)."""
        self.process = subprocess.Popen(
            [sys.executable, "-m", "console", "webhooks", "listen", *args],
            stdout=subprocess.PIPE if stdout is None else stdout,
            stderr=subprocess.PIPE,
            text=True,
            env={**env, "PYTHONPATH": os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])},
            cwd=ROOT,
            # As at a terminal: Ctrl-C's signal at its default, even when this test runs in a
            # background job (which starts with SIGINT ignored, and Python keeps it so).
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        )
        self.out: queue.Queue[str | None] = queue.Queue()
        self.err: queue.Queue[str | None] = queue.Queue()
        self.err_seen: list[str] = []
        self.out_seen: list[str] = []
        for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err)):
            if stream is None:
                lines.put(None)
                continue
            threading.Thread(target=self._pump, args=(stream, lines), daemon=True).start()

    @staticmethod
    def _pump(stream: Any, lines: queue.Queue[str | None]) -> None:
        for line in stream:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    def _wait(self, lines: queue.Queue[str | None], seen: list[str], needle: str) -> str:
        while True:
            try:
                line = lines.get(timeout=LINE_TIMEOUT)
            except queue.Empty:
                raise AssertionError(
                    f"no line with {needle!r} within {LINE_TIMEOUT} s: {seen}"
                ) from None
            if line is None:
                lines.put(None)
                raise AssertionError(f"listen ended before a line with {needle!r}: {seen}")
            seen.append(line)
            if needle in line:
                return line

    def stderr_line(self, needle: str) -> str:
        return self._wait(self.err, self.err_seen, needle)

    def stdout_line(self, needle: str = "") -> str:
        return self._wait(self.out, self.out_seen, needle)

    def ready(self) -> str:
        """The base URL listen printed in its Ready line."""
        line = self.stderr_line("Ready!")
        return next(w.rstrip(",") for w in line.split() if w.startswith("http://127.0.0.1:"))

    def stop(self, sig: int = signal.SIGINT) -> int:
        """Sends `sig` and waits for the exit; the rest of stderr is read into err_seen."""
        self.process.send_signal(sig)
        return self.finish()

    def finish(self) -> int:
        code = self.process.wait(LINE_TIMEOUT)
        for lines, seen in ((self.err, self.err_seen), (self.out, self.out_seen)):
            while (line := lines.get(timeout=LINE_TIMEOUT)) is not None:
                seen.append(line)
            lines.put(None)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(LINE_TIMEOUT)
