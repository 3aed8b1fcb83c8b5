"""What the sandbox tests share: a victim process, a loopback listener, a planted key and a
canary file, each of which hostile code must fail to reach; and the processes of a run."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

INJECTED_KEY = "key_injected_0f5e2b7c9d1a4e3f8b6a"
CANARY = "canary-5b1f0e-must-never-be-read"

MECHANISMS = [
    pytest.param("namespaces", id="namespaces"),
    pytest.param(
        "bwrap",
        id="bwrap",
        marks=pytest.mark.skipif(
            shutil.which("bwrap") is None,
            reason="bubblewrap is not installed here (no `bwrap` on PATH): its path is skipped",
        ),
    ),
]


@dataclass
class Targets:
    """What the code is aimed at: none of it may be reached."""

    victim: subprocess.Popen[bytes]
    listener: socket.socket
    canary: Path
    home: Path

    @property
    def port(self) -> int:
        return int(self.listener.getsockname()[1])

    def assert_untouched(self, output: str) -> None:
        assert self.victim.poll() is None, "the victim process was killed"
        try:
            connection, _ = self.listener.accept()
        except BlockingIOError:
            pass
        else:
            connection.close()
            raise AssertionError("the loopback listener heard a connection")
        assert INJECTED_KEY not in output
        assert CANARY not in output


def descendants(pid: int) -> list[int]:
    """The living processes below `pid` (zombies do not count: they run nothing)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    pending = [pid]
    while pending:
        for child in children.get(pending.pop(), []):
            found.append(child)
            pending.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rindex(")") + 2] != "Z"


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used (0 once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 30) -> None:
    """Polls a condition (a process appearing or going), failing after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)
