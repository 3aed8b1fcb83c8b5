"""The Node webhook receiver of tests/sdk/node/receiver.mjs as a test's fixture: it verifies
each delivery as the vendor's docs' sample does (json-stable-stringify, RSA-PSS, SHA-256),
and the test reads its verdicts line by line, each with a deadline (no sleeps).

Import it as `from node_receiver import NodeReceiver`.
"""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import threading
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
from sdk_clients import NODE_DIR, NODE_INSTALL

STRINGIFY = NODE_DIR / "node_modules" / "json-stable-stringify"
LINE_SECONDS = 15.0
"""How long a test waits for the receiver's next line (a delivery is usually a few ms)."""


class NodeReceiver:
    """`node receiver.mjs` on a free loopback port, verifying with the key at `key_url` (or
    in `key_file`). Use it as a context manager: the process ends when the block does."""

    def __init__(self, *, key_url: str | None = None, key_file: Path | None = None) -> None:
        node = shutil.which("node")
        if node is None:
            pytest.skip("Node.js is not installed here: the Node receiver needs `node`")
        if not STRINGIFY.is_dir():
            pytest.fail(
                f"json-stable-stringify is not installed: run `{NODE_INSTALL}` from the "
                "repository root"
            )
        source = ["--key-file", str(key_file)] if key_file else [str(key_url)]
        self.command = [node, str(NODE_DIR / "receiver.mjs"), *source]
        self.port = 0
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._process: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    @property
    def url(self) -> str:
        """Where deliveries go (any path: the receiver answers every one)."""
        return f"http://127.0.0.1:{self.port}/webhooks"

    def __enter__(self) -> NodeReceiver:
        self._process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        ready = self.next()
        assert ready.get("ready") is True, ready
        self.port = int(ready["port"])
        return self

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)  # the process ended

    def next(self, timeout: float = LINE_SECONDS) -> dict[str, Any]:
        """The receiver's next line, parsed; fails after `timeout` s or if Node ended."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the Node receiver printed nothing in {timeout} s") from None
        if line is None:
            raise AssertionError(f"the Node receiver ended: {self._stderr()}")
        parsed: dict[str, Any] = json.loads(line)
        return parsed

    def nothing_more(self) -> bool:
        """Whether the receiver has printed nothing not yet read."""
        return self._lines.empty()

    def _stderr(self) -> str:
        process = self._process
        if process is None or process.stderr is None or process.poll() is None:
            return ""
        return process.stderr.read()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        process = self._process
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()  # the receiver exits when its stdin ends
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        if self._reader is not None:
            self._reader.join(timeout=10)  # stdout ends with the process
        for stream in (process.stdout, process.stderr):
            if stream is not None:
                stream.close()


__all__ = ["LINE_SECONDS", "NodeReceiver"]
