"""Start a command in a pseudo-terminal and time how long until a text appears on screen.

A real terminal is what a person sees: the console and the baseline app both run under a
120x40 pty, and the clock stops when the first byte of the awaited text has been written.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Mapping, Sequence

COLUMNS, ROWS = 120, 40


class ScreenTimeout(RuntimeError):
    """The text never appeared; the message holds the tail of the output."""


def time_until_shown(
    command: Sequence[str],
    marker: str,
    *,
    env: Mapping[str, str],
    cwd: str | None = None,
    timeout: float = 30.0,
    clock: str = "wall",
) -> float:
    """Seconds from spawning `command` until `marker` appears in what it writes to the pty;
    with `clock="cpu"`, the CPU time (user + system, all its threads) the process had used
    by then instead: on a busy machine that moves far less than the wall clock."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
    wanted = marker.encode()
    output = bytearray()
    started = time.perf_counter()
    process = subprocess.Popen(
        list(command),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**env, "TERM": "xterm-256color", "COLUMNS": str(COLUMNS), "LINES": str(ROWS)},
        cwd=cwd,
        start_new_session=True,
        close_fds=True,
    )
    os.close(slave)
    try:
        deadline = started + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0 or process.poll() is not None:
                tail = bytes(output[-2000:]).decode(errors="replace")
                raise ScreenTimeout(f"{marker!r} not shown by {command[-1]!r}: {tail!r}")
            ready, _, _ = select.select([master], [], [], min(remaining, 0.5))
            if not ready:
                continue
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the child closed the pty
                chunk = b""
            if not chunk:
                continue
            output += chunk
            if wanted in output:
                if clock == "cpu":
                    return cpu_seconds(process.pid)
                return time.perf_counter() - started
    finally:
        _end(process)
        os.close(master)


def cpu_seconds(pid: int) -> float:
    """The CPU time a running process has used so far (Linux: /proc/<pid>/stat, in clock
    ticks, usually 10 ms)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()  # the name may hold spaces
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _end(process: subprocess.Popen[bytes]) -> None:
    """Stop the child (and whatever it started in its session) and reap it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait(10)
