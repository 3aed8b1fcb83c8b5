"""Fixtures of the sandbox tests: the targets hostile code must not reach, and a way to
force the sandbox's mechanism."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sandbox_support import CANARY, INJECTED_KEY, Targets

from console.runner import sandbox


@pytest.fixture
def targets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Targets]:
    home = tmp_path / "home"
    home.mkdir()
    canary = home / "canary.txt"
    canary.write_text(CANARY, encoding="utf-8")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", INJECTED_KEY)
    monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={home}/bus")
    victim = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.setblocking(False)
    try:
        yield Targets(victim, listener, canary, home)
    finally:
        listener.close()
        victim.kill()
        victim.wait()


@pytest.fixture
def mechanism_is(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """Forces the sandbox's mechanism (or "none") for the rest of the test."""

    def force(name: str) -> None:
        monkeypatch.setenv(sandbox.SANDBOX_ENV, name)
        sandbox.forget()
        if name != "none":
            found = sandbox.boundary()
            assert found.mechanism == name, found.reason

    yield force
    sandbox.forget()


@pytest.fixture(autouse=True)
def no_spares(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every run here starts its own engine process (the console's run screen keeps one
    started ahead): the tests count a run's processes."""
    monkeypatch.setattr(sandbox.spares, "enabled", False)
