"""Issue 22/23: `push` runs the forms' code check first (refuses broken code with exit 1,
`--force` sends it anyway), reads only a regular file of at most 1 MB, and watches at a
positive interval; against the real local service."""

from __future__ import annotations

import asyncio
import io
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from console.cli import build_parser, main
from console.code_files.cli import run_push

GOOD = "module.exports = async (req) => ({ raw: req.args });\n"
BROKEN = "module.exports = async (req) => {\n  return { raw: req.args ;\n};\n"
NO_EXPORT = "async function handler(req) {\n  return req;\n}\n"


async def make_formula(client: Any, name: str = "Card") -> Any:
    return await client.reactor_formulas.create({"name": name, "type": "private", "code": GOOD})


async def push(*argv: str) -> int:
    return await asyncio.to_thread(main, ["push", *argv])


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("code", "said"),
    [(BROKEN, "has 1 syntax error (first at"), (NO_EXPORT, "never assigns module.exports")],
)
async def test_broken_code_is_refused_with_exit_1_and_nothing_is_sent(
    client, push_env, tmp_path, capsys, code, said
):
    formula = await make_formula(client)
    path = write(tmp_path / "card.js", code)
    assert await push("formula", "Card", "--code", str(path)) == 1
    err = capsys.readouterr().err
    assert "Not pushed" in err and said in err and "--force" in err
    stored = await client.reactor_formulas.get(formula.id)
    assert stored.code == GOOD
    assert stored.modified_at == formula.modified_at


async def test_a_transform_with_a_syntax_error_is_refused_too(client, push_env, tmp_path, capsys):
    proxy = await client.proxies.create(
        {"name": "Edge", "destination_url": "https://api.example.com"}
    )
    path = write(tmp_path / "t.js", BROKEN)
    assert await push("transform", "Edge", "--field", "request", "--code", str(path)) == 1
    assert "syntax error" in capsys.readouterr().err
    assert (await client.proxies.get(proxy.id)).request_transform is None


async def test_force_sends_broken_code_and_says_what_is_wrong(client, push_env, tmp_path, capsys):
    formula = await make_formula(client)
    path = write(tmp_path / "card.js", BROKEN)
    assert await push("formula", "Card", "--code", str(path), "--force") == 0
    captured = capsys.readouterr()
    assert captured.err.count("Pushing anyway (--force)") == 1, "said once"
    assert "syntax error" in captured.err
    assert "Pushed card.js" in captured.out
    assert (await client.reactor_formulas.get(formula.id)).code == BROKEN


class Lines(io.StringIO):
    def text(self) -> str:
        return self.getvalue()


def wait_for(predicate: Any, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


async def test_watch_skips_a_broken_save_and_pushes_the_fixed_one(client, push_env, tmp_path):
    formula = await make_formula(client)
    path = write(tmp_path / "card.js", BROKEN)
    args = build_parser().parse_args(
        ["push", "formula", "Card", "--code", str(path), "--watch", "--interval", "0.02"]
    )
    stop, out, err = threading.Event(), Lines(), Lines()
    result: list[int] = []
    watcher = threading.Thread(
        target=lambda: result.append(run_push(args, stop=stop, out=out, err=err))
    )
    watcher.start()
    try:
        await asyncio.to_thread(wait_for, lambda: "Not pushed" in err.text(), "the refusal")
        assert "syntax error" in err.text()
        assert (await client.reactor_formulas.get(formula.id)).code == GOOD
        fixed = GOOD.replace("raw", "fixed")
        write(path, fixed)
        await asyncio.to_thread(wait_for, lambda: "Pushed" in out.text(), "the fixed push")
        assert (await client.reactor_formulas.get(formula.id)).code == fixed
    finally:
        stop.set()
        await asyncio.to_thread(watcher.join, 15)
    assert result == [0]


# ---- what --code may name ---------------------------------------------------------------


async def test_a_device_is_refused_as_not_a_regular_file(push_env, capsys):
    assert await push("formula", "Card", "--code", os.devnull) == 2
    assert "not a regular file" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
async def test_a_named_pipe_is_refused_without_waiting_for_a_writer(push_env, tmp_path, capsys):
    pipe = tmp_path / "code.js"
    os.mkfifo(pipe)
    assert await asyncio.wait_for(push("formula", "Card", "--code", str(pipe)), 30) == 2
    assert "not a regular file" in capsys.readouterr().err


async def test_a_folder_and_a_file_over_1_mb_are_refused(push_env, tmp_path, capsys):
    assert await push("formula", "Card", "--code", str(tmp_path)) == 2
    assert "is a folder, not a file" in capsys.readouterr().err
    big = tmp_path / "big.js"
    big.write_bytes(b"// " + b"x" * 1_000_000 + b"\n")
    assert await push("formula", "Card", "--code", str(big)) == 2
    assert "bytes are refused" in capsys.readouterr().err


@pytest.mark.parametrize("interval", ["0", "-1", "nan", "inf", "soon"])
def test_watch_interval_must_be_a_positive_number(interval, tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["push", "formula", "Card", "--code", "c.js", "--watch", "--interval", interval])
    assert exit_.value.code == 2
    assert "--interval" in capsys.readouterr().err
