"""Issue 33: `export -o` never replaces a file it did not create in this run (exit 2, the
file's bytes unchanged) unless --force."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from console.cli import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_export_onto_the_keys_file_apply_wrote_is_refused(tenants, tmp_path: Path, capsys) -> None:
    exported = tmp_path / "staging.json"
    assert run(capsys, "export", "--profile", "staging", "-o", str(exported))[0] == 0
    keys = tmp_path / "keys.json"
    code, _out, err = run(
        capsys, "apply", str(exported), "--profile", "prod", "--yes", "--keys-out", str(keys)
    )
    assert code == 0, err
    written = keys.read_bytes()
    files = sorted(tmp_path.iterdir())
    assert json.loads(written)["keys"]  # the new applications' keys, shown nowhere else

    code, out, err = run(capsys, "export", "--profile", "prod", "-o", str(keys))
    assert code == 2, (out, err)
    assert f"{keys} already exists; it is left as it is" in err and "--force" in err
    assert keys.read_bytes() == written
    assert out == ""
    assert sorted(tmp_path.iterdir()) == files  # no temporary file left either

    # --force replaces it, as asked, readable by its owner only.
    code, _out, err = run(capsys, "export", "--profile", "prod", "-o", str(keys), "--force")
    assert code == 0, err
    assert json.loads(keys.read_text())["format"].startswith("tenant-console/configuration")
    assert stat.S_IMODE(keys.stat().st_mode) == 0o600


@pytest.mark.parametrize("what", ["link", "fifo", "folder"])
def test_export_refuses_a_link_a_pipe_or_a_folder_there(tenants, tmp_path, capsys, what) -> None:
    precious = tmp_path / "precious.txt"
    precious.write_text("mine\n")
    target = tmp_path / "out.json"
    if what == "link":
        target.symlink_to(precious)
    elif what == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
    before = os.lstat(target)
    code, _out, err = run(capsys, "export", "--profile", "staging", "-o", str(target))
    assert code == 2, err
    assert "already exists" in err and "Traceback" not in err
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert precious.read_text() == "mine\n"
