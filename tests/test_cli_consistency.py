"""One command line: `run` and `push` take the code file the same way (`--code FILE`); every
option of `serve` and `new-tenant` has help and a default, and `new-tenant` defaults to
`serve`'s data directory."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from console.cli import build_parser, main, parse_arguments


def sub_parser(name: str) -> argparse.ArgumentParser:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


def test_run_and_push_both_take_the_code_file_as_code() -> None:
    run = parse_arguments(["run", "--code", "f.js", "--request", "r.json"])
    push = parse_arguments(["push", "formula", "F", "--code", "f.js"])
    assert run.code == push.code == "f.js"
    assert parse_arguments(["run", "f.js", "--request", "r.json"]).code == "f.js"  # as before


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["run", "--request", "r.json"], "required: --code FILE"),
        (["run", "a.js", "--code", "b.js", "--request", "r.json"], "give the code file once"),
    ],
)
def test_run_without_or_with_two_code_files_is_a_usage_error(
    argv: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        parse_arguments(argv)
    assert exit_info.value.code == 2
    assert says in capsys.readouterr().err


def test_run_with_code_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = tmp_path / "double.js"
    code.write_text("module.exports = (req) => ({ raw: { n: req.args.n * 2 } });\n")
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"args": {"n": 21}, "configuration": {}}))
    argv = ["run", "--code", str(code), "--request", str(request), "--engine", "embedded"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["value"] == {"raw": {"n": 42}}


@pytest.mark.parametrize("command", ["serve", "new-tenant", "accept-invitation"])
def test_every_option_has_help_naming_its_default(command: str) -> None:
    for action in sub_parser(command)._actions:
        if isinstance(action, argparse._HelpAction) or not action.option_strings:
            continue
        assert action.help, f"{command} {action.option_strings[0]} has no help"
        assert "default" in action.help, f"{command} {action.option_strings[0]}: no default"


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME moves the data dir on Linux")
def test_new_tenant_defaults_to_serves_data_directory(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TENANT_CONSOLE_")}
    env["XDG_DATA_HOME"] = str(tmp_path)  # platformdirs' user data directory on Linux
    done = subprocess.run(
        [sys.executable, "-m", "console", "new-tenant", "Default Dir"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == {"tenant_id", "application_id", "key"}
    assert (tmp_path / "tenant-console").is_dir()
