"""console.files.create_file: a file this run creates, never one that was there already."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from console.files import create_file


def test_creates_a_new_file_private_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "keys.json"
    create_file(target, "secret\n", private=True)
    assert target.read_text() == "secret\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("what", ["file", "link", "dangling link", "fifo"])
def test_refuses_whatever_is_there_and_leaves_it_as_it_was(tmp_path: Path, what: str) -> None:
    other = tmp_path / "other.txt"
    other.write_bytes(b"someone else's\n")
    target = tmp_path / "out.json"
    if what == "file":
        target.write_bytes(b"keys written by apply\n")
    elif what == "link":
        target.symlink_to(other)
    elif what == "dangling link":
        target.symlink_to(tmp_path / "nowhere")
    else:
        os.mkfifo(target)
    before = os.lstat(target)
    with pytest.raises(FileExistsError):
        create_file(target, "new\n")
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode, after.st_size) == (
        before.st_ino,
        before.st_mode,
        before.st_size,
    )
    assert other.read_bytes() == b"someone else's\n"
    assert not (tmp_path / "nowhere").exists()
    if what == "file":
        assert target.read_bytes() == b"keys written by apply\n"


@pytest.mark.parametrize("what", ["file", "link", "fifo"])
def test_force_replaces_it_without_following_or_writing_into_it(tmp_path: Path, what) -> None:
    other = tmp_path / "other.txt"
    other.write_bytes(b"someone else's\n")
    target = tmp_path / "out.json"
    if what == "file":
        target.write_bytes(b"old\n")
    elif what == "link":
        target.symlink_to(other)
    else:
        os.mkfifo(target)
    create_file(target, b"new\n", force=True, private=True)
    assert not target.is_symlink() and stat.S_ISREG(target.lstat().st_mode)
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert other.read_bytes() == b"someone else's\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt", "out.json"]
