"""The journal's SQLite file: one row per change, written before the change is sent.

`journal.sqlite3` in the user data directory ($TENANT_CONSOLE_DATA_DIR moves it), mode 0600.
Rows older than $TENANT_CONSOLE_JOURNAL_DAYS days (90) go when the journal is opened, and the
oldest ones while the file is over $TENANT_CONSOLE_JOURNAL_MB megabytes (50).
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

from console.client.recording import PendingChange
from console.journal.redact import without_keys
from console.journal.rotations import LEGACY_FILE, Rotation, from_row, read_legacy_file, to_row
from console.journal.rotations import SCHEMA as ROTATIONS_SCHEMA

log = logging.getLogger(__name__)

JOURNAL_FILE = "journal.sqlite3"
DAYS_ENV = "TENANT_CONSOLE_JOURNAL_DAYS"
MEGABYTES_ENV = "TENANT_CONSOLE_JOURNAL_MB"
DEFAULT_DAYS = 90
DEFAULT_MEGABYTES = 50

PENDING, OK, FAILED, UNKNOWN = "pending", "ok", "failed", "unknown"
"""Outcomes: not answered yet (or the console stopped), done, refused, no answer came."""

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

    @property
    def result_id(self) -> str | None:
        """The id of the object the change left: a created object's new id."""
        if isinstance(self.after, dict) and self.after.get("id") is not None:
            return str(self.after["id"])
        return self.object_id

    def to_json(self) -> dict[str, Any]:
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
            "before": self.before,
            "after": self.after,
            "related": self.related,
        }


def journal_path() -> Path:
    from console.runner.samples import data_dir

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

    # ---- the file ----------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            from console.profiles.config import _ensure_private_dir

            _ensure_private_dir(self.path.parent)
            # Created 0600 before SQLite opens it; an existing file is made private too.
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            os.close(fd)
            os.chmod(self.path, 0o600)
            db = sqlite3.connect(self.path, timeout=10, check_same_thread=False)
            db.executescript(_SCHEMA)
            db.executescript(ROTATIONS_SCHEMA)
            self._db = db
            self._rotate(db)
            self._adopt_rotations_file(db)
        return self._db

    def _rotate(self, db: sqlite3.Connection) -> None:
        """Drops what is older than `max_days`, then the oldest rows while over `max_bytes`."""
        cutoff = (_now() - timedelta(days=self.max_days)).isoformat()
        with db:
            db.execute("DELETE FROM changes WHERE started_at < ?", (cutoff,))
            db.execute(  # a rotation in progress stays, however old
                "DELETE FROM rotations WHERE finished_at < ? OR cancelled_at < ?",
                (cutoff, cutoff),
            )
        for _ in range(20):
            if self.path.stat().st_size <= self.max_bytes:
                return
            (count,) = db.execute("SELECT COUNT(*) FROM changes").fetchone()
            if count == 0:
                return
            with db:
                db.execute(
                    "DELETE FROM changes WHERE id IN (SELECT id FROM changes ORDER BY id LIMIT ?)",
                    (max(count // 4, 1),),
                )
            db.execute("VACUUM")

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

    def record(self, change: PendingChange) -> int:
        """Keeps `change` as pending (bodies without keys); its id."""
        secrets = change.secrets
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
            _dumps(change.before, secrets),
            _dumps(change.request, secrets),
            _dumps(change.related or {}, secrets),
            PENDING,
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
            return int(cursor.lastrowid or 0)

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
        after_text = _dumps(after, secrets)
        error_text = without_keys(error, secrets) if error else None
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
        query = "SELECT * FROM changes"
        conditions: builtins.list[str] = []
        args: builtins.list[Any] = []
        for column, value in (("profile", profile), ("base_url", base_url)):
            if value is not None:
                conditions.append(f"{column} = ?")
                args.append(value)
        if conditions:
            query += " WHERE " + " AND ".join(conditions)
        query += " ORDER BY id DESC LIMIT ?"
        args.append(max(limit, 0))
        with self._lock:
            db = self._connection()
            rows = db.execute(query, args).fetchall()
            names = [d[0] for d in db.execute("SELECT * FROM changes LIMIT 0").description]
        return [_change(dict(zip(names, row, strict=True))) for row in rows]

    def get(self, change_id: int) -> Change | None:
        with self._lock:
            db = self._connection()
            cursor = db.execute("SELECT * FROM changes WHERE id = ?", (change_id,))
            row = cursor.fetchone()
            names = [d[0] for d in cursor.description]
        return None if row is None else _change(dict(zip(names, row, strict=True)))

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
    names = [d[0] for d in cursor.description]
    return [from_row(dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


def _change(row: dict[str, Any]) -> Change:
    completed = row["completed_at"]
    return Change(
        id=row["id"],
        started_at=datetime.fromisoformat(row["started_at"]),
        completed_at=datetime.fromisoformat(completed) if completed else None,
        profile=row["profile"],
        base_url=row["base_url"],
        tenant=row["tenant"],
        kind=row["kind"],
        object_id=row["object_id"],
        name=row["name"],
        action=row["action"],
        origin=row["origin"],
        undoes=row["undoes"],
        method=row["method"],
        path=row["path"],
        before=_loads(row["before"]),
        after=_loads(row["after"]),
        request=_loads(row["request"]),
        related=_loads(row["related"]) or {},
        outcome=row["outcome"],
        error=row["error"],
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
    "Change",
    "ChangeJournal",
    "Rotation",
    "open_journal",
]
