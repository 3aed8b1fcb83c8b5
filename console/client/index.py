"""A profile's local index: the names, ids and kinds of the objects the console has seen.

Every list page and page walk the client reads is recorded here (through the session's
`page_seen`), with when, so that a search can answer at once from what was seen last time
("from the index, 3 minutes old") and confirm live behind it. It is a cache: one SQLite
file per profile in the user cache directory, 0600 in a 0700 directory, holding a kind, an
id, a name and two times per object, never a key, code or any other field. A file that
cannot be read is started afresh; a profile pointed at another service starts it afresh too.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from console.kinds import KINDS, Kind

log = logging.getLogger("console.client")

CACHE_DIR_ENV = "TENANT_CONSOLE_CACHE_DIR"
APP_NAME = "tenant-console"
NAME_LIMIT = 512
"""Characters of a name kept: a name is for finding an object, not for storing data."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS objects (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    seen_at REAL NOT NULL,
    gone_at REAL,
    PRIMARY KEY (kind, id)
);
"""


def indexed_names() -> tuple[str, ...]:
    """The kinds the index holds, by their names in its rows (the words `tenant-console
    search --kind` takes), in the registry's order."""
    return tuple(kind.index.name for kind in KINDS.indexed() if kind.index)


def indexed_kind(path: str) -> Kind | None:
    """The kind whose list is at `path` (exactly), if the index records it."""
    return next((kind for kind in KINDS.indexed() if kind.path == path), None)


def cache_dir() -> Path:
    """$TENANT_CONSOLE_CACHE_DIR, or the user cache directory (platformdirs)."""
    override = os.environ.get(CACHE_DIR_ENV, "").strip()
    if override:
        return Path(override).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_NAME, appauthor=False))


def index_path(profile: str) -> Path:
    """The index file of `profile` (any character outside [A-Za-z0-9._-] becomes `_`)."""
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", profile) or "_"
    return cache_dir() / "index" / f"{safe}.sqlite3"


def name_pattern(query: str) -> re.Pattern[str]:
    """As the service's name filter: contains, case-insensitively, `*` matching any run."""
    return re.compile(".*".join(re.escape(part) for part in query.split("*")), re.IGNORECASE)


