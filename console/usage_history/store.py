"""The usage history file: one row per usage report read, per tenant (base URL + tenant id).

A SQLite file in the user data directory (`usage-history.sqlite3`), mode 0600 in a 0700
folder. It holds figures only: the time, monthly active tokens, the plan's included figure,
the total and the count per token type, which reader read it, and whether it is demo data.
Never a key: the base URL is stored without user info, query or fragment.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HISTORY_FILE = "usage-history.sqlite3"
SAME_READ_WINDOW = timedelta(seconds=60)
"""A report with the same figures as the tenant's last one, read within this long of it
(the header and the dashboard reading at once), adds nothing and is not stored again."""

READERS = ("dashboard", "header", "status", "overview", "cli", "demo")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY,
    base_url TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    at TEXT NOT NULL,
    monthly_active_tokens INTEGER,
    included_monthly_active_tokens INTEGER,
    total_tokens INTEGER,
    by_type TEXT,
    reader TEXT NOT NULL,
    demo INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS snapshots_tenant ON snapshots (base_url, tenant_id, at);
"""

log = logging.getLogger(__name__)


class HistoryError(RuntimeError):
    """The history file cannot be used; the message is one line for a person."""


@dataclass(frozen=True)
class Snapshot:
    """One usage report as it was read."""

    at: datetime
    monthly_active: int | None
    included: int | None
    total: int | None = None
    by_type: dict[str, int] | None = field(default=None, compare=False)
    reader: str = "cli"
    demo: bool = False

    def same_figures(self, other: Snapshot) -> bool:
        return (self.monthly_active, self.included, self.total, self.by_type) == (
            other.monthly_active,
            other.included,
            other.total,
            other.by_type,
        )

    def to_json(self) -> dict[str, object]:
        return {
            "at": self.at.astimezone(UTC).isoformat().replace("+00:00", "Z"),
            "monthly_active_tokens": self.monthly_active,
            "included_monthly_active_tokens": self.included,
            "total_tokens": self.total,
            "by_type": self.by_type,
            "reader": self.reader,
            "demo": self.demo,
        }


def tenant_url(base_url: str) -> str:
    """The base URL as the history keys it: no user info, query or fragment (a key pasted
    into a URL must not reach the file), lower-case scheme and host, no trailing slash."""
    parts = urlsplit(base_url.strip())
    host = (parts.hostname or "").lower()
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"{host}:{port}" if port is not None else host
    return urlunsplit((parts.scheme.lower(), netloc, parts.path.rstrip("/"), "", ""))


def default_path() -> Path:
    from console.data_dir import data_dir

    return data_dir() / HISTORY_FILE


