"""Noticing that a file was saved, by polling: cheap enough for a one-second timer.

Each poll is a `stat`; the file is read (and hashed) only when its modification time or size
changed, or when it was modified within the last moments (two saves within one tick of the file
system's clock, with the same size, leave the same `stat`). A change is reported only when the
text differs from the last one seen, so touching a file, or saving it unchanged, is no change.
No dependency and no thread: the console drives it from a Textual timer, the command line from
its loop, and tests call `poll()` directly.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from console.files import read_text_file

MAX_FILE_BYTES = 1_000_000
"""Larger files are not formula or transform code (the service takes 50,000 characters)."""

RECENT_SECONDS = 2.0
"""A file modified this recently is read on every poll, whatever its `stat` says."""


class CodeFileProblem(Exception):
    """A code file cannot be read; str() is a sentence a person can act on."""


def read_code_text(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A code file's UTF-8 text (a BOM dropped); CodeFileProblem with a sentence."""
    return read_text_file(path, max_bytes, CodeFileProblem)


def digest_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class _Stat:
    mtime_ns: int
    size: int


class FileWatch:
    """One file's last seen text (by hash); `poll()` returns the new text after a save.

    `read` reads the file as text, raising an exception whose str() is a sentence (the console
    passes its own reader); the same exception comes out of `poll()` and `read()`.
    """

    def __init__(
        self,
        path: Path,
        *,
        read: Callable[[Path], str] = read_code_text,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self._read = read
        self._clock = clock
        self._stat: _Stat | None = None
        self.digest: str | None = None
        """The hash of the text last read or written through this watch."""
        self.missing = False
        """The file was not there at the last poll (deleted, or being replaced)."""

    def read(self) -> str:
        """The file's text now, which becomes the last seen version."""
        stat = self._stat_now()
        text = self._read(self.path)
        self._seen(text, stat)
        return text

    def seen(self, text: str) -> None:
        """`text` was just written to the file (by us): it is not a change to report."""
        self._seen(text, self._stat_now())

    def poll(self) -> str | None:
        """The file's new text if it changed since it was last read or written; else None.

        A missing file is no change (an editor may be replacing it): `missing` says so."""
        stat = self._stat_now()
        self.missing = stat is None
        if stat is None:
            return None
        recent = self._clock() - stat.mtime_ns / 1e9 < RECENT_SECONDS
        if stat == self._stat and not recent:
            return None
        text = self._read(self.path)
        self._stat = stat
        digest = digest_of(text)
        if digest == self.digest:
            return None
        self.digest = digest
        return text

    def _seen(self, text: str, stat: _Stat | None) -> None:
        self._stat = stat
        self.digest = digest_of(text)
        self.missing = stat is None

    def _stat_now(self) -> _Stat | None:
        try:
            result = os.stat(self.path)
        except OSError:  # gone, or not reachable now: the next poll looks again
            return None
        return _Stat(result.st_mtime_ns, result.st_size)
