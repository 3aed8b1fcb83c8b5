"""The journal's SQLite file: one row per change, written before the change is sent.

`journal.sqlite3` in the user data directory ($TENANT_CONSOLE_DATA_DIR moves it), mode 0600,
never opened through a symbolic link (console.files.private_file). Rows older than
$TENANT_CONSOLE_JOURNAL_DAYS days (90) go when the journal is opened, then, while the file is
over $TENANT_CONSOLE_JOURNAL_MB megabytes (50), just enough of the oldest rows to put it under,
never a row of the last day. A row that cannot be read (it was not written by the console) is
listed as unreadable, never loaded whole when it is over ROW_BYTES_MAX.
"""

from __future__ import annotations

import builtins
import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from console.client.recording import PendingChange, RecordRefused
from console.journal.redact import without_keys
from console.journal.rotations import LEGACY_FILE, Rotation, from_row, read_legacy_file, to_row
from console.journal.rotations import SCHEMA as ROTATIONS_SCHEMA
from console.journal.sealed import (
    Concealer,
    Sealer,
    concealed_texts,
    load_sealer,
    masked,
    restorable,
)

log = logging.getLogger(__name__)

JOURNAL_FILE = "journal.sqlite3"
DAYS_ENV = "TENANT_CONSOLE_JOURNAL_DAYS"
MEGABYTES_ENV = "TENANT_CONSOLE_JOURNAL_MB"
DEFAULT_DAYS = 90
DEFAULT_MEGABYTES = 50

CONCEALED_VERSION = 1
"""PRAGMA user_version from which no row holds a configuration value in clear."""

PENDING, OK, FAILED, UNKNOWN = "pending", "ok", "failed", "unknown"
"""Outcomes: not answered yet (or the console stopped), done, refused, no answer came."""
OUTCOMES = frozenset({PENDING, OK, FAILED, UNKNOWN})
UNREADABLE = "unreadable"
"""What History shows as the outcome of a row it could not read."""

ROW_BYTES_MAX = 16_000_000
"""The most a row may hold (its text columns together): a change's bodies before, asked and
after are each at most a request body (4 MiB on the local service). A longer row is not
written, and one found in the file is listed as unreadable without being read."""
KEEP_RECENT = timedelta(days=1)
"""Rows this recent are never dropped to bring the file under its size."""
UNREADABLE_TIME = datetime.fromtimestamp(0, UTC)
"""The time of a row whose `started_at` cannot be read."""

_TEXT_COLUMNS = (
    "started_at",
    "completed_at",
    "profile",
    "base_url",
    "tenant",
    "kind",
    "object_id",
    "name",
    "action",
    "origin",
    "method",
    "path",
    "before",
    "after",
    "request",
    "related",
    "outcome",
    "error",
)
_COLUMNS = ("id", *_TEXT_COLUMNS[:10], "undoes", *_TEXT_COLUMNS[10:])
_ROW_SIZE = " + ".join(f"coalesce(length(CAST({c} AS BLOB)), 0)" for c in _TEXT_COLUMNS)
"""SQL: the bytes a row holds, counted without handing them to Python."""


class JournalError(RecordRefused):
    """The journal cannot be used (its file is not safely the console's own, or is not a
    journal) or cannot keep a change; str() is a sentence for a person, naming the file."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started_at TEXT NOT NULL,
    completed_at TEXT,
    profile TEXT,
    base_url TEXT NOT NULL,
    tenant TEXT,
    kind TEXT NOT NULL,
    object_id TEXT,
    name TEXT,
    action TEXT NOT NULL,
    origin TEXT NOT NULL,
    undoes INTEGER,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    before TEXT,
    after TEXT,
    request TEXT,
    related TEXT,
    outcome TEXT NOT NULL,
    error TEXT
);
CREATE INDEX IF NOT EXISTS changes_by_profile ON changes (profile, id);
"""


