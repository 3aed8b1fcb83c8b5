"""Key rotations in the journal's own table: started, updated, finished or cancelled, moved
once from an older console's `key-rotations.json`, and never any key material in the file."""

from __future__ import annotations

import json
import sqlite3
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

from console.journal.rotations import CREATED, DEPLOYING, LEGACY_FILE, Rotation
from console.journal.store import ChangeJournal

KEY = "k3y-MATERIAL-that-must-never-be-written-0123456789"


def journal_bytes(journal: ChangeJournal) -> bytes:
    """The file as anyone could read it (with what SQLite has not yet folded in)."""
    journal.close()
    return b"".join(p.read_bytes() for p in journal.path.parent.glob(journal.path.name + "*"))


def rotation(application_id: str = "app-1", **changes: object) -> Rotation:
    fields: dict[str, object] = {
        "scope": "prod",
        "application_id": application_id,
        "application_name": "Batch",
        "new_key_id": "new-1",
        "old_key_ids": ["old-1", "old-2"],
        "started_at": datetime.now(UTC).isoformat(),
        "profile": "prod",
        "base_url": "http://127.0.0.1:9",
        "tenant": "Prod",
    }
    fields.update(changes)
    return Rotation(**fields)  # type: ignore[arg-type]


def test_a_rotation_is_in_progress_until_finished_or_cancelled(journal: ChangeJournal) -> None:
    first, second = rotation("app-1"), rotation("app-2", scope="http://127.0.0.1:9", profile=None)
    first_id = journal.start_rotation(first)
    second_id = journal.start_rotation(second)
    assert first.id == first_id and second.id == second_id and first_id != second_id
    (kept,) = journal.rotations_in_progress("prod", "app-1")
    assert (kept.profile, kept.base_url, kept.tenant) == ("prod", "http://127.0.0.1:9", "Prod")
    assert (kept.application_name, kept.new_key_id, kept.old_key_ids) == (
        "Batch",
        "new-1",
        ["old-1", "old-2"],
    )
    assert kept.stage == CREATED and kept.in_progress

    kept.stage, kept.old_key_ids = DEPLOYING, ["old-2"]
    journal.update_rotation(kept)
    (again,) = journal.rotations_in_progress("prod", "app-1")
    assert (again.stage, again.old_key_ids) == (DEPLOYING, ["old-2"])

    journal.finish_rotation(first_id)
    journal.cancel_rotation(second_id)
    assert journal.rotations_in_progress() == []
    ended = {r.id: r for r in journal.rotations()}
    assert ended[first_id].finished_at and ended[first_id].cancelled_at is None
    assert ended[second_id].cancelled_at and ended[second_id].finished_at is None
    journal.cancel_rotation(first_id)  # a finished one stays finished
    assert journal.rotations()[-1].cancelled_at is None


def test_a_second_start_for_the_same_application_replaces_the_first(
    journal: ChangeJournal,
) -> None:
    journal.start_rotation(rotation(new_key_id="new-1"))
    journal.start_rotation(rotation(new_key_id="new-2"))
    assert [r.new_key_id for r in journal.rotations_in_progress("prod", "app-1")] == ["new-2"]
    assert [r.cancelled_at is not None for r in journal.rotations()] == [False, True]


def test_a_rotation_row_never_holds_key_material(journal: ChangeJournal) -> None:
    """A key injected where the row keeps text (a hostile application name, a key id) is
    masked; the file stays 0600."""
    hostile = rotation(application_name=f"Batch {KEY}", new_key_id=f"id-{KEY}")
    journal.start_rotation(hostile, secrets=(KEY,))
    (kept,) = journal.rotations_in_progress()
    assert KEY not in kept.application_name and KEY not in kept.new_key_id
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
    assert KEY.encode() not in journal_bytes(journal)


def test_an_older_consoles_rotations_file_is_moved_in_once(journal: ChangeJournal) -> None:
    legacy = journal.path.parent / LEGACY_FILE
    legacy.parent.mkdir(parents=True, exist_ok=True)
    record = {
        "scope": "prod",
        "application_id": "app-9",
        "application_name": "Nightly",
        "new_key_id": "new-9",
        "old_key_ids": ["old-9"],
        "started_at": "2026-11-01T10:00:00+00:00",
        "stage": "deploying",
        "own": True,
        "new_key_version": "3",
    }
    legacy.write_text(json.dumps({"rotations": [record, {"not": "a rotation"}]}))
    (moved,) = journal.rotations_in_progress()
    assert not legacy.exists()
    assert (moved.scope, moved.profile, moved.application_id, moved.application_name) == (
        "prod",
        "prod",
        "app-9",
        "Nightly",
    )
    assert (moved.stage, moved.own, moved.old_key_ids, moved.new_key_version) == (
        DEPLOYING,
        True,
        ["old-9"],
        "3",
    )
    # The same file again (a removal that failed, say) adds nothing twice.
    journal.close()
    legacy.write_text(json.dumps({"rotations": [record]}))
    assert len(journal.rotations_in_progress()) == 1 and not legacy.exists()


def test_an_unreadable_rotations_file_is_left_where_it_is(journal: ChangeJournal) -> None:
    legacy = journal.path.parent / LEGACY_FILE
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_text("{not json")
    assert journal.rotations_in_progress() == []
    assert legacy.read_text() == "{not json"


def test_ended_rotations_age_out_but_one_in_progress_stays(tmp_path: Path) -> None:
    journal = ChangeJournal(tmp_path / "journal.sqlite3", max_days=30)
    old = (datetime.now(UTC) - timedelta(days=60)).isoformat()
    journal.start_rotation(rotation("app-1", started_at=old))
    ended_id = journal.start_rotation(rotation("app-2", started_at=old))
    journal.close()
    with sqlite3.connect(journal.path) as db:
        db.execute("UPDATE rotations SET finished_at = ? WHERE id = ?", (old, ended_id))
    db.close()
    assert [r.application_id for r in journal.rotations()] == ["app-1"]
    journal.close()
