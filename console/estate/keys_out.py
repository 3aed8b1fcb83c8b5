"""`apply --keys-out FILE`: where the keys of created applications go, and never get lost.

The file is checked before anything is created (its folder exists and can be written to; it
is not a folder; if it exists, it is a keys file an earlier apply wrote). Each key is written
as soon as its application is created, added to the keys already in the file (an earlier
run's keys are never overwritten), atomically and readable by its owner only (0600). A key
that could not be written is kept, and printed once at the end instead.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from console.estate.apply import NewKey
from console.estate.document import write_private

KEYS_FORMAT = "tenant-console/keys-1"


class KeysOutUnusable(Exception):
    """The --keys-out path cannot take the keys; str() says why, in one sentence."""


def _earlier_keys(path: Path) -> list[dict[str, Any]]:
    """The keys an earlier apply wrote to `path`; KeysOutUnusable if it holds anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise KeysOutUnusable(f"--keys-out {path} exists but cannot be read: {error}.") from None
    if not text.strip():
        return []
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        data = None
    keys = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(keys, list):
        raise KeysOutUnusable(
            f"--keys-out {path} exists and is not a keys file written by apply; it is left "
            "alone. Name another file."
        )
    return keys


def check_keys_out(spec: str) -> Path:
    """The --keys-out path, made absolute, once it can be written (see the module)."""
    path = Path(spec).expanduser().absolute()
    if path.is_dir():
        raise KeysOutUnusable(f"--keys-out {spec} is a folder; name a file in it.")
    folder = path.parent
    if not folder.is_dir():
        raise KeysOutUnusable(f"--keys-out {spec}: the folder {folder} does not exist.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise KeysOutUnusable(f"--keys-out {spec}: the folder {folder} cannot be written to.")
    if path.exists() or path.is_symlink():
        if not path.is_file():
            raise KeysOutUnusable(f"--keys-out {spec} exists and is not a regular file.")
        if not os.access(path, os.W_OK):
            raise KeysOutUnusable(f"--keys-out {spec} exists and cannot be written to.")
        _earlier_keys(path)
    return path


@dataclass
class KeysOut:
    """Writes each new key to the --keys-out file as it comes; remembers what failed."""

    path: Path
    target: str
    """The tenant the keys belong to ("profile prod"), written beside each key."""
    written: list[NewKey] = field(default_factory=list)
    unwritten: list[NewKey] = field(default_factory=list)
    problem: str = ""

    def add(self, new: NewKey) -> None:
        """Adds `new` to the file; on failure keeps it in `unwritten` (never raises)."""
        if self.unwritten:  # once writing failed, the rest is printed with it
            self.unwritten.append(new)
            return
        try:
            keys = _earlier_keys(self.path) if self.path.exists() else []
            keys.append(
                {
                    "application": new.application,
                    "key": new.key,
                    "tenant": self.target,
                    "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
                }
            )
            text = json.dumps({"format": KEYS_FORMAT, "keys": keys}, indent=2) + "\n"
            write_private(self.path, text)
        except (OSError, KeysOutUnusable) as error:
            self.problem = (
                error.strerror or str(error) if isinstance(error, OSError) else str(error)
            )
            self.unwritten.append(new)
        else:
            self.written.append(new)


__all__ = ["KEYS_FORMAT", "KeysOut", "KeysOutUnusable", "check_keys_out"]