@dataclass
class Change:
    """One recorded change, as History shows it and undo reads it."""

    id: int
    started_at: datetime
    completed_at: datetime | None
    profile: str | None
    base_url: str
    tenant: str | None
    kind: str
    object_id: str | None
    name: str | None
    action: str
    origin: str
    undoes: int | None
    method: str
    path: str
    before: dict[str, Any] | None
    after: Any
    request: dict[str, Any] | None
    related: dict[str, Any] = field(default_factory=dict)
    outcome: str = PENDING
    error: str | None = None
    unreadable: str | None = None
    """Why the row could not be read (bad JSON, a wrong type, a bad time, too big): such a
    change is listed as unreadable, with only its id (and its profile where readable)."""

    @property
    def result_id(self) -> str | None:
        """The id of the object the change left: a created object's new id."""
        if isinstance(self.after, dict) and self.after.get("id") is not None:
            return str(self.after["id"])
        return self.object_id

    def to_json(self) -> dict[str, Any]:
        if self.unreadable is not None:
            return {
                "id": self.id,
                "profile": self.profile,
                "outcome": UNREADABLE,
                "unreadable": self.unreadable,
            }
        return {
            "id": self.id,
            "started_at": self.started_at.isoformat(),
            "completed_at": self.completed_at.isoformat() if self.completed_at else None,
            "profile": self.profile,
            "base_url": self.base_url,
            "tenant": self.tenant,
            "kind": self.kind,
            "object_id": self.object_id,
            "name": self.name,
            "action": self.action,
            "origin": self.origin,
            "undoes": self.undoes,
            "outcome": self.outcome,
            "error": self.error,
            # Configuration values as *** (console.journal.sealed), and whether undo can
            # restore them (null: the change holds none).
            "before": masked(self.before),
            "after": masked(self.after),
            "related": self.related,
            "configuration_restorable": restorable((self.before, self.after)),
        }


def journal_path() -> Path:
    from console.data_dir import data_dir

    return data_dir() / JOURNAL_FILE


