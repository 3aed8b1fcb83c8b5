"""Key rotations in progress, as the change journal keeps them (its `rotations` table).

A rotation is: a new key made beside the old ones and shown once; the old keys keep working
while the new one is deployed; once the admin confirms, the old keys are revoked. A row holds
ids, names and times only, never key material; it is shown until finished or cancelled, so a
console closed in between shows it again. No SQLite here: the store (console.journal.store)
reads and writes the rows; this module is the record and the legacy file it replaced.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

LEGACY_FILE = "key-rotations.json"
"""Where rotations were kept before the journal had them; read once, then removed."""

CREATED = "created"
"""The new key exists; it may not have been stored yet (the reveal was not closed)."""
DEPLOYING = "deploying"
"""The new key was shown (or written to a file): the admin is deploying it."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS rotations (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    scope TEXT NOT NULL,
    profile TEXT,
    base_url TEXT NOT NULL,
    tenant TEXT,
    application_id TEXT NOT NULL,
    application_name TEXT NOT NULL,
    new_key_id TEXT NOT NULL,
    new_key_version TEXT,
    old_key_ids TEXT NOT NULL,
    stage TEXT NOT NULL,
    own INTEGER NOT NULL,
    started_at TEXT NOT NULL,
    finished_at TEXT,
    cancelled_at TEXT
);
CREATE INDEX IF NOT EXISTS rotations_open ON rotations (scope, application_id, finished_at,
    cancelled_at);
"""


@dataclass
class Rotation:
    """One application's rotation, for one service (`scope`)."""

    scope: str
    """The profile name, or the base URL for a connection without a profile."""
    application_id: str
    application_name: str
    new_key_id: str
    old_key_ids: list[str]
    started_at: str
    stage: str = CREATED
    own: bool = False
    """The application is the one whose key this session uses."""
    new_key_version: str | None = None
    profile: str | None = None
    base_url: str = ""
    tenant: str | None = None
    id: int | None = None
    """The journal's row id; None until the journal has it."""
    finished_at: str | None = None
    cancelled_at: str | None = None

    @property
    def in_progress(self) -> bool:
        return self.finished_at is None and self.cancelled_at is None

    @classmethod
    def read(cls, data: Any) -> Rotation | None:
        """A record of the legacy file; None for anything that is not one (logged)."""
        if not isinstance(data, dict):
            return None
        try:
            return cls(
                scope=str(data["scope"]),
                application_id=str(data["application_id"]),
                application_name=str(data.get("application_name") or ""),
                new_key_id=str(data["new_key_id"]),
                old_key_ids=[str(k) for k in data.get("old_key_ids") or []],
                started_at=str(data.get("started_at") or ""),
                stage=str(data.get("stage") or CREATED),
                own=bool(data.get("own")),
                new_key_version=(
                    str(data["new_key_version"]) if data.get("new_key_version") else None
                ),
                base_url=str(data["scope"]) if "://" in str(data["scope"]) else "",
                profile=None if "://" in str(data["scope"]) else str(data["scope"]),
            )
        except (KeyError, TypeError, ValueError):
            log.warning("A key rotation record could not be read; it is ignored")
            return None


def read_legacy_file(path: Path) -> list[Rotation] | None:
    """The rotations of a `key-rotations.json`; None when there is no such file or it
    cannot be read (logged: it is then left where it is)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        log.warning("The key rotations file %s could not be read", path, exc_info=True)
        return None
    items = data.get("rotations") if isinstance(data, dict) else None
    found = [Rotation.read(item) for item in items or []]
    return [rotation for rotation in found if rotation is not None]


def to_row(rotation: Rotation) -> dict[str, Any]:
    """The table's columns for `rotation` (its id aside)."""
    return {
        "scope": rotation.scope,
        "profile": rotation.profile,
        "base_url": rotation.base_url,
        "tenant": rotation.tenant,
        "application_id": rotation.application_id,
        "application_name": rotation.application_name,
        "new_key_id": rotation.new_key_id,
        "new_key_version": rotation.new_key_version,
        "old_key_ids": json.dumps(list(rotation.old_key_ids)),
        "stage": rotation.stage,
        "own": int(rotation.own),
        "started_at": rotation.started_at,
        "finished_at": rotation.finished_at,
        "cancelled_at": rotation.cancelled_at,
    }


def from_row(row: dict[str, Any]) -> Rotation:
    try:
        old = [str(k) for k in json.loads(row["old_key_ids"] or "[]")]
    except ValueError:
        log.warning("Rotation %s: its old keys could not be read", row["id"])
        old = []
    return Rotation(
        id=row["id"],
        scope=row["scope"],
        profile=row["profile"],
        base_url=row["base_url"],
        tenant=row["tenant"],
        application_id=row["application_id"],
        application_name=row["application_name"],
        new_key_id=row["new_key_id"],
        new_key_version=row["new_key_version"],
        old_key_ids=old,
        stage=row["stage"],
        own=bool(row["own"]),
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        cancelled_at=row["cancelled_at"],
    )


__all__ = ["CREATED", "DEPLOYING", "LEGACY_FILE", "Rotation"]
