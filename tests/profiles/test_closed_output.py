"""Every command ends quietly, with the status of a closed pipe (141), when the reader of its
output goes away (`tenant-console search x | head -1`): never a BrokenPipeError traceback,
whether it was printing line by line or flushing at the end. Real `python -m console`
processes against the local service, on a temp HOME and a test keyring."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from cli_sandbox import CliSandbox

from console.cli import HANDLERS
from console.closed_output import READER_GONE

pytestmark = pytest.mark.slow  # one console process a row

SETUP_TIMEOUT = 60

COMMANDS: list[list[str]] = [
    ["search", "Pipe"],
    ["search", "Pipe", "--format", "json"],
    ["keys", "list", "Pipe App"],
    ["keys", "list", "Pipe App", "--format", "json"],
    ["history"],
    ["history", "--format", "json"],
    ["usage"],
    ["usage", "--format", "csv"],
    ["usage", "--history"],
    ["usage", "--history", "--format", "json"],
    ["review"],
    ["export"],
    ["diff", "prod", "prod", "--all"],
    ["status"],
    ["profile", "list"],
    ["new-tenant", "--data-dir", "{data}", "Pipe New"],
    ["apply", "{config}", "--yes"],
    ["push", "formula", "Pipe Formula", "--code", "{code}"],
    ["undo", "2"],
    ["run", "--code", "{code}", "--request", "{request}", "--engine", "embedded"],
    ["reactors", "list"],
    ["reactors", "show", "Pipe Reactor", "--format", "json"],
    ["reactors", "react", "Pipe Reactor", "--request", "{request}"],
    ["members", "list"],
    ["members", "list", "--format", "json"],
    ["webhooks", "list"],
    ["webhooks", "list", "--format", "json"],
    ["webhooks", "event-types"],
    ["logs"],
    ["logs", "--format", "json"],
    ["logs", "--archive"],
    ["--help"],
    ["--version"],
    ["keys", "--help"],
    ["demo", "--help"],
    ["serve", "--help"],
    ["accept-invitation", "--help"],
    # `webhooks listen` writes a line per delivery and never ends by itself: its reader going
    # away is tested with deliveries in tests/webhooks/test_listen_register.py
    ["webhooks", "listen", "--help"],
]
"""At least one row for every command (test_every_command_has_a_row): each one writes to
standard output before it ends."""


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> CliSandbox:
    """One temp HOME, config dir and test keyring for the whole module (its setup runs
    several console processes: once, not once a row)."""
    root = tmp_path_factory.mktemp("closed-output")
    (root / "home").mkdir()
    return CliSandbox(
        root=root, config_dir=root / "config" / "tenant-console", keyring_file=root / "keyring"
    )


@pytest.fixture(scope="module")
def ready(service, sandbox: CliSandbox) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """A profile "prod" on a tenant holding an application, a formula, a reactor, a recorded usage
    snapshot and two journal entries; the files the rows name."""
    tmp_path = sandbox.root
    tenant = service.new_tenant("Pipe Tenant")
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": tenant.key}) as http:
        made = http.post(
            "/applications",
            json={"name": "Pipe App", "type": "private", "permissions": ["token:create"]},
        )
        assert made.status_code == 201, made.text
        formula = {"name": "Pipe Formula", "type": "private", "code": "module.exports = 1;"}
        made = http.post("/reactor-formulas", json=formula)
        assert made.status_code == 201, made.text
        reactor = {"name": "Pipe Reactor", "code": "module.exports = async () => ({ raw: 1 });"}
        made = http.post("/reactors", json=reactor)
        assert made.status_code == 201, made.text
        hook = {"name": "Pipe Hook", "url": "https://example.com/h", "events": ["token.created"]}
        made = http.post("/webhooks", json=hook)
        assert made.status_code == 201, made.text
    added = sandbox.run("profile", "add", "prod", "--base-url", service.base_url, stdin=tenant.key)
    assert added.code == 0, added.stderr
    assert sandbox.run("usage", "--record").code == 0
    made_key = sandbox.run("keys", "create", "Pipe App", "--key-out", str(tmp_path / "k.key"))
    assert made_key.code == 0, made_key.stderr
    code = tmp_path / "code.js"
    code.write_text("module.exports = () => ({ raw: { n: 2 } });\n")
    pushed = sandbox.run("push", "formula", "Pipe Formula", "--code", str(code))
    assert pushed.code == 0, pushed.stderr  # change 2, which `undo 2` can take back
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"args": {}, "configuration": {}}))
    config = tmp_path / "config.json"
    exported = sandbox.run("export")
    assert exported.code == 0, exported.stderr
    document = json.loads(exported.stdout)
    document["applications"].append(
        {"name": "Pipe Applied", "type": "private", "permissions": ["token:create"]}
    )
    config.write_text(json.dumps(document))
    return {"data": str(tmp_path / "new-data"), "config": str(config), "code": str(code)} | {
        "request": str(request)
    }


def _argv(row: list[str], files: dict[str, str]) -> list[str]:
    return [arg.format(**files) for arg in row]


def _run_reader_gone(sandbox, argv: list[str], *, buffered: bool, first_line: bool) -> tuple:  # type: ignore[no-untyped-def]
    """Runs the command with standard output a pipe whose reader goes away: at once, before
    the command writes (deterministic), or after reading its first line, the pipe shrunk to
    one page so that whatever follows (more than a page) cannot be written before the reader
    goes. (exit status, stderr, first line)."""
    read_end, write_end = os.pipe()
    if first_line:
        fcntl.fcntl(write_end, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)
    env = sandbox.env()
    env.pop("PYTHONUNBUFFERED", None)
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    with subprocess.Popen(
        [sys.executable, "-m", "console", *argv],
        stdin=subprocess.DEVNULL,
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=env,
        cwd=sandbox.root,
    ) as process:
        os.close(write_end)
        line = b""
        if first_line:  # a byte at a time, as head does: nothing beyond the line is read
            while not line.endswith(b"\n") and (byte := os.read(read_end, 1)):
                line += byte
        os.close(read_end)
        _, err = process.communicate(timeout=SETUP_TIMEOUT)
    return process.returncode, err.decode(errors="replace"), line


def _quiet(err: str) -> bool:
    return not any(s in err for s in ("Traceback", "BrokenPipe", "Exception ignored"))


def test_every_command_has_a_row() -> None:
    named = {row[0] for row in COMMANDS if not row[0].startswith("-")}
    assert named == {command for command in HANDLERS if command is not None}


BUFFERED = [["search", "Pipe"], ["keys", "list", "Pipe App"], ["history"], ["usage", "--history"]]
"""Rows run again without PYTHONUNBUFFERED: the output is written when the command ends, not
line by line, and the closed pipe is found there, still quietly."""


def _run_forked(sandbox, rows: list[dict[str, object]]) -> list[list[object]]:  # type: ignore[no-untyped-def]
    """Every row in a child forked from one console interpreter (closed_output_driver.py):
    one interpreter's start-up for the whole table instead of one a row."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("closed_output_driver.py"))],
        input=json.dumps(rows),
        capture_output=True,
        text=True,
        env=sandbox.env(),
        cwd=sandbox.root,
        timeout=SETUP_TIMEOUT * 3,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_reader_gone_before_the_first_line_ends_quietly(sandbox, ready) -> None:  # type: ignore[no-untyped-def]
    rows = [{"argv": _argv(row, ready), "buffered": False} for row in COMMANDS]
    rows += [{"argv": _argv(row, ready), "buffered": True} for row in BUFFERED]
    results = _run_forked(sandbox, rows)
    loud = {
        f"{' '.join(row['argv'])}{' (buffered)' if row['buffered'] else ''}": (code, err)
        for row, (code, err) in zip(rows, results, strict=True)
        if code != READER_GONE or not _quiet(err)
    }
    assert loud == {}


