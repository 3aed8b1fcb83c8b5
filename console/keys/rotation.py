"""Rotations in progress, remembered across restarts in the change journal (its `rotations`
table, console.journal.rotations; a `key-rotations.json` of an older console is moved there
once). The record holds ids, names and times only, never key material; it is kept until the
rotation is finished or cancelled, so a console closed in between shows it again.

The journal file is opened here lazily: nothing in this module loads SQLite at import.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from console.journal.rotations import CREATED, DEPLOYING, Rotation

if TYPE_CHECKING:
    from console.journal.store import ChangeJournal

log = logging.getLogger(__name__)


def _journal() -> ChangeJournal:
    from console.journal.store import open_journal

    return open_journal()


def _unwritable(error: Exception) -> OSError:
    """A journal that cannot be written, as the OSError the callers say and carry on after."""
    return OSError(f"the change journal could not be written: {error}")


def load_rotations() -> list[Rotation]:
    """Every rotation in progress; a journal that cannot be read counts as none (logged)."""
    import sqlite3

    try:
        return _journal().rotations_in_progress()
    except (OSError, sqlite3.Error):
        log.warning("The key rotations in progress could not be read", exc_info=True)
        return []


def rotation_for(scope: str, application_id: str) -> Rotation | None:
    """The rotation in progress for this application, if any."""
    import sqlite3

    try:
        found = _journal().rotations_in_progress(scope, str(application_id))
    except (OSError, sqlite3.Error):
        log.warning("The key rotations in progress could not be read", exc_info=True)
        return None
    return found[-1] if found else None


def remember(rotation: Rotation, *, secrets: tuple[str, ...] = ()) -> None:
    """Keeps the rotation: started (given its id) or, once started, its stage and the old keys
    left. Raises OSError when it cannot be written: the caller says so, since the rotation
    would then not survive a restart."""
    import sqlite3

    try:
        if rotation.id is None:
            _journal().start_rotation(rotation, secrets=secrets)
        else:
            _journal().update_rotation(rotation)
    except sqlite3.Error as error:
        raise _unwritable(error) from error


def finished(rotation: Rotation) -> None:
    """The old keys are revoked: no longer shown. A failure is logged."""
    _end(rotation, cancelled=False)


def cancelled(rotation: Rotation) -> None:
    """Given up, every key valid: no longer shown. A failure is logged."""
    _end(rotation, cancelled=True)


def _end(rotation: Rotation, *, cancelled: bool) -> None:
    import sqlite3

    try:
        ids = (
            [rotation.id]
            if rotation.id is not None
            else [
                r.id
                for r in _journal().rotations_in_progress(rotation.scope, rotation.application_id)
            ]
        )
        for rotation_id in ids:
            if rotation_id is None:
                continue
            if cancelled:
                _journal().cancel_rotation(rotation_id)
            else:
                _journal().finish_rotation(rotation_id)
    except (OSError, sqlite3.Error):
        log.warning("The ended key rotation could not be marked so", exc_info=True)


__all__ = [
    "CREATED",
    "DEPLOYING",
    "Rotation",
    "cancelled",
    "finished",
    "load_rotations",
    "remember",
    "rotation_for",
]
