"""A new key written to a file that only its owner can read (0600), never to a terminal."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class KeyFileError(Exception):
    """The key file cannot be written; str() is one sentence a person can act on."""


class KeyFileExists(KeyFileError):
    """Something is already at the key file's path, and it is not replaced."""


def write_key_file(path: Path, key: str) -> Path:
    """Writes `key` (and a newline) to `path`, mode 0600 from the first byte, replacing it
    atomically: a reader sees the old file or the whole new key, never half of it."""
    path = Path(path).expanduser()
    if path.is_dir():
        raise KeyFileError(f"{path} is a folder, not a file.")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise KeyFileError(f"The folder of {path} does not exist.")
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=directory)
    except OSError as error:
        raise KeyFileError(f"Could not write {path}: {error.strerror or error}.") from None
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(key + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise KeyFileError(f"Could not write {path}: {error.strerror or error}.") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
