"""`tenant-console demo` killed or hung up still stops its service and removes its data dir."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path


def wait_for(condition, deadline_s: float = 60.0) -> bool:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)  # polling with a deadline, not synchronisation by sleep
    return False


def read_until(fd: int, marker: bytes, deadline_s: float = 60.0) -> bool:
    """Drains the terminal's output until `marker` shows up on it."""
    seen = b""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                return False
            if marker in seen:
                return True
    return False


def exits_while_read(process: subprocess.Popen[bytes], fd: int, deadline_s: float = 60.0) -> bool:
    """Waits for the process to end while reading its terminal, as a terminal does: a console
    that shuts down cleanly writes to it, and would block on a terminal nobody reads."""
    deadline = time.monotonic() + deadline_s
    while process.poll() is None:
        if time.monotonic() > deadline:
            return False
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                os.read(fd, 65536)
            except OSError:  # the terminal closed with the process
                process.wait(10)
    return True


def test_sigterm_while_on_screen_cleans_up_like_quit(tmp_path: Path) -> None:
    leader, follower = os.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TENANT_CONSOLE_")}
    env.update(TMPDIR=str(tmp_path), TERM="xterm-256color", COLUMNS="120", LINES="40")
    env["TENANT_CONSOLE_LOG_DIR"] = str(tmp_path / "logs")  # never the user's log directory
    demo = subprocess.Popen(
        [sys.executable, "-m", "console", "demo"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    try:
        data_dirs = lambda: list(tmp_path.glob("tenant-console-demo-*"))  # noqa: E731
        assert read_until(leader, b"Bootstrap management"), "the console never showed rows"
        assert len(data_dirs()) == 1
        demo.send_signal(signal.SIGTERM)
        assert exits_while_read(demo, leader), "the demo did not end"
        assert demo.returncode == 128 + signal.SIGTERM
        assert wait_for(lambda: data_dirs() == [])
    finally:
        # The demo leads its own process group: whatever it left running goes with it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(demo.pid, signal.SIGKILL)
        demo.wait(timeout=10)
        os.close(leader)


def test_the_demo_writes_nothing_in_the_users_data_or_cache_dirs(tmp_path: Path) -> None:
    """The demo keeps the console's data and cache (the journal, the profiles' local indexes)
    in its own temporary dir, which goes with it: the user's stay as they were."""
    home = tmp_path / "home"
    home.mkdir()
    leader, follower = os.openpty()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TENANT_CONSOLE_", "XDG_"))}
    env.update(TMPDIR=str(tmp_path), TERM="xterm-256color", COLUMNS="120", LINES="40")
    env.update(HOME=str(home), TENANT_CONSOLE_LOG_DIR=str(tmp_path / "logs"))
    demo = subprocess.Popen(
        [sys.executable, "-m", "console", "demo"],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=env,
        start_new_session=True,
    )
    os.close(follower)
    try:
        assert read_until(leader, b"Bootstrap management"), "the console never showed rows"
        indexes = lambda: list(tmp_path.glob("tenant-console-demo-*/console-cache/index/*"))  # noqa: E731
        assert wait_for(indexes), "the list's index was not written in the demo's dir"
        demo.send_signal(signal.SIGTERM)
        assert exits_while_read(demo, leader), "the demo did not end"
        assert wait_for(lambda: list(tmp_path.glob("tenant-console-demo-*")) == [])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(demo.pid, signal.SIGKILL)
        demo.wait(timeout=10)
        os.close(leader)
    left = sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())
    assert [p for p in left if not p.startswith(".config/")] == [], left
