"""Rotations in progress, remembered across restarts in the user data directory
(`key-rotations.json` there, 0600; $TENANT_CONSOLE_DATA_DIR moves it, as tests do).

A rotation is: a new key made beside the old ones and shown once; the old keys keep working
while the new one is deployed; once the admin confirms, the old keys are revoked. The record
holds ids, names and times only, never key material. It is kept until the rotation is
finished or cancelled, so a console closed in between shows it again on the application.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

ROTATIONS_FILE = "key-rotations.json"

CREATED = "created"
"""The new key exists; it may not have been stored yet (the reveal was not closed)."""
DEPLOYING = "deploying"
"""The new key was shown (or written to a file): the admin is deploying it."""


@dataclass
class Rotation:
    """One application's rotation in progress, for one service (`scope`)."""

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
    notes: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, data: Any) -> Rotation | None:
        """A record from the file; None for anything that is not one (logged)."""
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
                notes=[str(n) for n in data.get("notes") or []],
            )
        except (KeyError, TypeError, ValueError):
            log.warning("A key rotation record could not be read; it is ignored")
            return None


def rotations_path() -> Path:
    from console.runner.samples import data_dir

    return data_dir() / ROTATIONS_FILE


def load_rotations() -> list[Rotation]:
    """Every rotation in progress; an unreadable file counts as none (and is logged)."""
    path = rotations_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        log.warning("The key rotations file %s could not be read", path, exc_info=True)
        return []
    items = data.get("rotations") if isinstance(data, dict) else None
    found = [Rotation.read(item) for item in items or []]
    return [rotation for rotation in found if rotation is not None]


def _save(rotations: list[Rotation]) -> None:
    from console.profiles.config import _write_atomically

    text = json.dumps({"rotations": [asdict(r) for r in rotations]}, indent=2) + "\n"
    _write_atomically(rotations_path(), text)


def rotation_for(scope: str, application_id: str) -> Rotation | None:
    """The rotation in progress for this application, if any."""
    return next(
        (
            r
            for r in load_rotations()
            if r.scope == scope and r.application_id == str(application_id)
        ),
        None,
    )


def remember(rotation: Rotation) -> None:
    """Keeps (or updates) the rotation. Raises OSError when it cannot be written: the caller
    says so, since the rotation would then not survive a restart."""
    others = [
        r
        for r in load_rotations()
        if not (r.scope == rotation.scope and r.application_id == rotation.application_id)
    ]
    _save([*others, rotation])


def forget(scope: str, application_id: str) -> None:
    """The rotation is finished or cancelled: no longer shown. A failure is logged."""
    try:
        kept = [
            r
            for r in load_rotations()
            if not (r.scope == scope and r.application_id == str(application_id))
        ]
        _save(kept)
    except OSError:
        log.warning("The finished key rotation could not be forgotten", exc_info=True)
