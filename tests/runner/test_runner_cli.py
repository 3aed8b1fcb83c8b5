"""`tenant-console run`: JSON on stdout, logs on stderr, exit 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from runner_support import ENGINES

from console.cli import main

GOOD = (
    "module.exports = async (req) => {\n"
    "  console.log('n is', req.args.n);\n"
    "  return { raw: { n: req.args.n * 2 } };\n"
    "};\n"
)
THROWS = "module.exports = (req) => {\n  return { raw: req.args.n.toFixed() };\n};\n"


def _files(tmp_path: Path, code: str, request: object) -> tuple[str, str]:
    code_file = tmp_path / "code.js"
    code_file.write_text(code, encoding="utf-8")
    request_file = tmp_path / "request.json"
    request_file.write_text(json.dumps(request), encoding="utf-8")
    return str(code_file), str(request_file)


def test_success_prints_the_result_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, request = _files(tmp_path, GOOD, {"args": {"n": 21}, "configuration": {}})
    assert main(["run", code, "--request", request, "--engine", "embedded"]) == 0
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["ok"] is True
    assert result["value"] == {"raw": {"n": 42}}
    assert result["engine"] == "embedded"
    assert "[log] n is 21" in err
    assert "logs" not in result


def test_a_thrown_error_exits_1_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, request = _files(tmp_path, THROWS, {"args": {}, "configuration": {}})
    assert main(["run", code, "--request", request, "--engine", "embedded"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "threw"
    assert (result["error"]["line"], result["error"]["column"]) == (2, 28)


def test_a_bad_shape_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, request = _files(
        tmp_path,
        "module.exports = (req) => ({ body: req.args.body });",
        {"args": {"body": {}, "headers": {}}, "configuration": {}},
    )
    argv = ["run", code, "--request", request, "--kind", "transform", "--engine", "embedded"]
    assert main(argv) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "bad_shape"


def test_the_time_limit_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, request = _files(tmp_path, "module.exports = () => { for (;;) {} };", {"args": {}})
    argv = ["run", code, "--request", request, "--timeout", "0.5", "--engine", "embedded"]
    assert main(argv) == 1
    assert json.loads(capsys.readouterr().out)["status"] == "timeout"


@pytest.mark.parametrize(
    ("request_text", "extra", "said"),
    [
        ("{not json", [], "the request file is not JSON"),
        (None, [], "does not exist"),
        ('{"args": {"n": 1}}', ["--timeout", "0"], "--timeout must be a positive"),
        ('{"args": {"n": "one"}}', ["--formula", "FORMULA"], "args.n must be a number"),
        ('{"args": {"n": 1}}', ["--timeout", "nan"], "--timeout must be a positive"),
        ('{"args": {"n": 1}}', ["--timeout", "inf"], "--timeout must be a positive"),
        ('{"args": {"n": 1}}', ["--timeout", "1e7"], "--timeout must be a positive"),
        ('{"args": {"n": 1}}', ["--memory", "99999999"], "--memory must be a positive"),
        ('{"args": {"n": [1, NaN]}}', [], "args.n[1]: a number JSON cannot carry"),
        ('{"args": {"n": {"m": 1e999}}}', [], "args.n.m: a number JSON cannot carry"),
        ('{"args": {"n": -Infinity}}', [], "args.n: a number JSON cannot carry"),
    ],
    ids=[
        "bad-json",
        "missing-file",
        "bad-timeout",
        "parameter-check",
        "timeout-nan",
        "timeout-inf",
        "timeout-huge",
        "memory-huge",
        "request-nan",
        "request-1e999",
        "request-infinity",
    ],
)
def test_bad_input_exits_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    request_text: str | None,
    extra: list[str],
    said: str,
) -> None:
    code, request = _files(tmp_path, GOOD, {})
    if request_text is None:
        Path(request).unlink()
    else:
        Path(request).write_text(request_text, encoding="utf-8")
    formula = tmp_path / "formula.json"
    formula.write_text(
        json.dumps({"name": "f", "request_parameters": [{"name": "n", "type": "number"}]}),
        encoding="utf-8",
    )
    extra = [str(formula) if part == "FORMULA" else part for part in extra]
    assert main(["run", code, "--request", request, "--engine", "embedded", *extra]) == 2
    out, err = capsys.readouterr()
    assert said in out + err
    assert "Traceback" not in out + err
    assert "without an operating-system sandbox" not in err  # nothing ran


def test_an_unknown_kind_is_a_usage_error(tmp_path: Path) -> None:
    code, request = _files(tmp_path, GOOD, {})
    with pytest.raises(SystemExit) as exit_info:
        main(["run", code, "--request", request, "--kind", "hook"])
    assert exit_info.value.code == 2


def test_a_reactor_kind_runs_with_its_result_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, request = _files(tmp_path, GOOD, {"args": {"n": 2}, "configuration": {}})
    argv = ["run", "--code", code, "--request", request, "--kind", "reactor"]
    assert main([*argv, "--engine", "embedded"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == {"raw": {"n": 4}}


def test_reactor_and_code_are_one_or_the_other(tmp_path: Path) -> None:
    code, request = _files(tmp_path, GOOD, {})
    for argv in (
        ["run", "--code", code, "--reactor", "R", "--request", request],
        ["run", "--reactor", "R", "--kind", "transform", "--request", request],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2


CONTROL = (
    "module.exports = async (req) => {\n"
    "  console.log('clip \\x1b]52;c;ZXZpbA==\\x07 clear \\x1b[2J\\x1b[H bell \\x07');\n"
    "  console.log('csi \\x9b31m cr \\roverwrite rlo \\u202e gnp.exe');\n"
    "  console.log('two\\nok: lines');\n"
    "  throw new Error('thrown \\x1b[31mred\\x1b[0m \\x1b]52;c;ZXZpbA==\\x07');\n"
    "};\n"
)
RETURNS_CONTROL = (
    "module.exports = () => ({ raw: { ['k\\x1b[2J']: 'v\\x1b]52;c;ZXZpbA==\\x07\\x9b\\x7f',"
    " nested: ['\\x1b[H\\u202e'] }, ['top\\x1b[2J']: 1 });\n"
)


@pytest.mark.parametrize("engine", ENGINES)
def test_control_characters_reach_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str
) -> None:
    """OSC 52 (clipboard), CSI (clear screen, colours), BEL, C1, CR and a bidi override in what
    the code logs, throws and returns are shown escaped; the JSON on stdout is the same data."""
    request = {"args": {}, "configuration": {}}
    code, request_file = _files(tmp_path, CONTROL, request)
    assert main(["run", code, "--request", request_file, "--engine", engine]) == 1
    out, err = capsys.readouterr()
    for stream in (out, err):
        assert not any(ch in stream for ch in "\x1b\x07\x9b\x7f\r\u202e")
    assert "[log] clip \\x1b]52;c;ZXZpbA==\\x07 clear \\x1b[2J\\x1b[H bell \\x07" in err
    assert "[log] csi \\x9b31m cr \\roverwrite rlo \\u202e gnp.exe" in err
    assert "[log] two\n    ok: lines" in err  # a line of the code's never passes for ours
    assert "failed: Error: thrown \\x1b[31mred\\x1b[0m" in err
    assert json.loads(out)["error"]["message"] == "thrown \x1b[31mred\x1b[0m \x1b]52;c;ZXZpbA==\x07"

    code, request_file = _files(tmp_path, RETURNS_CONTROL, request)
    assert main(["run", code, "--request", request_file, "--engine", engine]) == 0
    out, err = capsys.readouterr()
    assert not any(ch in out + err for ch in "\x1b\x07\x9b\x7f\u202e")
    assert json.loads(out)["value"] == {
        "raw": {"k\x1b[2J": "v\x1b]52;c;ZXZpbA==\x07\x9b\x7f", "nested": ["\x1b[H\u202e"]},
        "top\x1b[2J": 1,
    }
    assert "Not in the contract (the service ignores them): top\\u001b[2J" in out


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("value", "said"),
    [
        (
            "let o = {}; const root = { raw: o };"
            " for (let i = 0; i < 3000; i++) { o.a = {}; o = o.a; } return root;",
            "too deeply nested to show (the returned object is nested 3002 levels)",
        ),
        (
            "let o = []; for (let i = 0; i < 200000; i++) { o = [o]; }"
            " return { raw: { root: o } };",
            "too deeply nested to show",
        ),
        ("return { raw: { text: 'x'.repeat(6000000) } };", "too large to show"),
    ],
    ids=["3000-deep", "200000-deep", "large"],
)
def test_a_result_too_deep_or_too_large_is_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], engine: str, value: str, said: str
) -> None:
    code, request = _files(
        tmp_path, f"module.exports = () => {{ {value} }};", {"args": {}, "configuration": {}}
    )
    assert main(["run", code, "--request", request, "--engine", engine]) == 1
    out, err = capsys.readouterr()
    result = json.loads(out)
    assert result["status"] in ("too_deep", "too_large")
    assert result["value"] is None
    assert said in err
    assert "Traceback" not in err


def test_a_request_too_deep_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, request = _files(tmp_path, GOOD, {})
    Path(request).write_text('{"args": ' + "[" * 500 + "]" * 500 + "}", encoding="utf-8")
    assert main(["run", code, "--request", request, "--engine", "embedded"]) == 2
    out, err = capsys.readouterr()
    assert "The request is nested deeper than 100 levels." in out + err
    Path(request).write_text('{"args": ' + "[" * 100000 + "]" * 100000 + "}", encoding="utf-8")
    assert main(["run", code, "--request", request, "--engine", "embedded"]) == 2
    assert "the request file is nested too deeply to read" in capsys.readouterr().err
