"""Start-up stays light: `--help` and `serve` never load Textual, the console never loads the
service. Each check runs in a fresh interpreter, so nothing this test session imported counts.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from local_service import RunningService

SERVICE_ONLY = ("console.service", "fastapi", "uvicorn", "starlette")
NOT_AT_START = (
    "console.tui.screens.detail",
    "console.tui.screens.help",
    "console.tui.screens.profiles",
    "console.tui.screens.welcome",
    "console.tui.screens.overview",
    "console.estate",
    "console.journal",  # the change journal opens with the client, after the first rows
    "console.tui.forms",
    "console.tui.modals",
    "console.tui.widgets.tenant_view",
    "console.tui.widgets.usage_view",
    "console.tui.widgets.usage_dashboard",
    "console.tui.widgets.usage_gauge",
    "console.tui.widgets.usage_chart",
    "console.tui.palette.usage_commands",
    # issue 28: the usage history is read after the first rows, its charts with the section
    "console.tui.widgets.usage_history",
    "console.usage_history",
    "textual_plotext",
    "plotext",
    "console.tui.widgets.code_editor",
    # issue 35: the Reactors section's screens, the reactor model and the code surfaces'
    # probe load with the section or the client, after the first rows
    "console.tui.screens.react",
    "console.models.reactors",
    "console.client.code_surfaces",
    "console.tui.screens.review",
    "console.tui.screens.holders",
    "console.tui.screens.tenant_walk",
    # The console screen's palette providers come through factories, on the palette's first use.
    "console.tui.palette.list_commands",
    "console.tui.palette.review_commands",
    "console.tui.palette.command_list",
    "console.client.review",
    "console.client.review_export",
    # `run` is declared in console.cli; building the parser must not load the runner.
    "console.runner",
    "pygments",
    "tree_sitter",
    "rich.syntax",
    # The first page comes through console.client.plain_get; the client loads after it.
    "httpx",
    "httpcore",
    "anyio",
    "pydantic",
    "pydantic_core",
    # The models package itself loads its names lazily; only its light contract module
    # (the key header) may come before the first rows.
    "console.models.common",
    "console.models.applications",
    "console.models.formulas",
    "console.models.permissions",
    "console.models.proxies",
    "console.models.tenants",
    "console.models.errors",
    "console.models.round_trip",
    "console.client.client",
    "console.client.resources",
    # Issue 27: the page walker, the budget and the local index load with the client, after
    # the first rows; the index (and SQLite) in a thread once the client exists.
    "console.client.walk",
    "console.client.budget",
    "console.client.index",
    "console.client.find",
    "sqlite3",
)
"""What the console needs only once the admin opens it: not imported before the first rows."""


def _python(code: str, *, env: dict[str, str] | None = None, timeout: float = 90) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def _is(module: str, *roots: str) -> bool:
    return any(module == root or module.startswith(root + ".") for root in roots)


def test_help_loads_neither_textual_nor_the_service() -> None:
    code = (
        "import contextlib, io, json, sys\n"
        "from console.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "assert 'usage: tenant-console' in out.getvalue()\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    loaded = json.loads(_python(code))
    assert "console.cli" in loaded
    assert [m for m in loaded if _is(m, "textual", "console.tui", *SERVICE_ONLY)] == []
    assert [m for m in loaded if _is(m, "console.runner")] == []  # `run` declared in console.cli


def test_serve_loads_no_textual_while_it_starts_and_answers(tmp_path: Path) -> None:
    """`serve` under `-X importtime`: every import it made, up to answering requests."""
    command = [sys.executable, "-X", "importtime", "-m", "console", "serve", "--port", "0"]
    command += ["--data-dir", str(tmp_path / "data")]
    stdout_path, stderr_path = tmp_path / "out.log", tmp_path / "err.log"
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        process = subprocess.Popen(command, stdout=out, stderr=err, env=os.environ)
    try:
        deadline = time.monotonic() + 30
        while not re.search(r"^Listening on (\S+)$", stdout_path.read_text(), re.MULTILINE):
            assert process.poll() is None, stderr_path.read_text()[-3000:]
            assert time.monotonic() < deadline, "the service did not start"
            time.sleep(0.05)  # polling a log file with a deadline
        text = stdout_path.read_text()
        base_url = re.search(r"^Listening on (\S+)$", text, re.MULTILINE).group(1)  # type: ignore[union-attr]
        key = re.search(r"^  API key: (\S+)$", text, re.MULTILINE).group(1)  # type: ignore[union-attr]
        for path in ("/permissions", "/applications", "/tenants/self"):
            response = httpx.get(base_url + path, headers={"SVC-API-KEY": key}, timeout=30)
            assert response.status_code == 200, response.text
    finally:
        process.terminate()
        process.wait(15)
    imported = re.findall(
        r"^import time:\s+\d+ \|\s+\d+ \|\s*(\S+)$", stderr_path.read_text(), re.M
    )
    assert "uvicorn" in imported and "console.service.server" in imported
    assert [m for m in imported if _is(m, "textual", "console.tui")] == []


def test_the_console_loads_no_part_of_the_service(service: RunningService, tmp_path: Path) -> None:
    """The console, opened the way `tenant-console` opens it (profile from the environment),
    shows its rows and visits every section without importing the service; up to its first
    rows it imports none of the screens, sections and editors it has not shown yet."""
    tenant = service.new_tenant("Import hygiene")
    http = httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": tenant.key})
    with http:
        body = {"name": "Hygiene app", "type": "private", "permissions": ["token:read"]}
        assert http.post("/applications", json=body).status_code == 201
    code = """
