"""Test-runs inside the sandbox, on both engines: the protections the result names, one
memory limit for everything the code allocates, the consent an unisolated run needs, and
no engine process left when `run` is killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from runner_support import ENGINES, FORMULA_REQUEST
from sandbox_support import (
    MECHANISMS,
    Targets,
    alive,
    command_line,
    cpu_seconds,
    descendants,
    wait_for,
)

from console.cli import main
from console.runner import run_code
from console.runner.sandbox import NoBoundary

SIX_BIG_ARRAYS = (
    "module.exports = function () {\n"
    "  const kept = [];\n"
    "  for (let i = 0; i < 6; i++) kept.push(new Uint8Array(256 * 1024 * 1024).fill(1));\n"
    "  return { raw: { arrays: kept.length } };\n"
    "};\n"
)
SOME_ARRAYS = (
    "module.exports = function () {\n"
    "  const kept = [];\n"
    "  for (let i = 0; i < 4; i++) kept.push(new Uint8Array(8 * 1024 * 1024).fill(1));\n"
    "  return { raw: { arrays: kept.length } };\n"
    "};\n"
)
LOOKS_AROUND = (
    "module.exports = function () {\n"
    "  const found = [];\n"
    "  for (const name of Object.getOwnPropertyNames(globalThis)) found.push(name);\n"
    "  let env = 'none';\n"
    "  try { env = JSON.stringify(globalThis.process.env); } catch (e) {}\n"
    "  console.log(found.join(','), env);\n"
    "  return { raw: { env } };\n"
    "};\n"
)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_result_names_the_protections_in_force(engine: str) -> None:
    result = run_code(
        "module.exports = () => ({ raw: {} });",
        FORMULA_REQUEST,
        "formula",
        engine=engine,  # type: ignore[arg-type]
        memory_mb=96,
        timeout=3,
    )
    assert result.ok, result.message
    assert result.isolated
    said = "\n".join(result.protections)
    assert "network: none" in said
    assert "processes: own pid namespace" in said
    assert "files: read-only minimal root" in said
    assert "environment: empty" in said
    assert "memory: 96 MB" in said
    assert "time: 3 s, then the process is killed" in said


@pytest.mark.parametrize("mechanism", MECHANISMS)
@pytest.mark.parametrize("engine", ENGINES)
def test_each_mechanism_runs_both_engines_and_names_itself(
    engine: str, mechanism: str, mechanism_is: Callable[[str], None]
) -> None:
    mechanism_is(mechanism)
    result = run_code(SOME_ARRAYS, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.ok, result.message
    how = "bubblewrap" if mechanism == "bwrap" else "kernel namespaces"
    assert f"network: none (own network namespace, {how})" in result.protections
    too_much = run_code(SIX_BIG_ARRAYS, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert too_much.status == "memory", too_much.message


@pytest.mark.parametrize("engine", ENGINES)
def test_six_256_mb_typed_arrays_are_stopped_at_the_memory_limit(engine: str) -> None:
    """The limit is the process's, not the JavaScript heap's: buffers count too."""
    result = run_code(SIX_BIG_ARRAYS, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "memory", result.message
    assert result.message == "Stopped: the code used more than the memory limit (128 MB)."


@pytest.mark.parametrize("engine", ENGINES)
def test_typed_arrays_within_the_limit_still_work(engine: str) -> None:
    result = run_code(SOME_ARRAYS, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.ok, result.message
    assert result.value == {"raw": {"arrays": 4}}


@pytest.mark.parametrize("engine", ENGINES)
def test_a_key_in_the_console_s_environment_never_reaches_the_code(
    engine: str, targets: Targets
) -> None:
    result = run_code(LOOKS_AROUND, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.ok, result.message
    assert result.value == {"raw": {"env": "none"}}
    targets.assert_untouched(json.dumps(result.to_json()))


@pytest.mark.parametrize("engine", ENGINES)
def test_without_a_boundary_nothing_runs_unless_allowed(
    engine: str, mechanism_is: Callable[[str], None]
) -> None:
    mechanism_is("none")
    code = "module.exports = () => ({ raw: {} });"
    with pytest.raises(NoBoundary, match="No operating-system sandbox can be had here"):
        run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    result = run_code(
        code,
        FORMULA_REQUEST,
        "formula",
        engine=engine,  # type: ignore[arg-type]
        allow_unisolated=True,
    )
    assert result.ok, result.message
    assert not result.isolated
    assert result.protections[0].startswith("no OS boundary: turned off")
    assert "environment: empty" in result.protections


def _files(tmp_path: Path, code: str) -> tuple[str, str]:
    code_file = tmp_path / "code.js"
    code_file.write_text(code, encoding="utf-8")
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(FORMULA_REQUEST), encoding="utf-8")
    return str(code_file), str(request_file)


def test_run_without_a_boundary_exits_2_and_names_the_flag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mechanism_is: Callable[[str], None]
) -> None:
    mechanism_is("none")
    code, request = _files(tmp_path, "module.exports = () => ({ raw: {} });")
    assert main(["run", code, "--request", request, "--engine", "embedded"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "No operating-system sandbox can be had here" in err
    assert "Nothing was run" in err
    assert "--allow-unisolated" in err


def test_run_with_allow_unisolated_runs_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mechanism_is: Callable[[str], None]
) -> None:
    mechanism_is("none")
    code, request = _files(tmp_path, "module.exports = () => ({ raw: {} });")
    argv = ["run", code, "--request", request, "--engine", "embedded", "--allow-unisolated"]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["isolated"] is False
    assert "warning: the code ran without an operating-system sandbox" in err


def test_run_prints_the_protections(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, request = _files(tmp_path, "module.exports = () => ({ raw: {} });")
    assert main(["run", code, "--request", request, "--engine", "embedded"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["isolated"] is True
    assert "  sandbox: network: none" in err
    assert "  sandbox: environment: empty" in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("engine", ENGINES)
def test_killing_run_leaves_no_engine_process(engine: str, tmp_path: Path) -> None:
    code, request = _files(tmp_path, "module.exports = () => { for (;;) {} };")
    marker = "embedded_child.py" if engine == "embedded" else "node"
    run = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from console.cli import main; sys.exit(main(sys.argv[1:]))",
            *("run", code, "--request", request, "--engine", engine, "--timeout", "120"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:

        def engines() -> list[int]:
            return [pid for pid in descendants(run.pid) if marker in command_line(pid)]

        # Busy in the code's loop (more CPU than its start-up takes), not waiting for input:
        # an engine that only waits would end anyway when its input closes.
        wait_for(lambda: any(cpu_seconds(pid) > 1.0 for pid in engines()), "the code to run")
        below = descendants(run.pid)
        os.kill(run.pid, signal.SIGKILL)
        run.wait()
        wait_for(lambda: not any(alive(pid) for pid in below), "the engine process to end", 10)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("engine", ENGINES)
def test_an_engine_process_started_ahead_dies_with_the_console(engine: str) -> None:
    """The run screen keeps a spare engine process; a console that is killed leaves none."""
    marker = "embedded_child.py" if engine == "embedded" else "node"
    script = (
        "import time; from console.runner import prepare_runs; "
        f"prepare_runs({engine!r}); time.sleep(600)"
    )
    console = subprocess.Popen([sys.executable, "-c", script])
    try:

        def spare_started() -> bool:
            return any(marker in command_line(pid) for pid in descendants(console.pid))

        wait_for(spare_started, "the spare engine process")
        below = descendants(console.pid)
        os.kill(console.pid, signal.SIGKILL)
        console.wait()
        wait_for(lambda: not any(alive(pid) for pid in below), "the spare to end", 10)
    finally:
        if console.poll() is None:
            console.kill()
            console.wait()
