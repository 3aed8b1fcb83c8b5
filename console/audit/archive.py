"""A profile's log archive: every audit entry the console has read, kept past the service's
retention, in one SQLite file.

Where: `data_dir()/log-archive/<profile>.sqlite3` (the name made file-safe), the folder 0700
and the file 0600, never reached through a symbolic link (console.files.private_file). What:
the log fields only (id, tenant, actor, entity, operation, message, time), keyed by
`Log.identity`, so an entry read twice is kept once; never a key (the client's key never
passes here) nor anything else of the connection. WAL, so the console may read while a cron
`logs --archive` writes, and indexes by time, entity and actor, so a query on a million
entries answers in milliseconds.

**Sync** (`sync`): reads `GET /logs` from where the last complete sync reached (the newest
entry it saw, less SYNC_OVERLAP: an entry committed late with an earlier time is still
caught, and those read twice drop), up to now and beyond (the last window has no end). The
period is split into time windows (at most SYNC_WINDOWS, none shorter than MIN_WINDOW) walked
concurrently, SYNC_IN_FLIGHT at a time, each by cursor, pages of the largest size; every
request waits on the client's RequestBudget. A day of 10,000 entries is about 120 requests in
some 20 round trips. Where a sync stopped (an error, escape), nothing of the checkpoint moves:
the next sync reads that period again. When the last complete sync is older than the service's
retention, the entries in between are gone from the service: that period is recorded as a
gap (`reach().gaps`), and `tenant-console status` warns of it.

**Prune** (`prune`): entries older than the profile's `archive_retention_days` (preferences,
default 400) are deleted after each sync that is given `keep_days`.

Times are stored as fixed-width UTC text (microseconds, `+00:00`), so text order is time
order. Safe to call from any thread (one connection, a lock).
"""

from __future__ import annotations

import asyncio
import logging
import math
import os
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console.models.logs import LOG_FIELDS, LOG_RETENTION_SECONDS, Log

if TYPE_CHECKING:
    from console.client import AdminClient

log = logging.getLogger("console.audit")

ARCHIVE_DIR_NAME = "log-archive"
SCHEMA_VERSION = 1
DEFAULT_KEEP_DAYS = 400
"""How long the archive keeps an entry unless the preferences say otherwise: over a year, so
an annual review sees the whole year and its start."""

SYNC_WINDOWS = 24
"""At most this many time windows a sync splits its period into (a day: hours)."""
MIN_WINDOW = timedelta(minutes=10)
"""No window shorter: a sync minutes after the last sends one request, not dozens."""
SYNC_IN_FLIGHT = 6
"""Windows read at once: a day of 10,000 entries (about 120 pages) in some 20 round trips,
well inside the service's 200 requests a minute (the budget bounds it anyway)."""
SPLIT_ABOVE = 8
"""A window whose first page says more than this many pages follow is split: entries come
in bursts (an import, a migration), and one window read page by page would make the sync
as slow as its busiest hour."""
MAX_SPLITS = 2
"""How many times a window's rest may be split again."""
SYNC_OVERLAP = timedelta(seconds=60)
"""A sync starts this much before the newest entry the last one saw: an entry committed a
little after another with an earlier time is still read (duplicates drop)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    seq INTEGER PRIMARY KEY,
    identity TEXT NOT NULL UNIQUE,
    id TEXT,
    tenant_id TEXT,
    actor_id TEXT,
    actor_type TEXT,
    entity_type TEXT,
    entity_id TEXT,
    operation TEXT,
    message TEXT,
    created_at TEXT
);
CREATE INDEX IF NOT EXISTS entries_time ON entries (created_at);
CREATE INDEX IF NOT EXISTS entries_entity_type ON entries (entity_type, created_at);
CREATE INDEX IF NOT EXISTS entries_entity_id ON entries (entity_id, created_at);
CREATE INDEX IF NOT EXISTS entries_actor ON entries (actor_id, created_at);
CREATE TABLE IF NOT EXISTS gaps (
    start TEXT NOT NULL,
    end TEXT NOT NULL,
    found_at TEXT NOT NULL,
    PRIMARY KEY (start, end)
);
"""