def test_head_dash_one_of_a_long_listing(service, sandbox, ready) -> None:  # type: ignore[no-untyped-def]
    """As `| head -1` does: the first line is read, then the reader goes; the rest of the
    listing (more than the pipe holds) is never written, and the command ends at once."""
    key = json.loads(sandbox.keyring_file.read_text())["tenant-console"]["prod"]
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": key}) as http:
        apps = http.get("/applications").json()["data"]
        app_id = next(app["id"] for app in apps if app["name"] == "Pipe App")
        for _ in range(80):  # 80 rows of 100 characters: twice a page
            assert http.post(f"/applications/{app_id}/keys").status_code == 201
    for buffered in (False, True):
        code, err, line = _run_reader_gone(
            sandbox, ["keys", "list", "Pipe App"], buffered=buffered, first_line=True
        )
        assert line.startswith(b"ID "), (line, err)
        assert _quiet(err), err
        assert code == READER_GONE, err


def test_a_broken_pipe_elsewhere_keeps_its_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the output's reader going away ends quietly: a pipe to anything else (an engine,
    a key command) that breaks is a fault, and is raised as one."""
    import console.cli

    def broken(argv: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(console.cli, "_run", broken)
    with pytest.raises(BrokenPipeError):
        console.cli.main(["history"])


def test_a_key_nobody_could_read_is_revoked(service, sandbox, ready) -> None:  # type: ignore[no-untyped-def]
    """`keys create APP` prints the key alone: when its reader is gone the key reached no
    one, so it is revoked again before the command ends (141)."""
    key = json.loads(sandbox.keyring_file.read_text())["tenant-console"]["prod"]

    def count() -> int:
        with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": key}) as http:
            apps = http.get("/applications").json()["data"]
            app_id = next(app["id"] for app in apps if app["name"] == "Pipe App")
            return len(http.get(f"/applications/{app_id}/keys").json())

    before = count()
    for buffered in (False, True):
        code, err, _ = _run_reader_gone(
            sandbox, ["keys", "create", "Pipe App"], buffered=buffered, first_line=False
        )
        assert _quiet(err), err
        assert code == READER_GONE and "revoked" in err, err
    assert count() == before
