"""The archive's setting (`archive_retention_days` in the preferences) and a file that is not
an archive: refused, never replaced, and said by the command line."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from console.audit.archive import archive_path, configured_keep_days
from console.cli import main
from console.profiles.preferences import Preferences, load_preferences, save_preferences


def test_the_days_kept_are_a_preference(tmp_path: Path) -> None:
    assert configured_keep_days() == 400
    path = tmp_path / "preferences.toml"
    save_preferences(Preferences(theme="nord", archive_retention_days=30), path)
    assert "archive_retention_days = 30" in path.read_text()
    assert load_preferences(path).archive_retention_days == 30
    save_preferences(Preferences(theme="nord"), path)
    assert load_preferences(path).archive_retention_days == 400


@pytest.mark.parametrize("value", ["0", "-5", '"400"', "1.5", "100000"])
def test_a_bad_days_kept_means_the_default_and_is_logged(
    tmp_path: Path, value: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "preferences.toml"
    path.write_text(f'theme = "nord"\narchive_retention_days = {value}\n')
    with caplog.at_level(logging.WARNING):
        preferences = load_preferences(path)
    assert preferences.archive_retention_days == 400 and preferences.theme == "nord"
    assert "archive_retention_days" in caplog.text


async def test_a_file_that_is_not_an_archive_is_refused_and_kept(
    cli_env: Any, capsys: pytest.CaptureFixture[str], service: Any
) -> None:
    from urllib.parse import urlsplit

    port = urlsplit(service.base_url).port
    path = archive_path(f"env-127.0.0.1_{port}")
    path.parent.mkdir(parents=True, mode=0o700)
    path.write_bytes(b"not an archive " * 200)
    path.chmod(0o600)
    code = await asyncio.to_thread(main, ["logs", "--from-archive"])
    out, err = capsys.readouterr()
    assert (code, out) == (1, "")
    assert "cannot be read" in err
    code = await asyncio.to_thread(main, ["logs", "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0 and out == "[]\n"
    assert "warning: what is read is not archived" in err
    code = await asyncio.to_thread(main, ["logs", "--archive"])
    assert code == 1 and "cannot be opened" in capsys.readouterr().err
    assert path.read_bytes() == b"not an archive " * 200
