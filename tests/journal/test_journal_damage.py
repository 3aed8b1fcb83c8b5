"""A journal file the console did not write so: corrupt rows (bad JSON, wrong types, a bad
time, bytes that are not UTF-8), a huge row, and rotation that removes only what it must."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from console.cli import main
from console.client.recording import JournalUnavailable, PendingChange
from console.journal.store import ROW_BYTES_MAX, ChangeJournal, JournalError


async def cli(*argv: str) -> int:
    """`main([...])` off the event loop (it runs its own)."""
    return await asyncio.to_thread(main, list(argv))


def ago(**delta: float) -> str:
    return (datetime.now(UTC) - timedelta(**delta)).isoformat()


def insert(path: Path, **fields: Any) -> int:
    """A row as anything but the console might have written it."""
    row: dict[str, Any] = {
        "started_at": ago(minutes=5),
        "profile": "prod",
        "base_url": "http://127.0.0.1:1",
        "tenant": "Prod",
        "kind": "proxies",
        "object_id": "00000000-0000-4000-8000-000000000001",
        "name": "Row",
        "action": "update",
        "origin": "console",
        "method": "PUT",
        "path": "/proxies/00000000-0000-4000-8000-000000000001",
        "before": json.dumps({"name": "Row"}),
        "after": json.dumps({"name": "Row"}),
        "outcome": "ok",
        **fields,
    }
    names = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    with sqlite3.connect(path) as db:
        cursor = db.execute(f"INSERT INTO changes ({names}) VALUES ({marks})", list(row.values()))
        return int(cursor.lastrowid or 0)


CORRUPT: dict[str, dict[str, Any]] = {
    "bad JSON": {"before": "{not json"},
    "a list for an object": {"request": "[1, 2]"},
    "a number for an object": {"before": "5"},
    "bytes for the kind": {"kind": b"proxies"},
    "bytes for text": {"name": b"\x00\x01"},
    "not UTF-8": {},  # inserted by hand below: TEXT holding bytes that are not UTF-8
    "a bad time": {"started_at": "yesterday at noon"},
    "a number for a time": {"started_at": 1700000000},
    "a bad change id": {"undoes": "twelve"},
    "an unknown outcome": {"outcome": "exploded"},
    "deep JSON": {"after": "[" * 100_000 + "]" * 100_000},
}


async def test_corrupt_rows_are_listed_as_unreadable_and_undo_of_another_still_works(
    client, journal, prod, capsys
) -> None:
    tenant, _ = prod
    (formula,) = tenant.named("/reactor-formulas", "Card check")
    body = {**formula, "code": "module.exports = async () => ({ raw: 1 });\n"}
    await client.reactor_formulas.update(formula["id"], body)
    (good,) = journal.list()
    bad_ids = {}
    for reason, fields in CORRUPT.items():
        if reason == "not UTF-8":  # text bytes that are not UTF-8, stored as TEXT
            with sqlite3.connect(journal.path) as db:
                db.execute(
                    "INSERT INTO changes (started_at, base_url, kind, action, origin, method, "
                    "path, outcome, profile, name) VALUES (?, '', '', '', '', '', '', 'ok', "
                    "'prod', CAST(X'FFFE' AS TEXT))",
                    (ago(minutes=1),),
                )
                bad_ids[reason] = db.execute("SELECT MAX(id) FROM changes").fetchone()[0]
            continue
        bad_ids[reason] = insert(journal.path, **fields)

    listed = {change.id: change for change in journal.list()}
    assert good.id in listed and listed[good.id].unreadable is None
    for reason, row_id in bad_ids.items():
        assert listed[row_id].unreadable, reason
        assert listed[row_id].outcome == "unreadable", reason

    capsys.readouterr()
    assert await cli("history", "--profile", "prod") == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    table = {line.split()[0]: line for line in out.splitlines()[1:] if line[:1].isdigit()}
    for reason, row_id in bad_ids.items():
        assert "unreadable" in table[str(row_id)], reason
    assert "update reactor formula" in table[str(good.id)]

    assert await cli("history", "--format", "json") == 0
    entries = {entry["id"]: entry for entry in json.loads(capsys.readouterr().out)}
    for row_id in bad_ids.values():
        assert entries[row_id]["outcome"] == "unreadable" and entries[row_id]["unreadable"]
    assert entries[good.id]["outcome"] == "ok"

    assert await cli("undo", str(bad_ids["bad JSON"]), "--yes") == 1
    out, err = capsys.readouterr()
    assert "cannot be read" in err and "Traceback" not in out + err

    assert await cli("undo", str(good.id), "--yes") == 0  # the good one still goes back
    (now,) = tenant.named("/reactor-formulas", "Card check")
    assert now["code"] == formula["code"]


async def test_history_screen_shows_a_corrupt_row_as_unreadable(journal) -> None:
    from console.tui.screens.history import detail_text

    journal.list()  # makes the file
    row_id = insert(journal.path, before="{oops")
    (change,) = journal.list()
    assert change.id == row_id
    text = detail_text(change).plain
    assert "unreadable" in text and "before is not JSON" in text


def pending(name: str, size: int) -> PendingChange:
    return PendingChange(
        "PUT",
        "/proxies/00000000-0000-4000-8000-000000000001",
        "proxies",
        "update",
        "00000000-0000-4000-8000-000000000001",
        name,
        {"code": "x" * size},
        None,
        "p",
        "http://127.0.0.1:1",
        "T",
        "console",
    )


def fill(path: Path, count: int, size: int, started_at: str, prefix: str) -> list[int]:
    journal = ChangeJournal(path, max_days=30, max_bytes=10**10)
    ids = [journal.record(pending(f"{prefix}{n}", size)) for n in range(count)]
    journal.close()
    with sqlite3.connect(path) as db:
        db.executemany(
            "UPDATE changes SET started_at = ? WHERE id = ?", [(started_at, i) for i in ids]
        )
    return ids


def huge_row(path: Path, started_at: str) -> int:
    return insert(path, started_at=started_at, before=json.dumps({"code": "y" * ROW_BYTES_MAX}))


def test_a_huge_old_row_goes_first_and_nothing_more(tmp_path: Path) -> None:
    """The 55 MB row of the report: rotation drops it alone (not 767 of 771 rows)."""
    path = tmp_path / "journal.sqlite3"
    old = fill(path, 40, 20_000, ago(days=3), "old")
    huge = huge_row(path, ago(days=2))
    recent = fill(path, 10, 20_000, ago(hours=2), "new")
    assert path.stat().st_size > ROW_BYTES_MAX
    journal = ChangeJournal(path, max_days=30, max_bytes=2_000_000)
    kept = {change.id for change in journal.list(limit=1000)}
    assert huge not in kept
    assert kept == set(old) | set(recent)
    assert path.stat().st_size <= 2_000_000


def test_rotation_removes_just_enough_of_the_oldest_rows(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    old = fill(path, 100, 20_000, ago(days=3), "old")
    journal = ChangeJournal(path, max_days=30, max_bytes=1_500_000)
    kept = sorted(change.id for change in journal.list(limit=1000))
    assert path.stat().st_size <= 1_500_000
    assert kept == old[len(old) - len(kept) :]  # the oldest went
    # One row fewer removed would leave the file over its cap: 20 KB rows, 1.5 MB.
    assert 1_500_000 - 20_000 * len(kept) < 2 * 20_000 + 100_000


def test_the_last_days_rows_are_never_removed_for_size(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    old = fill(path, 10, 20_000, ago(days=3), "old")
    recent = fill(path, 60, 20_000, ago(hours=20), "new")
    huge = huge_row(path, ago(hours=1))
    journal = ChangeJournal(path, max_days=30, max_bytes=1_000_000)
    listed = journal.list(limit=1000)
    kept = {change.id for change in listed}
    assert kept == set(recent) | {huge}  # the old rows went; not one of the last day
    assert not kept & set(old)
    (shown,) = [change for change in listed if change.id == huge]
    assert shown.unreadable and "bytes" in shown.unreadable  # listed, not loaded
    assert journal.get(huge).unreadable


def test_a_change_too_big_to_keep_is_refused_before_it_is_written(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = ChangeJournal(path, max_days=30, max_bytes=300_000)
    with pytest.raises(JournalError, match="over the journal's limit"):
        journal.record(pending("big", 150_000))
    assert journal.list() == []
    journal.record(pending("fits", 50_000))
    assert [c.name for c in journal.list()] == ["fits"]


async def test_a_change_too_big_to_record_is_not_sent(client, journal, prod, monkeypatch) -> None:
    tenant, _ = prod
    monkeypatch.setattr(journal, "max_bytes", 30_000)
    (formula,) = tenant.named("/reactor-formulas", "Card check")
    body = {**formula, "code": "// " + "z" * 20_000 + "\nmodule.exports = async () => 1;\n"}
    with pytest.raises(JournalUnavailable, match="over the journal's limit"):
        await client.reactor_formulas.update(formula["id"], body)
    (now,) = tenant.named("/reactor-formulas", "Card check")
    assert now["code"] == formula["code"]  # nothing was sent