def _utc_text(moment: datetime) -> str:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class HistoryStore:
    """The history file at `path` (default: the user data directory's). Each call opens and
    closes its own connection: the console's threads and a cron job may share the file."""

    def __init__(self, path: Path | None = None, *, demo: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.demo = demo
        """The demo's own history: everything recorded in it is marked as demo data."""

    def __repr__(self) -> str:
        return f"HistoryStore({str(self.path)!r})"

    @contextmanager
    def _connect(self, *, create: bool) -> Iterator[sqlite3.Connection]:
        from console.files import UnsafeFileError, still_same_file

        status = self._private_file(create=create)
        if status is None:
            raise FileNotFoundError(self.path)
        try:
            conn = sqlite3.connect(self.path, timeout=5.0)
        except sqlite3.Error as error:
            raise HistoryError(f"Cannot open the usage history {self.path}: {error}.") from None
        with closing(conn):
            conn.row_factory = sqlite3.Row
            try:
                conn.executescript(_SCHEMA)
                still_same_file(self.path, "usage history", status)
                with conn:
                    yield conn
            except UnsafeFileError as refused:
                raise HistoryError(str(refused)) from None
            except sqlite3.DatabaseError as error:
                raise HistoryError(f"Cannot use the usage history {self.path}: {error}.") from None

    def _private_file(self, *, create: bool) -> os.stat_result | None:
        """The folder 0700 and the file 0600, before SQLite creates either (its journal
        files take the database file's mode); never through a symbolic link, nor another
        user's file or one others can write (HistoryError). None: no file, and `create`
        was not asked."""
        from console.files import UnsafeFileError, private_file

        if create:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            return private_file(self.path, "usage history", create=create)
        except UnsafeFileError as refused:
            raise HistoryError(str(refused)) from None
        except FileNotFoundError:  # the folder is missing
            if create:
                raise HistoryError(f"Cannot create the usage history {self.path}.") from None
            return None
        except OSError as error:
            reason = error.strerror or error
            raise HistoryError(f"Cannot create the usage history {self.path}: {reason}.") from None

    def record(self, base_url: str, tenant_id: str, snapshot: Snapshot) -> bool:
        """Keeps the snapshot; False when it repeats the tenant's last one (SAME_READ_WINDOW)."""
        url = tenant_url(base_url)
        if self.demo and not snapshot.demo:
            snapshot = replace(snapshot, demo=True)
        with self._connect(create=True) as conn:
            last = conn.execute(
                "SELECT * FROM snapshots WHERE base_url = ? AND tenant_id = ?"
                " ORDER BY at DESC, id DESC LIMIT 1",
                (url, tenant_id),
            ).fetchone()
            if last is not None:
                previous = _snapshot(last)
                if (
                    previous.same_figures(snapshot)
                    and abs(snapshot.at - previous.at) < SAME_READ_WINDOW
                    and previous.demo == snapshot.demo
                ):
                    return False
            _insert(conn, url, tenant_id, snapshot)
        return True

    def record_many(self, base_url: str, tenant_id: str, snapshots: list[Snapshot]) -> None:
        """Keeps every snapshot as it is (the demo's month of history)."""
        url = tenant_url(base_url)
        with self._connect(create=True) as conn:
            for snapshot in snapshots:
                _insert(conn, url, tenant_id, snapshot)

    def snapshots(
        self, base_url: str, tenant_id: str, *, since: datetime | None = None
    ) -> list[Snapshot]:
        """The tenant's snapshots, oldest first ([] when nothing was recorded yet)."""
        try:
            with self._connect(create=False) as conn:
                query = "SELECT * FROM snapshots WHERE base_url = ? AND tenant_id = ?"
                args: list[object] = [tenant_url(base_url), tenant_id]
                if since is not None:
                    query += " AND at >= ?"
                    args.append(_utc_text(since))
                rows = conn.execute(query + " ORDER BY at, id", args).fetchall()
        except FileNotFoundError:
            return []
        return [_snapshot(row) for row in rows]

    def tenants(self, base_url: str) -> list[str]:
        """The tenant ids recorded for this base URL, the most recently read first."""
        try:
            with self._connect(create=False) as conn:
                rows = conn.execute(
                    "SELECT tenant_id, MAX(at) AS last FROM snapshots WHERE base_url = ?"
                    " GROUP BY tenant_id ORDER BY last DESC",
                    (tenant_url(base_url),),
                ).fetchall()
        except FileNotFoundError:
            return []
        return [row["tenant_id"] for row in rows]


def _insert(conn: sqlite3.Connection, url: str, tenant_id: str, snapshot: Snapshot) -> None:
    conn.execute(
        "INSERT INTO snapshots (base_url, tenant_id, at, monthly_active_tokens,"
        " included_monthly_active_tokens, total_tokens, by_type, reader, demo)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            url,
            tenant_id,
            _utc_text(snapshot.at),
            snapshot.monthly_active,
            snapshot.included,
            snapshot.total,
            json.dumps(snapshot.by_type, sort_keys=True) if snapshot.by_type is not None else None,
            snapshot.reader,
            int(snapshot.demo),
        ),
    )


def _int(value: object) -> int | None:
    return value if type(value) is int else None


def _snapshot(row: sqlite3.Row) -> Snapshot:
    by_type: dict[str, int] | None = None
    if row["by_type"]:
        try:
            loaded = json.loads(row["by_type"])
        except ValueError:
            log.warning("A usage snapshot's counts by type could not be read; left out")
            loaded = None
        if isinstance(loaded, dict):
            by_type = {str(k): v for k, v in loaded.items() if type(v) is int}
    at = datetime.fromisoformat(row["at"])
    return Snapshot(
        at=at if at.tzinfo else at.replace(tzinfo=UTC),
        monthly_active=_int(row["monthly_active_tokens"]),
        included=_int(row["included_monthly_active_tokens"]),
        total=_int(row["total_tokens"]),
        by_type=by_type,
        reader=str(row["reader"]),
        demo=bool(row["demo"]),
    )
