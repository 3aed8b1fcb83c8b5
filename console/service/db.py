"""The SQLite file of a data dir: WAL mode, one connection per thread, one transaction per use.

Writers in this process queue on a lock before `BEGIN IMMEDIATE`, so they never spin in
SQLite's busy handler; writers in another process (`new-tenant` while `serve` runs) wait on
`busy_timeout`. Readers never block in WAL mode.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from console.service.schema import migrate

DB_FILE = "tenant-console.sqlite3"
BUSY_TIMEOUT_MS = 30_000
PRIVATE_FILE_MODE = 0o600
"""The database holds proxy keys in plain text: only its owner may read it."""


class DataDirError(RuntimeError):
    """The data dir cannot be created, opened or written; str() is one clear sentence."""


def _keep_private(path: Path) -> None:
    """Creates the database file 0600 before SQLite does (it would follow the umask), and
    tightens files an older release left readable. SQLite gives its `-wal` and `-shm`
    files the database file's mode, so they are private too."""
    if os.name != "posix":
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
    os.close(fd)
    for name in (path.name, f"{path.name}-wal", f"{path.name}-shm", f"{path.name}-journal"):
        sibling = path.with_name(name)
        try:
            mode = stat.S_IMODE(sibling.stat().st_mode)
        except FileNotFoundError:
            continue
        if mode & 0o077:
            sibling.chmod(PRIVATE_FILE_MODE)


def open_to_others(data_dir: Path) -> str | None:
    """A one-line warning when other local users can reach into the data dir, else None."""
    if os.name != "posix":
        return None
    try:
        mode = stat.S_IMODE(Path(data_dir).stat().st_mode)
    except OSError:
        return None
    if not mode & 0o077:
        return None
    return (
        f"warning: the data dir {data_dir} is open to other users (mode {mode:04o}); "
        f"its files are private (0600), but `chmod 700 {data_dir}` hides them entirely."
    )


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


class Database:
    """Opens (creating and migrating if needed) the database of one data dir."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / DB_FILE
        self._local = threading.local()
        self._write_lock = threading.Lock()
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
            _keep_private(self.path)
            conn = _connect(self.path)
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise DataDirError(f"cannot use WAL journaling in {self.data_dir}")
            migrate(conn)
        except (OSError, sqlite3.Error) as exc:
            raise DataDirError(f"cannot use the data dir {self.data_dir}: {_reason(exc)}") from None
        self._local.conn = conn

    def _conn(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = _connect(self.path)
        return conn

    @contextmanager
    def read(self) -> Iterator[sqlite3.Connection]:
        """A read transaction: one consistent snapshot for the whole request."""
        conn = self._conn()
        conn.execute("BEGIN")
        try:
            yield conn
        finally:
            conn.execute("COMMIT")

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction, committed when the block ends, rolled back if it raises."""
        conn = self._conn()
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        """Closes this thread's connection (other threads' close when they end)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__
