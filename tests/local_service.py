"""The local service as a test sees it: a `python -m console serve` subprocess.

Import it as `from local_service import RunningService` (the fixtures in tests/conftest.py
build on it): `from conftest import ...` is ambiguous once several test folders have a
conftest.py of their own.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import httpx

READY_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0

_LISTENING = re.compile(r"^Listening on (http://\S+)$", re.MULTILINE)
_KEY_LINE = re.compile(r"^  API key: (\S+)$", re.MULTILINE)
_TENANT_LINE = re.compile(r"^  Tenant id: (\S+)$", re.MULTILINE)
_APPLICATION_LINE = re.compile(r"^  Application id: (\S+)$", re.MULTILINE)

_RUNNING: set[RunningService] = set()


@dataclass(frozen=True)
class TenantInfo:
    """A tenant and its bootstrap management application's key."""

    tenant_id: str
    application_id: str
    key: str

    def __repr__(self) -> str:  # never show the key in a test report
        return f"TenantInfo(tenant_id={self.tenant_id!r}, application_id={self.application_id!r})"


class ServiceFailed(RuntimeError):
    """The service did not start; the message carries its stderr."""


class RunningService:
    """One `python -m console serve` subprocess, its data dir and its bootstrap key."""

    def __init__(
        self,
        root: Path,
        *,
        demo_data: bool = False,
        rate_limit: int | None = None,
        frozen_now: str | None = None,
        env: dict[str, str] | None = None,
        key_header: str | None = None,
        launcher: Sequence[str] = ("console", "serve"),
        provision_delay: float | None = None,
        allow_unisolated: bool = False,
        log_retention: int | None = None,
        webhooks: dict[str, float] | None = None,
    ) -> None:
        self.root = root
        self.launcher = tuple(launcher)
        """What `python -m` runs, before the options: `serve` itself, or a test's launcher
        that serves more (tests/proof_kind/serve.py)."""
        self.data_dir = root / "data"
        self.log_dir = root / "logs"  # outside the data dir: stdout holds the bootstrap key
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.demo_data = demo_data
        self.rate_limit = rate_limit
        self.frozen_now = frozen_now
        self.key_header = key_header or "SVC-API-KEY"
        """The header the service reads keys from (`serve --key-header`)."""
        self.extra_env = dict(env or {})
        self.provision_delay = provision_delay
        """Seconds a reactor's provisioning takes (`serve --provision-delay`); None: the
        service's default (0.5)."""
        self.allow_unisolated = allow_unisolated
        """`serve --allow-unisolated`: reactors run where no OS sandbox can be had."""
        self.log_retention = log_retention
        """`serve --log-retention` in seconds; None: the service's default (24 hours)."""
        self.webhooks = dict(webhooks or {})
        """The deliverer's settings, `serve --webhook-<name>`: `{"retry_base": 0.05,
        "max_attempts": 3, "disable_after": 4, "timeout": 10}` (names as in
        console.service.delivery.settings.DeliverySettings); left out: the defaults."""
        self.port = 0
        self.base_url = ""
        self.key = ""
        self.tenant_id = ""
        self.application_id = ""
        self.output = ""
        """Everything the service printed on stdout in its latest run."""
        self._process: subprocess.Popen[bytes] | None = None
        self._runs = 0
        self._keys_made = 0

    def __repr__(self) -> str:
        return f"RunningService(base_url={self.base_url!r}, data_dir={str(self.data_dir)!r})"

    # -- process control ------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def command(self) -> list[str]:
        cmd = [sys.executable, "-m", *self.launcher, "--host", "127.0.0.1"]
        cmd += ["--port", str(self.port), "--data-dir", str(self.data_dir)]
        if self.demo_data:
            cmd.append("--demo-data")
        if self.rate_limit is not None:
            cmd += ["--rate-limit", str(self.rate_limit)]
        if self.key_header != "SVC-API-KEY":
            cmd += ["--key-header", self.key_header]
        if self.provision_delay is not None:
            cmd += ["--provision-delay", str(self.provision_delay)]
        if self.allow_unisolated:
            cmd.append("--allow-unisolated")
        if self.log_retention is not None:
            cmd += ["--log-retention", str(self.log_retention)]
        for name, value in self.webhooks.items():
            cmd += [f"--webhook-{name.replace('_', '-')}", str(value)]
        return cmd

    def environment(self) -> dict[str, str]:
        """The test process's environment (keyring backend etc. untouched), plus options."""
        env = {**os.environ, **self.extra_env, "PYTHONUNBUFFERED": "1"}
        if self.frozen_now is not None:
            env["TENANT_CONSOLE_FROZEN_NOW"] = self.frozen_now
        return env

    def start(self) -> None:
        """Starts the service (same port and data dir as before, if it ran already)."""
        if self.running:
            return
        self._runs += 1
        stdout_path = self.log_dir / f"stdout-{self._runs}.log"
        stderr_path = self.log_dir / f"stderr-{self._runs}.log"
        with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
            self._process = subprocess.Popen(
                self.command(), stdout=out, stderr=err, env=self.environment()
            )
        _RUNNING.add(self)
        deadline = time.monotonic() + READY_TIMEOUT
        while True:
            text = stdout_path.read_text(errors="replace")
            listening = _LISTENING.search(text)
            if listening:
                break
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                why = stderr_path.read_text(errors="replace").strip()
                raise ServiceFailed(f"the local service did not start: {why or text}")
            time.sleep(0.02)  # polling the log file with a deadline, not synchronising
        self.output = text
        self.base_url = listening.group(1)
        self.port = int(self.base_url.rsplit(":", 1)[1])
        key = _KEY_LINE.search(text)
        if key:  # the bootstrap block appears only on the run that created the tenant
            self.key = key.group(1)
            self.tenant_id = _TENANT_LINE.search(text).group(1)  # type: ignore[union-attr]
            self.application_id = _APPLICATION_LINE.search(text).group(1)  # type: ignore[union-attr]

    def stop(self) -> None:
        """Stops the service (SIGTERM, then SIGKILL); its port and data dir stay for start()."""
        process, self._process = self._process, None
        _RUNNING.discard(self)
        if process is None:
            return
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(STOP_TIMEOUT)

    def logs(self) -> tuple[str, str]:
        """stdout and stderr of the latest run (for failure messages)."""
        out = self.log_dir / f"stdout-{self._runs}.log"
        err = self.log_dir / f"stderr-{self._runs}.log"
        return (
            out.read_text(errors="replace") if out.exists() else "",
            err.read_text(errors="replace") if err.exists() else "",
        )

    # -- data helpers -----------------------------------------------------------------------

    def _store(self) -> Any:
        from console.service.store import Store

        return Store(self.data_dir)

    def write_store(self, sql: str, params: Sequence[Any] = ()) -> None:
        """Runs one statement in a write transaction on the service's store: a state the
        service reaches only slowly (a webhook it disabled after failures, an invitation past
        its expiry) or never writes itself, set up at once."""
        store = self._store()
        try:
            with store.write() as conn:
                conn.execute(sql, params)
        finally:
            store.close()

    def new_tenant(self, name: str = "Tenant", *, owner: str | None = None) -> TenantInfo:
        """A new tenant with a bootstrap management key, written straight into the data dir
        (as `tenant-console new-tenant` does, without paying for a process each time); with
        `owner` (an email), that user is its OWNER member (`new-tenant --owner`)."""
        store = self._store()
        try:
            info = store.create_tenant(name, owner_email=owner)
        finally:
            store.close()
        return TenantInfo(info.tenant_id, info.application_id, info.key)

    def accept_invitation(self, invitation_id: str, **details: Any) -> Any:
        """Accepts an invitation in the data dir, as `tenant-console accept-invitation` does
        (console.service.store.acceptance.Accepted); `details`: first_name, last_name,
        mfa_enrolled."""
        store = self._store()
        try:
            return store.accept_invitation(invitation_id, **details)
        finally:
            store.close()

    def new_key(self, permissions: list[str], tenant_key: str | None = None) -> str:
        """The key of a new management application holding exactly `permissions`, created
        over HTTP in the tenant of `tenant_key` (default: the bootstrap key).

        With no permissions it holds only `log:read`, which no endpoint of this API needs
        (an application must hold at least one grant).
        """
        self._keys_made += 1
        body = {
            "name": f"Test key {self._keys_made}",
            "type": "management",
            "permissions": list(permissions) or ["log:read"],
        }
        response = httpx.post(
            f"{self.base_url}/applications",
            json=body,
            headers={self.key_header: tenant_key or self.key},
            timeout=30.0,
        )
        if response.status_code != 201:
            raise AssertionError(f"new_key failed: {response.status_code} {response.text}")
        return response.json()["key"]

    def set_usage(
        self,
        tenant_id: str,
        included: int,
        monthly_active: int,
        metrics: dict[str, tuple[int, datetime | str | None]] | None = None,
    ) -> None:
        """Sets a tenant's usage report directly in the data dir (no token endpoints exist)."""
        store = self._store()
        try:
            store.set_usage(tenant_id, included, monthly_active, metrics or {})
        finally:
            store.close()


@atexit.register
def _kill_leftovers() -> None:
    """A last resort if pytest dies before teardown: no orphaned services."""
    for running in list(_RUNNING):
        with contextlib.suppress(Exception):
            running.stop()


__all__ = ["RunningService", "ServiceFailed", "TenantInfo"]


Service = TypeVar("Service", bound=RunningService)


@contextlib.contextmanager
def serving(running: Service) -> Iterator[Service]:
    """`running` started for the block and stopped after it (even when it failed to start,
    so nothing it began is left behind): the one way a fixture holds a service."""
    try:
        running.start()
        yield running
    finally:
        running.stop()