import asyncio, json, sys, time
from console.cli import build_parser
from console.tui.start import launch
from console.tui.app import TenantConsoleApp

from console.tui.widgets.resource_list import ResourceList

at_first_rows = []
show_page = ResourceList.show_page

def recording_show_page(self, page, fetched):
    if not at_first_rows:  # what is loaded when the first rows are put on screen
        at_first_rows.append(sorted(sys.modules))
    show_page(self, page, fetched)

ResourceList.show_page = recording_show_page

def shows_rows(app):
    lists = app.screen.query(ResourceList) if app.console_screen is app.screen else []
    return any(listing.id == "applications" and listing.items for listing in lists)

async def run():
    args = build_parser().parse_args([])
    app = TenantConsoleApp(profile_name=args.profile, read_only=args.read_only)
    async with app.run_test(size=(120, 40)) as pilot:
        deadline = time.monotonic() + 30
        while not shows_rows(app):
            assert time.monotonic() < deadline, "no rows"
            await pilot.pause(0.05)
        print(json.dumps(at_first_rows[0]))
        from console.tui.browse.sections import SECTIONS

        for key in [*(s.hotkey for s in SECTIONS[1:]), "1"]:  # every section
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()

asyncio.run(run())
print(json.dumps(sorted(sys.modules)))
"""
    env = {
        "TENANT_CONSOLE_BASE_URL": service.base_url,
        "TENANT_CONSOLE_API_KEY": tenant.key,
        "TENANT_CONSOLE_CONFIG_DIR": str(tmp_path / "config"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    *_, at_first_rows, at_end = _python(code, env=env).strip().splitlines()
    loaded = json.loads(at_end)
    assert "textual" in loaded and "console.tui.app" in loaded
    assert [m for m in loaded if _is(m, *SERVICE_ONLY)] == []
    assert "console.tui.widgets.usage_view" in loaded  # the sections were visited
    at_start = json.loads(at_first_rows)
    assert (
        "console.tui.widgets.resource_list" in at_start and "console.client.plain_get" in at_start
    )
    assert [m for m in at_start if _is(m, *NOT_AT_START)] == []


def test_the_charts_load_only_when_the_usage_section_opens(
    service: RunningService, tmp_path: Path
) -> None:
    """textual-plotext (and plotext, ~17 ms) come with the Usage section (issue 28): not at
    the first rows, not with the other sections, not with the header's usage history."""
    tenant = service.new_tenant("Chart hygiene")
    code = """
import asyncio, json, sys
from console.cli import build_parser
from console.tui.app import TenantConsoleApp

def charts():
    return sorted(m for m in sys.modules if m.split(".")[0] in ("textual_plotext", "plotext"))

async def run():
    app = TenantConsoleApp(profile_name=build_parser().parse_args([]).profile)
    async with app.run_test(size=(120, 40)) as pilot:
        for key in "12345":
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        await app.workers.wait_for_complete()
        history = "console.usage_history.recorder" in sys.modules
        before = charts()
        from console.tui.browse.sections import SECTIONS_BY_KEY

        await pilot.press(SECTIONS_BY_KEY["usage"].hotkey)
        await app.workers.wait_for_complete()
        await pilot.pause()
        print(json.dumps([history, before, charts()]))

asyncio.run(run())
"""
    env = {
        "TENANT_CONSOLE_BASE_URL": service.base_url,
        "TENANT_CONSOLE_API_KEY": tenant.key,
        "TENANT_CONSOLE_CONFIG_DIR": str(tmp_path / "config"),
        "TENANT_CONSOLE_DATA_DIR": str(tmp_path / "data"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    history, before, after = json.loads(_python(code, env=env).strip().splitlines()[-1])
    assert history  # the header kept its report: the recorder was loaded by then
    assert before == []
    assert "textual_plotext" in after and "plotext" in after


def test_the_early_start_begins_before_asyncio_loads() -> None:
    """What `tenant-console` runs before it starts the first page's request (the CLI, the log
    file, the profile check, the early start) does not import asyncio: its ~25 ms import is
    then Textual's, overlapping the request instead of delaying it (issue 15)."""
    code = (
        "import json, sys\n"
        "from console.cli import build_parser\n"
        "build_parser().parse_args([])\n"
        "import console.tui.start.launch, console.tui.base.logs, console.profiles.resolve\n"
        "import console.tui.base.connection, console.tui.browse.first_page\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    loaded = json.loads(_python(code))
    assert "console.tui.browse.first_page" in loaded
    assert [m for m in loaded if _is(m, "asyncio", "textual", "console.runner")] == []


def test_the_collector_pauses_while_the_console_imports(tmp_path: Path) -> None:
    """`tenant-console` imports with cyclic collection off, and before the app runs it freezes
    what the imports made and turns collection back on (issue 15: up to a ~12 ms full
    collection before the first rows); a profile error leaves it on too."""
    code = (
        "import gc, json\n"
        "from console.cli import build_parser\n"
        "from console.tui.start import launch\n"
        "from console.tui.app import TenantConsoleApp\n"
        "seen = {}\n"
        "def run(self):\n"
        "    seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count())\n"
        "TenantConsoleApp.run = run\n"
        "gc.unfreeze()\n"
        "code = launch.open_console(build_parser().parse_args([]))\n"
        "bad = launch.open_console(build_parser().parse_args(['--profile', 'nowhere']))\n"
        "print(json.dumps([code, seen, bad, gc.isenabled()]))\n"
    )
    env = {
        "TENANT_CONSOLE_CONFIG_DIR": str(tmp_path / "config"),
        "PYTHON_KEYRING_BACKEND": "keyring.backends.null.Keyring",
    }
    code_, seen, bad, enabled_after = json.loads(_python(code, env=env).strip().splitlines()[-1])
    assert code_ == 0 and seen["enabled"] and seen["frozen"] > 10_000
    assert bad == 1 and enabled_after


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--read-only"],
        ["--profile", "demo"],
        ["--profile=staging", "--read-only"],
        ["--read-only", "--profile", "a b"],
        ["demo", "--read-only"],
        ["status"],
        ["--prof", "x"],
    ],
)
def test_opening_the_console_parses_as_the_whole_parser(argv: list[str]) -> None:
    """The console's launch skips declaring the sub-commands (issue 15: ~2 ms) yet reads its
    options exactly as the whole command line's parser does."""
    from console.cli import build_parser, parse_arguments

    assert vars(parse_arguments(argv)) == vars(build_parser().parse_args(argv))


@pytest.mark.parametrize("argv", [["--profile"], ["--profile", "--read-only"], ["nonsense"]])
def test_a_console_launch_error_is_the_whole_parser_s(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    from console.cli import build_parser, parse_arguments

    with pytest.raises(SystemExit) as ours:
        parse_arguments(argv)
    mine = capsys.readouterr().err
    with pytest.raises(SystemExit) as whole:
        build_parser().parse_args(argv)
    assert ours.value.code == whole.value.code == 2
    assert (mine == capsys.readouterr().err and "invalid choice" in mine) or "expected" in mine
