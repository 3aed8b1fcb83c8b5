"""`tenant-console reactors list|show|react` and `run --reactor` against the local service:
output, masked configuration, exit codes, errors on stderr, the async poll."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from console.cli import main

CODE = (
    "module.exports = async function (req) {\n  return { raw: { doubled: req.args.n * 2 } };\n};\n"
)
THROWS = "module.exports = async function () {\n  throw new Error('card declined');\n};\n"
SECRET = "reactor-secret-1c2d3e4f"


async def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = await asyncio.to_thread(main, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


async def make(client: Any, name: str = "Doubler", code: str = CODE) -> Any:
    return await client.reactors.create(
        {"name": name, "code": code, "configuration": {"API_KEY": SECRET}}
    )


def request_file(tmp_path: Path, data: Any) -> str:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


async def test_list_as_a_table_and_as_json(client, cli_env, capsys) -> None:
    made = await make(client)
    code, out, _ = await cli(capsys, "reactors", "list")
    assert code == 0
    assert out.splitlines()[0].split() == ["NAME", "STATE", "IMAGE", "ID"]
    assert "Doubler" in out and "active" in out and str(made.id) in out
    code, out, _ = await cli(capsys, "reactors", "list", "--format", "json")
    assert code == 0 and SECRET not in out
    (listed,) = json.loads(out)
    assert listed["name"] == "Doubler" and listed["configuration"] == {"API_KEY": "***"}


async def test_show_says_configuration_names_never_values(client, cli_env, capsys) -> None:
    made = await make(client)
    code, out, _ = await cli(capsys, "reactors", "show", "Doubler")
    assert code == 0
    assert "State:         active" in out
    assert "Configuration: API_KEY (values not shown)" in out and SECRET not in out
    code, out, _ = await cli(capsys, "reactors", "show", str(made.id), "--format", "json")
    assert code == 0 and json.loads(out)["configuration"] == {"API_KEY": "***"}
    code, out, err = await cli(capsys, "reactors", "show", "Nobody")
    assert (code, out) == (3, "")
    assert err == 'tenant-console reactors: no reactor is named "Nobody".\n'


async def test_react_prints_the_answer(client, cli_env, capsys, tmp_path) -> None:
    await make(client)
    request = request_file(tmp_path, {"args": {"n": 21}})
    code, out, err = await cli(capsys, "reactors", "react", "Doubler", "--request", request)
    assert code == 0, err
    assert json.loads(out)["raw"] == {"doubled": 42}
    # The args alone are taken as args too.
    bare = request_file(tmp_path, {"n": 2})
    code, out, _ = await cli(capsys, "reactors", "react", "Doubler", "--request", bare)
    assert code == 0 and json.loads(out)["raw"] == {"doubled": 4}


async def test_react_async_polls_until_done(client, cli_env, capsys, tmp_path) -> None:
    await make(client)
    request = request_file(tmp_path, {"args": {"n": 5}})
    code, out, err = await cli(
        capsys, "reactors", "react", "Doubler", "--request", request, "--async", "--wait", "30"
    )
    assert code == 0, err
    assert json.loads(out)["raw"] == {"doubled": 10}
    assert "Started: request" in err


async def test_a_failing_react_exits_1_with_the_error_on_stderr(
    client, cli_env, capsys, tmp_path
) -> None:
    await make(client, "Thrower", THROWS)
    request = request_file(tmp_path, {"args": {}})
    for extra in ((), ("--async",)):
        code, out, err = await cli(
            capsys, "reactors", "react", "Thrower", "--request", request, *extra
        )
        assert (code, out) == (1, "")
        said = err.splitlines()[-1]
        assert said.startswith("tenant-console reactors: Reactor Runtime Error: ")
        assert "card declined" in said and "(500)" in said


async def test_usage_and_refusals(client, cli_env, capsys, tmp_path) -> None:
    await make(client)
    missing = str(tmp_path / "missing.json")
    code, _, err = await cli(capsys, "reactors", "react", "Doubler", "--request", missing)
    assert code == 2 and "does not exist" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = await cli(capsys, "reactors", "react", "Doubler", "--request", str(bad))
    assert code == 2 and "not JSON" in err
    request = request_file(tmp_path, {"args": {}})
    # A react changes no object: allowed in read-only mode, as in the console.
    code, out, _ = await cli(
        capsys, "--read-only", "reactors", "react", "Doubler", "--request", request
    )
    assert code == 0 and "raw" in json.loads(out)
    code, _, err = await cli(capsys, "reactors", "react", "Nobody", "--request", request)
    assert code == 3


async def test_run_a_reactors_code_locally(client, cli_env, capsys, tmp_path) -> None:
    await make(client)
    request = request_file(tmp_path, {"args": {"n": 4}, "configuration": {}})
    code, out, err = await cli(
        capsys, "run", "--reactor", "Doubler", "--request", request, "--engine", "embedded"
    )
    assert code == 0, err
    assert json.loads(out)["value"] == {"raw": {"doubled": 8}}
    code, _, err = await cli(capsys, "run", "--reactor", "Nobody", "--request", request)
    assert code == 2 and 'no reactor is named "Nobody"' in err


async def test_search_finds_reactors(client, cli_env, capsys) -> None:
    await make(client)
    code, out, _ = await cli(capsys, "search", "Doub", "--kind", "reactors", "--format", "json")
    assert code == 0
    (found,) = json.loads(out)["results"]
    assert (found["kind"], found["name"]) == ("reactors", "Doubler")
