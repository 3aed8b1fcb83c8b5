"""The file watch (stat, then a hash only when needed) and the line diff, on their own."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from console.code_diff import code_of, line_diff
from console.code_files.watch import CodeFileProblem, FileWatch, read_code_text


def age(path: Path, seconds: float) -> None:
    """Moves the file's modification time into the past (no waiting)."""
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - int(seconds * 1e9)))


def test_a_save_is_reported_once_and_touching_is_no_change(tmp_path):
    path = tmp_path / "a.js"
    path.write_text("one\n")
    age(path, 60)
    watch = FileWatch(path)
    assert watch.read() == "one\n"
    assert watch.poll() is None
    path.write_text("two\n")
    assert watch.poll() == "two\n"
    assert watch.poll() is None  # reported once
    os.utime(path)  # touched, same text
    assert watch.poll() is None


def test_a_same_size_save_within_one_clock_tick_is_seen(tmp_path):
    path = tmp_path / "a.js"
    path.write_text("aaa\n")
    watch = FileWatch(path)
    watch.read()
    stat = path.stat()
    path.write_text("bbb\n")  # same size; put the old time back, as a coarse clock would
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert watch.poll() == "bbb\n"  # recent files are read whatever their stat says


def test_our_own_write_is_no_change_and_a_missing_file_is_waited_for(tmp_path):
    path = tmp_path / "a.js"
    path.write_text("mine\n")
    watch = FileWatch(path)
    watch.seen("mine\n")
    assert watch.poll() is None
    path.unlink()
    assert watch.poll() is None and watch.missing
    path.write_text("back\n")
    assert watch.poll() == "back\n" and not watch.missing


def test_unreadable_files_say_why(tmp_path):
    with pytest.raises(CodeFileProblem, match="There is no file"):
        read_code_text(tmp_path / "none.js")
    (tmp_path / "bin.js").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(CodeFileProblem, match="not UTF-8"):
        read_code_text(tmp_path / "bin.js")
    (tmp_path / "big.js").write_text("x" * 20)
    with pytest.raises(CodeFileProblem, match="refused"):
        read_code_text(tmp_path / "big.js", max_bytes=10)


def test_line_diff_and_code_of():
    diff = line_diff("a\nb\nc\n", "a\nB\nc\n", old_label="theirs", new_label="yours")
    assert diff[:2] == ["--- theirs", "+++ yours"]
    assert "-b" in diff and "+B" in diff and " a" in diff
    assert line_diff("x", "x", old_label="a", new_label="b") == []
    assert line_diff("x", "x\n", old_label="a", new_label="b")[-1].startswith("(only the final")
    assert code_of({"code": "c"}) == "c" and code_of("c") == "c"
    assert code_of({"type": "mask"}) is None and code_of(None) is None