def age_text(seconds: float) -> str:
    """ "3 minutes old", "just now": how old an answer from the index is."""
    if seconds < 60:
        return "less than a minute old"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            count = int(seconds // size)
            return f"{count} {unit}{'' if count == 1 else 's'} old"
    return "just now"


@dataclass(frozen=True)
class IndexRow:
    """One object as the index knows it."""

    kind: str
    id: str
    name: str
    seen_at: float
    """When (epoch seconds) a page last showed it."""
    gone: bool = False
    """A complete walk no longer found it."""


class LocalIndex:
    """One profile's index file. Safe to call from any thread (one connection, a lock)."""

    def __init__(self, path: Path, base_url: str | None = None) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn = self._open(path)
        if base_url is not None:
            self._same_service(base_url)

    @classmethod
    def for_profile(cls, profile: str, base_url: str | None = None) -> LocalIndex:
        return cls(index_path(profile), base_url)

    @classmethod
    def open_quietly(
        cls, profile: str | None, base_url: str, said: Callable[[str], None] | None = None
    ) -> LocalIndex | None:
        """The profile's index, or None (no profile, or a file that cannot be opened, which
        is logged): the index only ever speeds things up, it never stops them. A file that
        is not safely the console's own (a symbolic link...) is told to `said` too."""
        from console.files import UnsafeFileError

        if profile is None:
            return None
        try:
            return cls.for_profile(profile, base_url)
        except UnsafeFileError as refused:
            log.warning("The local index is not used: %s", refused)
            if said is not None:
                said(f"The local index is not used: {refused}")
            return None
        except (OSError, sqlite3.Error):
            log.warning("The local index of %s could not be opened", profile, exc_info=True)
            return None

    # ---- the file --------------------------------------------------------------------------

    @staticmethod
    def _open(path: Path) -> sqlite3.Connection:
        """The file, 0600 and never through a symbolic link, another user's or a file others
        can write (UnsafeFileError, an OSError, naming it); one SQLite cannot read is started
        afresh."""
        from console.files import private_file, still_same_file

        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(path.parent, 0o700)
        for attempt in (1, 2):
            status = private_file(path, "local index")
            assert status is not None
            conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            try:
                # A cache: no journal file beside it (it would need its own mode), no fsync.
                conn.execute("PRAGMA journal_mode=MEMORY")
                conn.execute("PRAGMA synchronous=OFF")
                conn.executescript(_SCHEMA)
                still_same_file(path, "local index", status)
                return conn
            except OSError:
                conn.close()
                raise
            except sqlite3.DatabaseError:
                conn.close()
                if attempt == 2:
                    raise
                log.warning("The local index %s could not be read; starting it afresh", path)
                path.unlink(missing_ok=True)
        raise AssertionError("unreachable")

    def _same_service(self, base_url: str) -> None:
        """Forgets everything if the profile now points at another service."""
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key = 'base_url'").fetchone()
            if row is not None and row[0] == base_url:
                return
            self._conn.execute("DELETE FROM objects")
            self._conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('base_url', ?)", (base_url,)
            )

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def clear(self) -> None:
        """Forgets every object (the file stays)."""
        with self._lock:
            self._conn.execute("DELETE FROM objects")

    # ---- recording -------------------------------------------------------------------------

    def record_page(self, path: str, items: Sequence[Any]) -> None:
        """A list page as the session read it (HttpSession.page_seen): its objects' names
        and ids, if the path is one of the kinds the index holds."""
        kind = indexed_kind(path)
        if kind is not None and kind.index is not None:
            self.record(kind.index.name, items)

    def record(self, kind: str, items: Iterable[Any], at: float | None = None) -> None:
        """Seen now (or `at`): each object's id and name, nothing else of it."""
        moment = time.time() if at is None else at
        rows = []
        for item in items:
            if not isinstance(item, dict):
                continue
            item_id, name = item.get("id"), item.get("name")
            if not isinstance(item_id, str) or not item_id:
                continue
            text = name if isinstance(name, str) else ""
            rows.append((kind, item_id[:NAME_LIMIT], text[:NAME_LIMIT], moment))
        if not rows:
            return
        with self._lock, self._transaction():
            self._conn.executemany(
                "INSERT INTO objects (kind, id, name, seen_at, gone_at) VALUES (?, ?, ?, ?, NULL)"
                " ON CONFLICT (kind, id) DO UPDATE SET"
                " name = excluded.name, seen_at = excluded.seen_at, gone_at = NULL",
                rows,
            )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One transaction for a page's rows, not one per row (ten times faster)."""
        self._conn.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def mark_gone(self, kind: str, ids: Iterable[str], at: float | None = None) -> None:
        moment = time.time() if at is None else at
        with self._lock, self._transaction():
            self._conn.executemany(
                "UPDATE objects SET gone_at = ? WHERE kind = ? AND id = ? AND gone_at IS NULL",
                [(moment, kind, item_id) for item_id in ids],
            )

    def sweep(self, kind: str, before: float) -> int:
        """A complete walk of every `kind` object began at `before`: those it did not see
        are gone. Returns how many were marked."""
        with self._lock:
            cursor = self._conn.execute(
                "UPDATE objects SET gone_at = ? WHERE kind = ? AND seen_at < ? AND gone_at IS NULL",
                (time.time(), kind, before),
            )
            return cursor.rowcount

    # ---- reading ---------------------------------------------------------------------------

    def search(
        self, query: str, kinds: Sequence[str] | None = None, *, gone: bool = False
    ) -> list[IndexRow]:
        """The objects whose names match `query` as the service's name filter would, by
        kind then name; those marked gone only with `gone`. `kinds`: names in the index's
        rows (all it holds if None)."""
        names = indexed_names()
        kinds = names if kinds is None else kinds
        pattern = name_pattern(query)
        marks = ",".join("?" for _ in kinds)
        sql = f"SELECT kind, id, name, seen_at, gone_at FROM objects WHERE kind IN ({marks})"
        args: tuple[str, ...] = tuple(kinds)
        if query.isascii():  # LIKE narrows (ASCII case-insensitively); the pattern decides
            like = "".join("\\" + c if c in "%_\\" else c for c in query).replace("*", "%")
            sql += " AND name LIKE ? ESCAPE '\\'"
            args += (f"%{like}%",)
        with self._lock:
            found = self._conn.execute(sql, args).fetchall()
        order = {kind: n for n, kind in enumerate(names)}
        rows = [
            IndexRow(kind, item_id, name, seen_at, gone_at is not None)
            for kind, item_id, name, seen_at, gone_at in found
            if pattern.search(name) and (gone or gone_at is None)
        ]
        rows.sort(key=lambda row: (order.get(row.kind, len(order)), row.name.casefold()))
        return rows

    def count(self, kind: str | None = None) -> int:
        with self._lock:
            if kind is None:
                return int(self._conn.execute("SELECT COUNT(*) FROM objects").fetchone()[0])
            query = "SELECT COUNT(*) FROM objects WHERE kind = ?"
            return int(self._conn.execute(query, (kind,)).fetchone()[0])

    def __repr__(self) -> str:
        return f"LocalIndex({str(self.path)!r})"
