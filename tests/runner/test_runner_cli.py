"""`tenant-console run`: JSON on stdout, logs on stderr, exit 0 / 1 / 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
    ],
    ids=["bad-json", "missing-file", "bad-timeout", "parameter-check"],
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


def test_an_unknown_kind_is_a_usage_error(tmp_path: Path) -> None:
    code, request = _files(tmp_path, GOOD, {})
    with pytest.raises(SystemExit) as exit_info:
        main(["run", code, "--request", request, "--kind", "reactor"])
    assert exit_info.value.code == 2
