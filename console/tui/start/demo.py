"""The local service run as a child process, for `tenant-console demo`, screenshots and snapshots.

The console never imports console.service: it starts `python -m console serve` and reads the
bootstrap key from the service's start-up block, holding it in memory only.
"""

from __future__ import annotations

import contextlib
import os
import queue
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from console.tui.base.connection import Connection

KEY_PREFIX = "API key:"
TENANT_PREFIX = "Tenant id:"
LISTENING_PREFIX = "Listening on"
STAGING_TENANT = "Acme Payments (staging)"
"""The demo's second tenant: a near copy of the first (see console.service.demo)."""
CONSOLE_DATA = "console-data"
"""Inside the demo's data dir: the console's own data for the demo (test-run samples...)."""
CONSOLE_CACHE = "console-cache"
"""Inside the demo's data dir: the console's cache for the demo (the profiles' local indexes)."""
HISTORY_FILE = "usage-history.sqlite3"
DEMO_WEBHOOK_DISABLE_AFTER = 1000
"""`serve --webhook-disable-after` for the demo (the service's default is 10, the limit 1000).
The demo's "Local listen" webhook delivers to a port nothing listens on until the person
trying the demo starts `tenant-console webhooks listen --no-register --port 8765`; with the
default, a few changes made before that would disable it, and the listener started next
would get nothing. A thousand failed attempts in a row is more than a demo session makes, so
it stays enabled; each delivery is still retried with the usual back-off (about two minutes
of attempts), so a listener started soon after a change still receives it. The demo's
"Ledger sync" webhook shows the disabled state instead."""

_HISTORIES: dict[str, Path] = {}
"""base URL -> the usage history of a demo service running in this process (issue 28)."""


def history_path_for(base_url: str) -> Path | None:
    """The usage history of the demo service at `base_url`, if this process started one: the
    demo's reports are kept there, beside its month of demo history, never in the user's."""
    return _HISTORIES.get(base_url.rstrip("/"))


class DemoServiceError(RuntimeError):
    """The service did not start; the message is one line for a person."""


