"""Issue #14, point 6: the data dir's files are private to their owner, whatever the umask.

The database holds proxy keys in plain text. Its file and SQLite's `-wal` and `-shm` files
are created 0600 even in a data dir that already exists with mode 0755 (under umask 022),
files of an older release are tightened when opened, and `serve` and `new-tenant` say in
one line when the data dir itself is open to other users.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from local_service import RunningService

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")

DB = "tenant-console.sqlite3"
FILES = (DB, f"{DB}-wal", f"{DB}-shm")


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    """The usual umask 022 for this process and the services it starts."""
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def open_dir(path: Path) -> Path:
    path.mkdir()
    path.chmod(0o755)
    return path


def modes(data_dir: Path) -> dict[str, str]:
    """The permission bits of each of the database's files, as octal text."""
    return {
        name: oct(stat.S_IMODE((data_dir / name).stat().st_mode))
        for name in FILES
        if (data_dir / name).exists()
    }


def test_the_database_and_its_wal_and_shm_are_created_0600(tmp_path: Path) -> None:
    from console.service.store import Store

    data_dir = open_dir(tmp_path / "data")
    with umask(0o022):
        store = Store(data_dir)
        try:
            store.create_tenant("Private")  # a write: the WAL and its index exist now
            found = modes(data_dir)
        finally:
            store.close()
    assert set(found) == set(FILES), found
    assert set(found.values()) == {"0o600"}, found


def test_files_left_readable_by_an_older_release_are_tightened(tmp_path: Path) -> None:
    from console.service.store import Store

    data_dir = tmp_path / "data"
    store = Store(data_dir)
    store.create_tenant("Old")
    for name in FILES:  # as an older release left them, the service still running
        (data_dir / name).chmod(0o644)
    other = Store(data_dir)
    try:
        assert set(modes(data_dir).values()) == {"0o600"}, modes(data_dir)
    finally:
        other.close()
        store.close()


def warnings_in(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "other users" in line]


def test_new_tenant_warns_once_about_an_open_data_dir(tmp_path: Path) -> None:
    data_dir = open_dir(tmp_path / "data")
    with umask(0o022):
        result = subprocess.run(
            [sys.executable, "-m", "console", "new-tenant", "--data-dir", str(data_dir), "T"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 0, result.stderr
    assert set(json.loads(result.stdout)) == {"tenant_id", "application_id", "key"}
    warned = warnings_in(result.stderr)
    assert len(warned) == 1 and str(data_dir) in warned[0] and "0755" in warned[0], result.stderr
    assert set(modes(data_dir).values()) == {"0o600"}, modes(data_dir)


def test_serve_warns_once_about_an_open_data_dir_and_keeps_its_files_private(
    tmp_path: Path,
) -> None:
    running = RunningService(tmp_path)
    open_dir(running.data_dir)
    with umask(0o022):
        running.start()
    try:
        response = httpx.get(
            f"{running.base_url}/tenants/self", headers={"SVC-API-KEY": running.key}
        )
        assert response.status_code == 200
        found = modes(running.data_dir)
        assert set(found) == set(FILES) and set(found.values()) == {"0o600"}, found
    finally:
        running.stop()
    assert len(warnings_in(running.logs()[1])) == 1, running.logs()[1]


def test_a_private_data_dir_gets_no_warning(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"  # created by the command itself: 0700
    result = subprocess.run(
        [sys.executable, "-m", "console", "new-tenant", "--data-dir", str(data_dir), "T"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert result.stderr == ""
