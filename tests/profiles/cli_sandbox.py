"""`python -m console` in a subprocess, kept off the user's files: a temp HOME (and so temp
XDG config, data and cache dirs), a temp config dir and a JSON-file test keyring. The
`sandbox` fixture (tests/profiles/conftest.py) makes one a test; a module may make its own."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from memory_keyring import TEST_KEYRING_FILE_ENV

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


@dataclass
class CliResult:
    code: int
    stdout: str
    stderr: str


@dataclass
class CliSandbox:
    """`python -m console` in a subprocess with a temp HOME, config dir and test keyring."""

    root: Path
    config_dir: Path
    keyring_file: Path
    backend: str = "memory_keyring.JsonFileTestKeyring"

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TENANT_CONSOLE_")}
        home = self.root / "home"
        env.update(
            HOME=str(home),
            XDG_CONFIG_HOME=str(home / ".config"),
            XDG_DATA_HOME=str(home / ".local" / "share"),
            TENANT_CONSOLE_CONFIG_DIR=str(self.config_dir),
            PYTHON_KEYRING_BACKEND=self.backend,
            PYTHONPATH=os.pathsep.join(
                [str(HERE), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
            ),
            **{TEST_KEYRING_FILE_ENV: str(self.keyring_file)},
        )
        env.update(extra)
        return env

    def run(self, *args: str, stdin: str = "", **extra_env: str) -> CliResult:
        done = subprocess.run(
            [sys.executable, "-m", "console", *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env(**extra_env),
            cwd=self.root,
            timeout=60,
        )
        return CliResult(done.returncode, done.stdout, done.stderr)
