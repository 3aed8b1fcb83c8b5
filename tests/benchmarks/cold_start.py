"""Cold start: a new process until the Applications list shows rows, against a minimal app.

Both run as a new Python process in a 120x40 pseudo-terminal; the clock runs from spawning
the process until the awaited text reaches the terminal: the first application's name for
the console, the Static's text for the baseline. One unmeasured run of each first warms the
OS file cache and the bytecode caches, as on any second launch: PYTHONDONTWRITEBYTECODE is
left out of both launches' environment, or every launch would compile the console's modules
anew (a person's installed console has its bytecode written on first use).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path

from tests.benchmarks.minimal_app import MARKER
from tests.benchmarks.pty_launch import time_until_shown
from tests.benchmarks.results import REPO_ROOT


def console_launcher(
    base_url: str, key: str, first_row: str, config_dir: Path, clock: str = "wall"
) -> Callable[[], float]:
    """The console with its connection from the environment and an empty config dir."""
    config_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    env = {
        **_launch_environment(),
        "TENANT_CONSOLE_BASE_URL": base_url,
        "TENANT_CONSOLE_API_KEY": key,
        "TENANT_CONSOLE_CONFIG_DIR": str(config_dir),
        # The usage history (issue 28) the console keeps: beside the config, never the user's.
        "TENANT_CONSOLE_DATA_DIR": str(config_dir.parent / "data"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    command = [sys.executable, "-m", "console"]
    return lambda: time_until_shown(command, first_row, env=env, cwd=str(REPO_ROOT), clock=clock)


def baseline_launcher(clock: str = "wall") -> Callable[[], float]:
    command = [sys.executable, "-m", "tests.benchmarks.minimal_app"]
    env = _launch_environment()
    return lambda: time_until_shown(command, MARKER, env=env, cwd=str(REPO_ROOT), clock=clock)


def _launch_environment() -> dict[str, str]:
    """This environment, with bytecode caches allowed (see the module's docstring)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(
    base_url: str, key: str, first_row: str, runs: int, config_dir: Path, clock: str = "wall"
) -> tuple[list[float], list[float]]:
    """(console seconds, baseline seconds) per run, interleaved so drift hits both alike;
    `clock="cpu"`: the CPU seconds each process had used by then (see pty_launch)."""
    console = console_launcher(base_url, key, first_row, config_dir, clock)
    baseline = baseline_launcher(clock)
    console(), baseline()  # warm-up
    console_times, baseline_times = [], []
    for _ in range(runs):
        console_times.append(console())
        baseline_times.append(baseline())
    return console_times, baseline_times