def free_port(host: str = "127.0.0.1") -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """Whether the service could listen there (a port in TIME_WAIT counts as free, as it
    does for uvicorn, which binds with SO_REUSEADDR)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
        return True


class DemoService:
    """A seeded local service in a temporary data dir; `stop()` ends it and removes the dir."""

    def __init__(
        self,
        *,
        port: int | None = None,
        frozen_now: str | None = None,
        demo_data: bool = True,
        staging: bool = False,
        startup_timeout: float = 30.0,
    ) -> None:
        """`staging`: also seed the demo's staging tenant (STAGING_TENANT), whose key is then
        `staging_key`, so that the overview, copy-to-profile and diff have two tenants."""
        self.host = "127.0.0.1"
        self.port = port
        self.frozen_now = frozen_now
        self.demo_data = demo_data
        self.startup_timeout = startup_timeout
        self.key: str | None = None
        self.staging = staging and demo_data
        self.staging_key: str | None = None
        self.tenant_id: str | None = None
        self.data_dir: Path | None = None
        self._process: subprocess.Popen[str] | None = None
        self._own_dir = False
        self.reported_dead = False
        """Set by the console once it said the service stopped (it says so once)."""

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def __repr__(self) -> str:  # never the key
        return f"DemoService(base_url={self.base_url!r}, running={self.running})"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    @property
    def exit_code(self) -> int | None:
        """The service's exit code once it has ended on its own; None while it runs."""
        return self._process.poll() if self._process is not None else None

    def start(self) -> DemoService:
        """Starts the service and waits until it listens; raises DemoServiceError otherwise."""
        if self.port is None or not port_is_free(self.port, self.host):
            self.port = free_port(self.host)
        self.data_dir = Path(tempfile.mkdtemp(prefix="tenant-console-demo-"))
        self._own_dir = True
        command = [sys.executable, "-m", "console", "serve", "--host", self.host]
        command += ["--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.demo_data:
            command.append("--demo-data")
            command += ["--webhook-disable-after", str(DEMO_WEBHOOK_DISABLE_AFTER)]
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        if self.frozen_now:
            env["TENANT_CONSOLE_FROZEN_NOW"] = self.frozen_now
        try:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
        except OSError as exc:
            self.stop()
            raise DemoServiceError(f"Could not start the local service: {exc}.") from None
        try:
            self._wait_until_listening()
            if self.staging:
                self.staging_key = self._add_staging_tenant(env)
        except DemoServiceError:
            self.stop()
            raise
        if self.demo_data and self.tenant_id:
            self._seed_history()
        return self

    def _add_staging_tenant(self, env: dict[str, str]) -> str:
        """Seeds the staging tenant beside the running service (`new-tenant --demo-data`)."""
        import json

        assert self.data_dir is not None
        command = [sys.executable, "-m", "console", "new-tenant", "--demo-data"]
        command += ["--data-dir", str(self.data_dir), STAGING_TENANT]
        try:
            done = subprocess.run(
                command,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                env=env,
                timeout=self.startup_timeout,
                check=False,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise DemoServiceError(f"Could not add the staging tenant: {exc}.") from None
        if done.returncode != 0:
            last = next((e for e in reversed(done.stderr.splitlines()) if e.strip()), "")
            raise DemoServiceError(f"Could not add the staging tenant: {last.strip()}")
        return str(json.loads(done.stdout)["key"])

    def use_for_console_data(self) -> Path:
        """Points the console's data and cache directories (test-run samples, the journal,
        the profiles' local indexes and whatever else it keeps) into the demo's temporary
        dir, so the demo writes nothing of the user's and leaves nothing behind; writes there
        a sample for every demo formula and transform."""
        from console.client.index import CACHE_DIR_ENV
        from console.data_dir import DATA_DIR_ENV
        from console.models.demo import demo_samples
        from console.runner.samples import save_sample

        assert self.data_dir is not None, "start() first"
        directory = self.data_dir / CONSOLE_DATA
        os.environ[DATA_DIR_ENV] = str(directory)
        os.environ[CACHE_DIR_ENV] = str(self.data_dir / CONSOLE_CACHE)
        for key, text in demo_samples().items():
            save_sample(key, text)
        return directory

    def connections(self) -> list[Connection]:
        """The demo's profiles, held in memory: production, and staging when seeded."""
        from console.tui.base.connection import Connection

        production = Connection(
            "production", self.base_url, self.key, "memory", badge="PROD", color="red"
        )
        if self.staging_key is None:
            return [production]
        staging = Connection(
            "staging", self.base_url, self.staging_key, "memory", badge="STAGE", color="yellow"
        )
        return [production, staging]

    @property
    def history_path(self) -> Path | None:
        """The demo's usage history, in its data dir (removed with it)."""
        return self.data_dir / HISTORY_FILE if self.data_dir is not None else None

    def _seed_history(self) -> None:
        """A month of recorded usage, marked as demo data: the dashboard has a trend to show
        from the first look. A failure costs the demo its history, not its start (logged)."""
        import logging
        from datetime import datetime

        from console.clock import now
        from console.usage_history.demo_curve import demo_history
        from console.usage_history.store import HistoryStore

        path = self.history_path
        assert path is not None and self.tenant_id is not None
        moment = datetime.fromisoformat(self.frozen_now) if self.frozen_now else now()
        try:
            store = HistoryStore(path, demo=True)
            store.record_many(self.base_url, self.tenant_id, demo_history(moment))
        except Exception:
            logging.getLogger(__name__).warning("No demo usage history", exc_info=True)
            return
        _HISTORIES[self.base_url] = path

    def _wait_until_listening(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        lines: queue.Queue[str | None] = queue.Queue()

        def pump(stream: IO[str]) -> None:
            for line in stream:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, args=(self._process.stdout,), daemon=True).start()
        errors: list[str] = []
        stderr = self._process.stderr
        threading.Thread(target=lambda: errors.extend(stderr or []), daemon=True).start()
        deadline = time.monotonic() + self.startup_timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise DemoServiceError(
                    f"The local service did not start within {self.startup_timeout:.0f} s."
                )
            try:
                line = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if line is None:
                self._process.wait(timeout=5)
                last = next((e.strip() for e in reversed(errors) if e.strip()), "")
                reason = f": {last}" if last else ""
                raise DemoServiceError(
                    f"The local service exited with code {self._process.returncode}{reason}"
                )
            stripped = line.strip()
            if stripped.startswith(KEY_PREFIX):
                self.key = stripped[len(KEY_PREFIX) :].strip()
            elif stripped.startswith(TENANT_PREFIX):
                self.tenant_id = stripped[len(TENANT_PREFIX) :].strip()
            elif stripped.startswith(LISTENING_PREFIX):
                if not self.key:
                    raise DemoServiceError("The local service started without printing a key.")
                return

    def stop(self) -> None:
        """Ends the service (politely, then firmly) and removes its data dir."""
        _HISTORIES.pop(self.base_url, None)
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        if process is not None:
            for stream in (process.stdout, process.stderr):
                if stream is not None:  # always piped (start): None only to the type checker
                    with contextlib.suppress(OSError):  # closing a pipe: nothing to report
                        stream.close()
        if self._own_dir and self.data_dir is not None:
            shutil.rmtree(self.data_dir, ignore_errors=True)
            self.data_dir = None

    def __enter__(self) -> DemoService:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
