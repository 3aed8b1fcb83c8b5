"""The journal file is the console's own or is not used: a symbolic link (even a dangling
one, or one beside it for SQLite's side file), a file others can write or another user's
is refused with a sentence naming it, and what the link points at is left untouched."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from console.cli import main
from console.client.recording import JournalUnavailable

VICTIM_TEXT = b"precious: not the console's\n"


async def cli(*argv: str) -> int:
    return await asyncio.to_thread(main, list(argv))


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    path = tmp_path / "victim.txt"
    path.write_bytes(VICTIM_TEXT)
    return path


async def test_a_symlinked_journal_is_refused_and_its_target_untouched(
    journal, victim, capsys
) -> None:
    journal.path.parent.mkdir(parents=True, exist_ok=True)
    journal.path.symlink_to(victim)
    assert await cli("history") == 1
    out, err = capsys.readouterr()
    assert str(journal.path) in err and "symbolic link" in err
    assert "Traceback" not in out + err
    assert await cli("undo", "1", "--yes") == 1
    assert "symbolic link" in capsys.readouterr().err
    assert victim.read_bytes() == VICTIM_TEXT
    assert journal.path.is_symlink()


async def test_a_dangling_link_is_refused_and_nothing_is_made_where_it_points(
    journal, tmp_path, capsys
) -> None:
    target = tmp_path / "elsewhere" / "made.sqlite3"
    target.parent.mkdir()
    journal.path.parent.mkdir(parents=True, exist_ok=True)
    journal.path.symlink_to(target)
    assert await cli("history") == 1
    assert "symbolic link" in capsys.readouterr().err
    assert not target.exists()


async def test_a_link_for_sqlites_side_file_is_refused(journal, victim, capsys) -> None:
    journal.path.parent.mkdir(parents=True, exist_ok=True)
    side = journal.path.with_name(journal.path.name + "-journal")
    side.symlink_to(victim)
    assert await cli("history") == 1
    err = capsys.readouterr().err
    assert str(side) in err and "symbolic link" in err
    assert victim.read_bytes() == VICTIM_TEXT


async def test_a_change_is_not_sent_when_the_journal_is_a_link(
    client, journal, prod, victim
) -> None:
    tenant, _ = prod
    journal.close()
    journal.path.unlink(missing_ok=True)
    journal.path.parent.mkdir(parents=True, exist_ok=True)
    journal.path.symlink_to(victim)
    with pytest.raises(JournalUnavailable, match="symbolic link") as refused:
        await client.applications.create(
            {"name": "Never sent", "type": "private", "permissions": ["token:read"]}
        )
    assert str(journal.path) in str(refused.value)
    assert tenant.named("/applications", "Never sent") == []
    assert victim.read_bytes() == VICTIM_TEXT


@pytest.mark.parametrize("mode", [0o620, 0o602, 0o666])
async def test_a_journal_others_can_write_is_refused(journal, capsys, mode) -> None:
    journal.list()  # the file, as the console makes it
    journal.close()
    os.chmod(journal.path, mode)
    before = journal.path.read_bytes()
    assert await cli("history") == 1
    err = capsys.readouterr().err
    assert str(journal.path) in err and "can be written by other users" in err
    assert journal.path.read_bytes() == before
    assert os.stat(journal.path).st_mode & 0o777 == mode  # left as it is


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="chown needs root")
async def test_another_users_journal_is_refused(journal, capsys) -> None:
    journal.list()
    journal.close()
    os.chown(journal.path, 65534, 65534)
    assert await cli("history") == 1
    err = capsys.readouterr().err
    assert str(journal.path) in err and "belongs to another user" in err


async def test_a_journal_readable_by_others_is_made_private(journal) -> None:
    journal.list()
    journal.close()
    os.chmod(journal.path, 0o644)
    journal.list()
    assert os.stat(journal.path).st_mode & 0o777 == 0o600


async def test_apply_with_a_symlinked_journal_says_so_and_sends_nothing(
    prod, journal, victim, tmp_path, capsys
) -> None:
    tenant, _ = prod
    exported = tmp_path / "estate.yaml"
    assert await cli("export", "--profile", "prod", "-o", str(exported)) == 0
    exported.write_text(exported.read_text().replace("Checkout web", "Checkout web 2"))
    journal.close()
    journal.path.unlink(missing_ok=True)
    journal.path.parent.mkdir(parents=True, exist_ok=True)
    journal.path.symlink_to(victim)
    capsys.readouterr()
    assert await cli("apply", str(exported), "--profile", "prod", "--yes") != 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert str(journal.path) in err and "symbolic link" in err
    assert tenant.named("/applications", "Checkout web 2") == []
    assert victim.read_bytes() == VICTIM_TEXT