_FIELDS = LOG_FIELDS


def stamp(moment: datetime) -> str:
    """A time as stored: UTC ISO 8601 with microseconds, so text order is time order."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def file_safe(profile: str) -> str:
    """A profile's name as a file name: any character outside [A-Za-z0-9._-] becomes `_`."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", profile).lstrip(".") or "_"


def archive_dir() -> Path:
    from console.data_dir import data_dir

    return data_dir() / ARCHIVE_DIR_NAME


def archive_path(profile: str) -> Path:
    """Where `profile`'s archive lives (it may not exist yet)."""
    return archive_dir() / f"{file_safe(profile)}.sqlite3"


def configured_keep_days() -> int:
    """The preferences' `archive_retention_days` (console.profiles.preferences)."""
    from console.profiles.preferences import load_preferences

    return load_preferences().archive_retention_days


@dataclass(frozen=True)
class ArchiveReach:
    """How far the archive reaches: its oldest and newest entries, how many, when it was last
    synced completely, and the periods it misses (each `(from, to)`)."""

    oldest: datetime | None
    newest: datetime | None
    count: int
    last_synced: datetime | None
    gaps: list[tuple[datetime, datetime]] = field(default_factory=list)
    opened_at_last_sync: tuple[datetime, datetime] | None = None
    """The gap the last complete sync found, if it found one: what `status` warns of."""


@dataclass(frozen=True)
class SyncResult:
    """What one sync did: entries `new` to the archive of `read`, the archive's `total`
    after it, the gap it found (None: none opened), entries `pruned`, `requests` sent."""

    new: int
    read: int
    total: int
    gap: tuple[datetime, datetime] | None = None
    pruned: int = 0
    requests: int = 0

    @property
    def gap_opened(self) -> bool:
        return self.gap is not None


@dataclass(frozen=True)
class Window:
    """One period a sync reads: `start` inclusive (None: no lower bound), `end` exclusive
    (None: up to whatever the service has)."""

    start: datetime | None
    end: datetime | None


def plan_windows(
    lower: datetime | None,
    now: datetime,
    horizon: datetime,
    *,
    most: int = SYNC_WINDOWS,
    shortest: timedelta = MIN_WINDOW,
) -> list[Window]:
    """The windows a sync reads, oldest first, covering [lower, ∞) without overlap.

    Only the part the service still answers (after `horizon`, now less its retention) is
    split; the first window starts at `lower` and the last has no end, so nothing between
    is missed whatever the clocks say. Inner bounds are whole seconds."""
    begin = max(lower, horizon) if lower is not None else horizon
    span = now - begin
    count = 1 if span <= shortest else min(most, math.ceil(span / shortest))
    if count <= 1:
        return [Window(lower, None)]
    step = span / count
    bounds: list[datetime] = []
    for n in range(1, count):
        bound = (begin + step * n).replace(microsecond=0)
        if (lower is None or bound > lower) and (not bounds or bound > bounds[-1]):
            bounds.append(bound)
    starts = [lower, *bounds]
    ends: list[datetime | None] = [*bounds, None]
    return [Window(s, e) for s, e in zip(starts, ends, strict=True)]


def split_rest(
    window: Window, times: list[datetime], *, horizon: datetime, now: datetime, parts: int
) -> list[Window]:
    """The rest of `window` after its first (full) page, as `parts` windows, when the page
    says that rest holds more than SPLIT_ABOVE pages (as dense as the page's own span); []
    to read it on by cursor. The last part ends just after the page's oldest entry, so
    entries of that same instant are read again (and drop as duplicates), never missed.
    `times`: the first page's entries' times."""
    if len(times) < 2 or parts < 2:
        return []
    oldest, newest = min(times), max(times)
    begin = window.start if window.start is not None else horizon
    end = window.end if window.end is not None else max(now, newest)
    covered, rest = end - oldest, oldest - begin
    if rest <= timedelta(seconds=parts) or covered <= timedelta(0):
        return []
    if rest / covered <= SPLIT_ABOVE:
        return []
    step = rest / parts
    bounds = [begin + step * n for n in range(1, parts)]
    starts: list[datetime | None] = [window.start, *bounds]
    ends: list[datetime | None] = [*bounds, oldest + timedelta(microseconds=1)]
    return [Window(a, b) for a, b in zip(starts, ends, strict=True)]