def _setting(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        log.warning("Ignoring %s=%r: not a whole number", name, raw)
        return default
    return max(value, 1)


def _now() -> datetime:
    return datetime.now(UTC)


def _dumps(value: Any, secrets: tuple[str, ...]) -> str | None:
    if value is None:
        return None
    return json.dumps(without_keys(value, secrets), default=str)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class ChangeJournal:
    """The journal file: `record` before a change goes, `complete` when answered, `list` and
    `get` for History and undo. Safe to share between threads (one lock, short writes)."""

    def __init__(
        self,
        path: Path | None = None,
        *,
        max_days: int | None = None,
        max_bytes: int | None = None,
    ) -> None:
        self.path = path or journal_path()
        self.max_days = max_days or _setting(DAYS_ENV, DEFAULT_DAYS)
        self.max_bytes = max_bytes or _setting(MEGABYTES_ENV, DEFAULT_MEGABYTES) * 1_000_000
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._sealer_lock = threading.Lock()
        self._sealer: Sealer | None = None
        self._sealer_loaded = False
        self._concealers: dict[int, Concealer] = {}
        """Each change's concealer from `record` to `complete`: one marker per value."""

    # ---- the file ----------------------------------------------------------------------

    @property
    def row_limit(self) -> int:
        """The most one row may hold: ROW_BYTES_MAX, and a third of the file's size at most
        (a row the size cap cannot hold is never written)."""
        return min(ROW_BYTES_MAX, max(self.max_bytes // 3, 1))

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        """The file, checked to be the console's own (JournalError if not), rotated."""
        from console.files import UnsafeFileError, private_file, still_same_file
        from console.profiles.config import _ensure_private_dir

        _ensure_private_dir(self.path.parent)
        try:
            # Created 0600 before SQLite opens it, never through a link.
            status = private_file(self.path, "journal")
            assert status is not None
            db = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
        except UnsafeFileError as problem:
            raise JournalError(str(problem)) from None
        except (OSError, sqlite3.Error) as problem:
            raise JournalError(f"Cannot open the journal {self.path}: {problem}.") from None
        try:
            db.text_factory = _text
            db.execute("PRAGMA secure_delete = ON")  # what is replaced or dropped is zeroed
            db.executescript(_SCHEMA)
            db.executescript(ROTATIONS_SCHEMA)
            still_same_file(self.path, "journal", status)
            self._rotate(db)
            self._conceal_old_rows(db)
            self._adopt_rotations_file(db)
        except UnsafeFileError as problem:
            db.close()
            raise JournalError(str(problem)) from None
        except sqlite3.DatabaseError as problem:
            db.close()
            raise JournalError(
                f"The journal {self.path} cannot be used ({problem}): nothing was changed in it. "
                "Move it away to start a new one."
            ) from None
        return db

    def _rotate(self, db: sqlite3.Connection) -> None:
        """Drops what is older than `max_days`; then, while the file is over `max_bytes`, just
        enough rows to bring it under (too big to read first, then the oldest), never one of
        the last day (KEEP_RECENT): a file whose last day alone is over stays over."""
        cutoff = (_now() - timedelta(days=self.max_days)).isoformat()
        with db:
            db.execute(  # a time that is not one (a row not written here) is not "old"
                "DELETE FROM changes WHERE typeof(started_at) = 'text' AND started_at < ? "
                "AND started_at GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'",
                (cutoff,),
            )
            db.execute(  # a rotation in progress stays, however old
                "DELETE FROM rotations WHERE finished_at < ? OR cancelled_at < ?",
                (cutoff, cutoff),
            )
        if self.path.stat().st_size <= self.max_bytes:
            return
        db.execute("VACUUM")  # the space rows already gone left behind
        recent = (_now() - KEEP_RECENT).isoformat()
        for _ in range(5):
            over = self.path.stat().st_size - self.max_bytes
            if over <= 0:
                return
            doomed = _oldest_rows_freeing(db, over, recent, self.row_limit)
            if not doomed:
                log.warning(
                    "The journal %s is over %d bytes with the changes of the last day alone; "
                    "they are kept",
                    self.path,
                    self.max_bytes,
                )
                return
            with db:
                db.executemany("DELETE FROM changes WHERE id = ?", [(i,) for i in doomed])
            db.execute("VACUUM")
            log.info("Dropped %d change(s) from the journal to keep it under its size", len(doomed))

    def _conceal_old_rows(self, db: sqlite3.Connection) -> None:
        """Configuration values an older console kept in clear are masked, once per file
        (PRAGMA user_version marks it done; console.journal.sealed)."""
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version >= CONCEALED_VERSION:
            return
        with db:
            rows = db.execute(  # a row too big to read is listed as unreadable, never read
                "SELECT id, before, after, request FROM changes WHERE (before LIKE :found OR "
                f"after LIKE :found OR request LIKE :found) AND ({_ROW_SIZE}) <= :row_max",
                {"found": '%"configuration"%', "row_max": ROW_BYTES_MAX},
            ).fetchall()
            for change_id, *texts in rows:
                new = concealed_texts(texts)
                if any(text is not None for text in new):
                    kept = [n if n is not None else t for n, t in zip(new, texts, strict=True)]
                    db.execute(
                        "UPDATE changes SET before = ?, after = ?, request = ? WHERE id = ?",
                        (*kept, change_id),
                    )
            db.execute(f"PRAGMA user_version = {CONCEALED_VERSION}")
        if rows:
            log.info("Masked the configuration values of %d older journal entries", len(rows))

    def _adopt_rotations_file(self, db: sqlite3.Connection) -> None:
        """Rotations kept in `key-rotations.json` (before the journal kept them) become rows,
        once: the file is removed after. One the journal already has is not added again."""
        legacy = self.path.parent / LEGACY_FILE
        found = read_legacy_file(legacy)
        if found is None:
            return
        with db:
            for rotation in found:
                if not _open_rotations(db, rotation.scope, rotation.application_id):
                    _insert_rotation(db, rotation, ())
        try:
            legacy.unlink()
        except OSError:
            log.warning("The old key rotations file %s could not be removed", legacy, exc_info=True)
        log.info("Moved %d key rotation(s) from %s into the journal", len(found), legacy)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    # ---- writing -----------------------------------------------------------------------

    def prepare(self) -> None:
        """Reads the journal key from the OS keyring, once (blocking: the client calls it in
        a thread before the first record, so the UI thread never waits on the keyring)."""
        with self._sealer_lock:  # not the file's lock: reading the file never waits on it
            if not self._sealer_loaded:
                self._sealer = load_sealer()
                self._sealer_loaded = True

    def record(self, change: PendingChange) -> int:
        """Keeps `change` as pending (bodies without keys, configuration values concealed);
        its id."""
        self.prepare()
        concealer = Concealer(self._sealer)
        before, request, related = (
            concealer.conceal(body) for body in (change.before, change.request, change.related)
        )
        secrets = (*change.secrets, *concealer.values)
        row = (
            _now().isoformat(),
            change.profile,
            change.base_url,
            change.tenant,
            change.kind,
            change.object_id,
            change.name,
            change.action,
            change.origin,
            change.undoes,
            change.method,
            change.path,
            _dumps(before, secrets),
            _dumps(request, secrets),
            _dumps(related or {}, secrets),
            PENDING,
        )
        size = sum(len(v.encode("utf-8", "replace")) for v in row if isinstance(v, str))
        if size > self.row_limit:
            raise JournalError(
                f"This change is {size:,} bytes to record, over the journal's limit of "
                f"{self.row_limit:,} for one change"
            )
        with self._lock:
            db = self._connection()
            with db:
                cursor = db.execute(
                    "INSERT INTO changes (started_at, profile, base_url, tenant, kind, "
                    "object_id, name, action, origin, undoes, method, path, before, request, "
                    "related, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
            change_id = int(cursor.lastrowid or 0)
            self._concealers[change_id] = concealer
            return change_id

    def complete(
        self,
        change_id: int,
        *,
        outcome: str,
        after: Any = None,
        error: str | None = None,
        secrets: tuple[str, ...] = (),
    ) -> None:
        """Marks the change answered: `ok` with the object as returned, `failed` or `unknown`."""
        self.prepare()
        with self._lock:
            concealer = self._concealers.pop(change_id, None) or Concealer(self._sealer)
        after = concealer.conceal(after)
        secrets = (*secrets, *concealer.values)
        after_text = _dumps(after, secrets)
        error_text = without_keys(error, secrets) if error else None
        if after_text is not None and len(after_text.encode("utf-8", "replace")) > (
            self.row_limit // 3
        ):  # the change is made: its outcome is kept, the body it returned is not
            note = f"The answer ({len(after_text):,} characters) was too big to keep."
            after_text, error_text = None, f"{error_text} {note}" if error_text else note
        with self._lock:
            db = self._connection()
            with db:
                db.execute(
                    "UPDATE changes SET completed_at = ?, outcome = ?, after = ?, error = ? "
                    "WHERE id = ?",
                    (_now().isoformat(), outcome, after_text, error_text, change_id),
                )

    # ---- reading -----------------------------------------------------------------------

    def list(
        self, *, profile: str | None = None, base_url: str | None = None, limit: int = 100
    ) -> builtins.list[Change]:
        """Changes newest first: of one profile, or of one service, or all."""
        conditions: builtins.list[str] = []
        args: dict[str, Any] = {"limit": max(limit, 0)}
        for column, value in (("profile", profile), ("base_url", base_url)):
            if value is not None:
                conditions.append(f"{column} = :{column}")
                args[column] = value
        where = " WHERE " + " AND ".join(conditions) if conditions else ""
        with self._lock:
            rows = self._rows(where + " ORDER BY id DESC LIMIT :limit", args)
        return [_change(row) for row in rows]

    def get(self, change_id: int) -> Change | None:
        with self._lock:
            rows = self._rows(" WHERE id = :id", {"id": change_id})
        return _change(rows[0]) if rows else None

    def _rows(self, condition: str, args: dict[str, Any]) -> builtins.list[dict[str, Any]]:
        """The rows `condition` picks, newest first, as dicts with their size (`_size`); of
        a row over ROW_BYTES_MAX only the id and size (it is never handed to Python)."""
        shown = ", ".join(
            f"CASE WHEN picked._size > :row_max THEN NULL ELSE c.{column} END"
            for column in _COLUMNS[1:]
        )
        query = (
            f"WITH picked AS (SELECT id, ({_ROW_SIZE}) AS _size FROM changes{condition}) "
            f"SELECT picked._size, c.id, {shown} FROM picked JOIN changes AS c ON c.id = picked.id "
            "ORDER BY c.id DESC"
        )
        cursor = self._connection().execute(query, {**args, "row_max": ROW_BYTES_MAX})
        return [dict(zip(("_size", *_COLUMNS), row, strict=True)) for row in cursor.fetchall()]

    def pending(self, *, before: datetime, limit: int = 100) -> builtins.list[Change]:
        """Changes still pending that started before `before`, oldest first."""
        with self._lock:
            rows = self._rows(
                " WHERE outcome = :pending AND typeof(started_at) = 'text' "
                "AND started_at < :before ORDER BY id LIMIT :limit",
                {"pending": PENDING, "before": before.isoformat(), "limit": max(limit, 0)},
            )
        found = [_change(row) for row in reversed(rows)]
        return [change for change in found if change.unreadable is None]

    def settle(self, change_id: int, *, outcome: str, after: Any = None, note: str) -> bool:
        """A change left pending, decided later (console.journal.settle): `outcome` with
        the object as found and `note` saying how it was decided. False if it was no longer
        pending (another console answered it meanwhile). Its configuration values are
        concealed (sealed if the key is already read: this never waits on the keyring), with
        markers of their own: whether a value changed is not known."""
        concealer = Concealer(self._sealer if self._sealer_loaded else None, labels="settled-")
        after = concealer.conceal(after)
        after_text = _dumps(after, tuple(concealer.values))
        if after_text is not None and len(after_text) > self.row_limit // 3:
            after_text = None
        with self._lock:
            db = self._connection()
            with db:
                cursor = db.execute(
                    "UPDATE changes SET completed_at = ?, outcome = ?, after = ?, error = ? "
                    "WHERE id = ? AND outcome = ?",
                    (_now().isoformat(), outcome, after_text, note, change_id, PENDING),
                )
        return cursor.rowcount == 1

    def note_pending(self, change_id: int, note: str) -> None:
        """Why a change left pending could not be decided (History shows it)."""
        with self._lock:
            db = self._connection()
            with db:
                db.execute(
                    "UPDATE changes SET error = ? WHERE id = ? AND outcome = ?",
                    (note, change_id, PENDING),
                )

    # ---- key rotations -----------------------------------------------------------------

    def start_rotation(self, rotation: Rotation, *, secrets: tuple[str, ...] = ()) -> int:
        """Keeps `rotation` as in progress (ids, names and times; any of `secrets` masked) and
        sets its id. One still in progress for the same application is cancelled first."""
        with self._lock:
            db = self._connection()
            with db:
                for earlier in _open_rotations(db, rotation.scope, rotation.application_id):
                    db.execute(
                        "UPDATE rotations SET cancelled_at = ? WHERE id = ?",
                        (_now().isoformat(), earlier.id),
                    )
                rotation.id = _insert_rotation(db, rotation, secrets)
        return rotation.id

    def update_rotation(self, rotation: Rotation) -> None:
        """Keeps the rotation's stage and the old keys still to revoke."""
        if rotation.id is None:
            self.start_rotation(rotation)
            return
        with self._lock:
            db = self._connection()
            with db:
                db.execute(
                    "UPDATE rotations SET stage = ?, old_key_ids = ? WHERE id = ?",
                    (rotation.stage, json.dumps(list(rotation.old_key_ids)), rotation.id),
                )

    def finish_rotation(self, rotation_id: int) -> None:
        """The old keys are revoked: the rotation is no longer in progress."""
        self._end_rotation(rotation_id, "finished_at")

    def cancel_rotation(self, rotation_id: int) -> None:
        """Given up: every key stays valid, and the rotation is no longer in progress."""
        self._end_rotation(rotation_id, "cancelled_at")

    def _end_rotation(self, rotation_id: int, column: str) -> None:
        with self._lock:
            db = self._connection()
            with db:
                db.execute(
                    f"UPDATE rotations SET {column} = ? WHERE id = ? AND finished_at IS NULL "
                    "AND cancelled_at IS NULL",
                    (_now().isoformat(), rotation_id),
                )

    def rotations_in_progress(
        self, scope: str | None = None, application_id: str | None = None
    ) -> builtins.list[Rotation]:
        """Rotations neither finished nor cancelled, oldest first: all, of one scope (the
        profile, or the base URL without one), or of one application there."""
        with self._lock:
            db = self._connection()
            return _open_rotations(db, scope, application_id)

    def rotations(self, *, limit: int = 100) -> builtins.list[Rotation]:
        """Every rotation kept (ended ones until they age out), newest first."""
        with self._lock:
            db = self._connection()
            cursor = db.execute("SELECT * FROM rotations ORDER BY id DESC LIMIT ?", (limit,))
            return _rotation_rows(cursor)


def _insert_rotation(db: sqlite3.Connection, rotation: Rotation, secrets: tuple[str, ...]) -> int:
    row = without_keys(to_row(rotation), secrets)
    names = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    cursor = db.execute(f"INSERT INTO rotations ({names}) VALUES ({marks})", list(row.values()))
    return int(cursor.lastrowid or 0)


def _open_rotations(
    db: sqlite3.Connection, scope: str | None, application_id: str | None
) -> builtins.list[Rotation]:
    query = "SELECT * FROM rotations WHERE finished_at IS NULL AND cancelled_at IS NULL"
    args: builtins.list[Any] = []
    for column, value in (("scope", scope), ("application_id", application_id)):
        if value is not None:
            query += f" AND {column} = ?"
            args.append(str(value))
    return _rotation_rows(db.execute(query + " ORDER BY id", args))


def _rotation_rows(cursor: sqlite3.Cursor) -> builtins.list[Rotation]:
    """The rotations read; a row the console did not write so is left out (and logged)."""
    names = [d[0] for d in cursor.description]
    found: builtins.list[Rotation] = []
    for row in cursor.fetchall():
        fields = dict(zip(names, row, strict=True))
        try:
            found.append(from_row(fields))
        except (TypeError, ValueError, AttributeError) as problem:
            log.warning("Rotation %s in the journal cannot be read: %s", fields.get("id"), problem)
    return found


class _Undecodable:
    """A text value that is not UTF-8 (SQLite hands over whatever bytes a row holds)."""

    def __repr__(self) -> str:
        return "<not UTF-8>"


def _text(data: bytes) -> str | _Undecodable:
    """The connection's text factory: a value that is not UTF-8 makes its row unreadable
    (it would otherwise fail the whole query)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return _Undecodable()


def _oldest_rows_freeing(
    db: sqlite3.Connection, over: int, recent: str, row_max: int
) -> builtins.list[int]:
    """The fewest rows, oldest first (rows too big to read before all), whose bytes add up
    to `over`; none of those started at `recent` or later."""
    cursor = db.execute(
        f"SELECT id, ({_ROW_SIZE}) + 64 AS size FROM changes "
        "WHERE NOT (typeof(started_at) = 'text' AND started_at >= ?) "
        "ORDER BY size > ? DESC, id",
        (recent, row_max),
    )
    doomed: builtins.list[int] = []
    freed = 0
    for row_id, size in cursor:
        if freed >= over:
            break
        doomed.append(int(row_id))
        freed += int(size)
    return doomed


class _Unreadable(ValueError):
    """A row's field is not what the console writes there."""


def _string(row: dict[str, Any], column: str, *, optional: bool = False) -> Any:
    value = row[column]
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _Unreadable(f"{column} is not text")
    return value


def _time(row: dict[str, Any], column: str, *, optional: bool = False) -> datetime | None:
    text = _string(row, column, optional=optional)
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise _Unreadable(f"{column} is not a time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _json(row: dict[str, Any], column: str, *, dict_only: bool = True) -> Any:
    text = _string(row, column, optional=True)
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise _Unreadable(f"{column} is not JSON") from None
    if dict_only and value is not None and not isinstance(value, dict):
        raise _Unreadable(f"{column} is not an object")
    return value


def _change(row: dict[str, Any]) -> Change:
    """The change a row holds; a row the console did not write so (a field of the wrong type,
    bad JSON, a bad time, too big to read) comes back as an unreadable change, never raises."""
    try:
        if row["_size"] > ROW_BYTES_MAX:
            raise _Unreadable(
                f"{row['_size']:,} bytes, over the {ROW_BYTES_MAX:,} one change holds"
            )
        undoes = row["undoes"]
        if undoes is not None and type(undoes) is not int:
            raise _Unreadable("undoes is not a change id")
        outcome = _string(row, "outcome")
        if outcome not in OUTCOMES:
            raise _Unreadable("outcome is not one the console writes")
        started_at = _time(row, "started_at")
        assert started_at is not None
        return Change(
            id=row["id"],
            started_at=started_at,
            completed_at=_time(row, "completed_at", optional=True),
            profile=_string(row, "profile", optional=True),
            base_url=_string(row, "base_url"),
            tenant=_string(row, "tenant", optional=True),
            kind=_string(row, "kind"),
            object_id=_string(row, "object_id", optional=True),
            name=_string(row, "name", optional=True),
            action=_string(row, "action"),
            origin=_string(row, "origin"),
            undoes=undoes,
            method=_string(row, "method"),
            path=_string(row, "path"),
            before=_json(row, "before"),
            after=_json(row, "after", dict_only=False),
            request=_json(row, "request"),
            related=_json(row, "related") or {},
            outcome=outcome,
            error=_string(row, "error", optional=True),
        )
    except _Unreadable as problem:
        log.info("Change %s in the journal cannot be read: %s", row["id"], problem)
        return _unreadable(row, str(problem))


def _unreadable(row: dict[str, Any], reason: str) -> Change:
    """A stand-in for a row that cannot be read: its id, its profile if that is text."""
    profile = row.get("profile")
    return Change(
        id=row["id"],
        started_at=UNREADABLE_TIME,
        completed_at=None,
        profile=profile if isinstance(profile, str) else None,
        base_url="",
        tenant=None,
        kind="",
        object_id=None,
        name=None,
        action="",
        origin="",
        undoes=None,
        method="",
        path="",
        before=None,
        after=None,
        request=None,
        outcome=UNREADABLE,
        unreadable=reason,
    )


_shared: ChangeJournal | None = None
_shared_lock = threading.Lock()


def open_journal() -> ChangeJournal:
    """The user's journal (one per process and data directory); the file opens on first use."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.path != journal_path():
            _shared = ChangeJournal()
        return _shared


__all__ = [
    "FAILED",
    "OK",
    "PENDING",
    "UNKNOWN",
    "UNREADABLE",
    "Change",
    "ChangeJournal",
    "JournalError",
    "Rotation",
    "open_journal",
]