class LogArchive:
    """One profile's archive file; see the module's docstring."""

    def __init__(self, path: Path, *, clock: Callable[[], datetime] | None = None) -> None:
        from console.clock import now

        self.path = path
        self._clock = clock or now
        self._lock = threading.Lock()
        self._conn = self._connect(path)

    @classmethod
    def open(
        cls,
        profile: str,
        *,
        path: Path | None = None,
        clock: Callable[[], datetime] | None = None,
    ) -> LogArchive:
        """`profile`'s archive (made if missing); `path` puts it elsewhere (tests, a copy).
        UnsafeFileError (an OSError) for a file that is not safely the console's own;
        sqlite3.DatabaseError for a file that is not an archive (never replaced: it may be
        the only copy of a year's logs)."""
        return cls(path or archive_path(profile), clock=clock)

    @staticmethod
    def exists(profile: str) -> bool:
        return archive_path(profile).is_file()

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        from console.files import private_file, still_same_file

        made = not path.parent.exists()
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if made or path.parent == archive_dir():  # a folder given (`path=`) is left as it is
            os.chmod(path.parent, 0o700)  # mkdir's mode is filtered by the umask
        status = private_file(path, "log archive")
        assert status is not None
        conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        try:
            still_same_file(path, "log archive", status)
            conn.execute("PRAGMA journal_mode=WAL")  # its -wal and -shm take the file's mode
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA busy_timeout=5000")
            conn.executescript(_SCHEMA)
            found = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if found is None:
                conn.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(found[0]) > SCHEMA_VERSION:
                raise sqlite3.DatabaseError(
                    f"{path} was written by a newer release (archive version {found[0]})"
                )
        except BaseException:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> LogArchive:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    # ---- entries -----------------------------------------------------------------------

    def store(self, entries: Iterable[Log]) -> int:
        """Keeps the entries; returns how many were new (one already kept, by its identity,
        is left as it is)."""
        return self._store_rows([_row(entry) for entry in entries])

    def _store_rows(self, rows: list[tuple[Any, ...]]) -> int:
        if not rows:
            return 0
        with self._transaction() as conn:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO entries (identity, id, tenant_id, actor_id, actor_type,"
                " entity_type, entity_id, operation, message, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            return conn.total_changes - before

    def query(
        self,
        *,
        entity_type: str | None = None,
        entity_id: str | None = None,
        actor_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
    ) -> list[Log]:
        """The entries that match, newest first: `since` inclusive, `until` exclusive (as the
        service's start_date and end_date), at most `limit`."""
        where: list[str] = ["1"]
        params: list[Any] = []
        for column, value in (
            ("entity_type", entity_type),
            ("entity_id", entity_id),
            ("actor_id", actor_id),
        ):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if since is not None:
            where.append("created_at >= ?")
            params.append(stamp(since))
        if until is not None:
            where.append("created_at < ?")
            params.append(stamp(until))
        sql = (
            f"SELECT {', '.join(_FIELDS)} FROM entries WHERE {' AND '.join(where)}"
            " ORDER BY created_at DESC, seq DESC"
        )
        if limit is not None:
            sql += " LIMIT ?"
            params.append(max(0, limit))
        with self._lock:
            rows = self._conn.execute(sql, params).fetchall()
        return [_entry(row) for row in rows]

    def last_activity(self, actor_ids: Iterable[str]) -> dict[str, datetime]:
        """Each actor's newest entry's time (those the archive has none of are left out).
        One indexed seek an actor (SQLite's max() optimisation; a GROUP BY would scan every
        entry of each)."""
        found: dict[str, datetime] = {}
        with self._lock:
            for actor in dict.fromkeys(actor_ids):
                (newest,) = self._conn.execute(
                    "SELECT max(created_at) FROM entries WHERE actor_id = ?", (actor,)
                ).fetchone()
                if newest:
                    found[actor] = datetime.fromisoformat(newest)
        return found

    def reach(self) -> ArchiveReach:
        with self._lock:
            # Three statements: min() and max() alone are one index seek each; together
            # with count() they would scan the table.
            (oldest,) = self._conn.execute("SELECT min(created_at) FROM entries").fetchone()
            (newest,) = self._conn.execute("SELECT max(created_at) FROM entries").fetchone()
            (count,) = self._conn.execute("SELECT count(*) FROM entries").fetchone()
            gaps = self._conn.execute("SELECT start, end FROM gaps ORDER BY start").fetchall()
            last_synced = self._meta("last_synced")
            opened = self._conn.execute(
                "SELECT start, end FROM gaps WHERE found_at = ?", (last_synced or "",)
            ).fetchone()
        return ArchiveReach(
            oldest=_time(oldest),
            newest=_time(newest),
            count=count,
            last_synced=_time(last_synced),
            gaps=[(datetime.fromisoformat(s), datetime.fromisoformat(e)) for s, e in gaps],
            opened_at_last_sync=(
                (datetime.fromisoformat(opened[0]), datetime.fromisoformat(opened[1]))
                if opened
                else None
            ),
        )

    def size_bytes(self) -> int:
        """The file's size on disk, with its write-ahead log."""
        total = 0
        for suffix in ("", "-wal", "-shm"):
            try:
                total += os.stat(f"{self.path}{suffix}").st_size
            except FileNotFoundError:
                continue
        return total

    def prune(self, retention_days: int = DEFAULT_KEEP_DAYS) -> int:
        """Deletes the entries (and the gaps) older than `retention_days`; how many entries."""
        if retention_days < 1:
            raise ValueError(f"An archive keeps entries at least a day, not {retention_days}.")
        cutoff = stamp(self._clock() - timedelta(days=retention_days))
        with self._transaction() as conn:
            deleted = conn.execute("DELETE FROM entries WHERE created_at < ?", (cutoff,)).rowcount
            conn.execute("DELETE FROM gaps WHERE end < ?", (cutoff,))
        return deleted

    # ---- meta --------------------------------------------------------------------------

    def _meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @property
    def synced_through(self) -> datetime | None:
        """The newest entry the last complete sync saw: where the next one starts."""
        with self._lock:
            return _time(self._meta("synced_through"))

    @property
    def last_synced(self) -> datetime | None:
        """When (the console's clock) the last complete sync started."""
        with self._lock:
            return _time(self._meta("last_synced"))

    # ---- sync --------------------------------------------------------------------------

    async def sync(
        self,
        client: AdminClient,
        *,
        retention_seconds: float = LOG_RETENTION_SECONDS,
        keep_days: int | None = None,
        in_flight: int = SYNC_IN_FLIGHT,
    ) -> SyncResult:
        """Reads what the service has that the archive may not, and keeps it; see the
        module's docstring. `retention_seconds`: how long the service keeps logs (a gap is
        recorded when the last sync is older); `keep_days`: prune afterwards. An ApiError
        stops it (what was read so far is kept; the next sync reads that period again)."""
        started = self._clock()
        through, last_synced = self.synced_through, self.last_synced
        horizon = started - timedelta(seconds=retention_seconds)
        gap = (last_synced, horizon) if last_synced is not None and last_synced < horizon else None
        lower = None
        if through is not None:
            lower = (through - SYNC_OVERLAP).replace(microsecond=0)
        windows = plan_windows(lower, started, horizon)
        gate = asyncio.Semaphore(max(1, in_flight))
        counts = {"new": 0, "read": 0, "requests": 0}
        newest: list[datetime] = []

        def keep(rows: list[tuple[Any, ...]]) -> None:
            counts["read"] += len(rows)
            counts["new"] += self._store_rows(rows)
            times = [row[-1] for row in rows if row[-1] is not None]
            if times:
                newest.append(datetime.fromisoformat(max(times)))

        async def read(window: Window, depth: int) -> None:
            """One window by cursor; a window found much fuller than the others after its
            first page is split (the rest of it read as SYNC_IN_FLIGHT windows at once)."""
            from console.client.logs import LOG_PAGE_SIZE

            cursor, rows = "", []
            while True:
                async with gate:
                    counts["requests"] += 1
                    envelope = await client.logs.page(
                        start_date=window.start,
                        end_date=window.end,
                        size=LOG_PAGE_SIZE,
                        start=cursor,
                    )
                page = [row for row in map(_row_as_sent, envelope["data"]) if row is not None]
                rows += page
                after = (envelope.get("pagination") or {}).get("after")
                if not envelope["data"] or not isinstance(after, str) or after in ("", cursor):
                    break
                parts = []
                if cursor == "" and depth < MAX_SPLITS:
                    times = [datetime.fromisoformat(r[-1]) for r in page if r[-1] is not None]
                    parts = split_rest(window, times, horizon=horizon, now=started, parts=in_flight)
                if parts:
                    keep(rows)
                    async with asyncio.TaskGroup() as group:
                        for part in parts:
                            group.create_task(read(part, depth + 1))
                    return
                cursor = after
            keep(rows)

        try:
            async with asyncio.TaskGroup() as group:
                for window in windows:
                    group.create_task(read(window, 0))
        except BaseExceptionGroup as failed:  # the first failure, as a single call raises it
            raise _first(failed) from None

        if through is not None:
            newest.append(through)
        reached: datetime | None = max(newest) if newest else None
        with self._transaction() as conn:
            if reached is not None:
                _set_meta(conn, "synced_through", stamp(reached))
            _set_meta(conn, "last_synced", stamp(started))
            if gap is not None:
                conn.execute(
                    "INSERT OR IGNORE INTO gaps (start, end, found_at) VALUES (?, ?, ?)",
                    (stamp(gap[0]), stamp(gap[1]), stamp(started)),
                )
        if gap is not None:
            log.warning("The log archive %s misses %s to %s", self.path, gap[0], gap[1])
        pruned = self.prune(keep_days) if keep_days is not None else 0
        with self._lock:
            total = self._conn.execute("SELECT count(*) FROM entries").fetchone()[0]
        return SyncResult(
            new=counts["new"],
            read=counts["read"],
            total=total,
            gap=gap,
            pruned=pruned,
            requests=counts["requests"],
        )


def _row_as_sent(item: Any) -> tuple[Any, ...] | None:
    """An entry as the service sent it, as a row: straight from the dict when it is plainly
    one (an id, text fields, an ISO 8601 time), else read as a Log (None, logged, if it
    cannot be). The straight way costs a tenth of a model's validation: a sync reads tens of
    thousands."""
    if isinstance(item, dict):
        values = [item.get(name) for name in _FIELDS]
        entry_id, at = values[0], values[-1]
        plain = all(value is None or isinstance(value, str) for value in values)
        if plain and entry_id and isinstance(at, str):
            try:
                moment = datetime.fromisoformat(at)
            except ValueError:
                moment = None
            if moment is not None:
                return (f"id:{entry_id}", *values[:-1], stamp(moment))
    from pydantic import ValidationError

    try:
        return _row(Log.model_validate(item))
    except ValidationError:
        log.warning("Skipped a log entry the console cannot read (not archived)")
        return None


def _first(group: BaseExceptionGroup[Any]) -> BaseException:
    """The first exception of a task group's failure (split windows nest groups)."""
    first = group.exceptions[0]
    return _first(first) if isinstance(first, BaseExceptionGroup) else first


def _set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))


def _row(entry: Log) -> tuple[Any, ...]:
    return (
        entry.identity,
        entry.id,
        entry.tenant_id,
        entry.actor_id,
        entry.actor_type,
        entry.entity_type,
        entry.entity_id,
        entry.operation,
        entry.message,
        stamp(entry.created_at) if entry.created_at else None,
    )


def _entry(row: tuple[Any, ...]) -> Log:
    """A stored row as a Log (pydantic's validator is faster than model_construct here)."""
    return Log.model_validate(dict(zip(_FIELDS, row, strict=True)))
