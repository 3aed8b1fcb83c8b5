"""`tenant-console push` against the real local service: formulas and transforms, the
lost-update guard, ambiguous names, read-only mode, exit codes and `--watch`."""

from __future__ import annotations

import asyncio
import io
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from console.cli import build_parser, main
from console.code_files.cli import run_push
from console.code_files.push import CodePusher, ConcurrentChange, find_target

OLD = "module.exports = async (req) => ({ raw: req.args });\n"
NEW = "module.exports = async (req) => {\n  return { raw: req.args, tokenize: {} };\n};\n"


async def make_formula(client: Any, name: str = "Card", code: str = OLD) -> Any:
    return await client.reactor_formulas.create(
        {
            "name": name,
            "type": "private",
            "code": code,
            "configuration": [{"name": "region", "type": "string"}],
            "request_parameters": [{"name": "card.number", "type": "string"}],
        }
    )


async def make_proxy(client: Any, name: str = "Edge") -> Any:
    return await client.proxies.create(
        {
            "name": name,
            "destination_url": "https://api.example.com",
            "configuration": {"region": "eu"},
            "request_transform": {"code": OLD},
        }
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


async def push(*argv: str) -> int:
    """`main(["push", ...])` off the event loop (it runs its own)."""
    return await asyncio.to_thread(main, ["push", *argv])


async def test_push_a_formula_keeps_every_other_field(client, push_env, tmp_path, capsys):
    formula = await make_formula(client)
    code = write(tmp_path / "card.js", NEW)
    assert await push("formula", "Card", "--code", str(code)) == 0
    out = capsys.readouterr().out
    assert 'Pushed card.js to the formula "Card"' in out
    stored = await client.reactor_formulas.get(formula.id)
    assert stored.code == NEW
    assert [c.name for c in stored.configuration] == ["region"]
    assert [p.name for p in stored.request_parameters] == ["card.number"]
    # The same code again sends nothing.
    assert await push("formula", "Card", "--code", str(code)) == 0
    assert "already holds card.js's code; nothing pushed" in capsys.readouterr().out
    assert (await client.reactor_formulas.get(formula.id)).modified_at == stored.modified_at


async def test_push_a_request_transform(client, push_env, tmp_path, capsys):
    proxy = await make_proxy(client)
    code = write(tmp_path / "t.js", NEW)
    assert await push("transform", "Edge", "--field", "response", "--code", str(code)) == 0
    stored = await client.proxies.get(proxy.id)
    assert stored.response_transform.code == NEW
    assert stored.request_transform.code == OLD  # the other transform is left alone
    assert stored.configuration == {"region": "eu"}
    assert stored.destination_url == "https://api.example.com"
    assert 'response transform of proxy "Edge"' in capsys.readouterr().out


async def test_a_concurrent_change_is_refused_and_a_second_push_overwrites(
    service, tenant, client, tmp_path
):
    formula = await make_formula(client)
    target = await find_target(client, "formula", "Card")
    pusher = CodePusher(client, target)
    # Someone else changes the formula after the push read it.
    await client.reactor_formulas.update(
        formula.id,
        {"name": "Card", "type": "private", "code": "module.exports = () => 'theirs';\n"},
    )
    with pytest.raises(ConcurrentChange) as refused:
        await pusher.push(NEW, source="card.js")
    assert "changed by someone else" in str(refused.value)
    assert "-module.exports = () => 'theirs';" in refused.value.diff
    assert (await client.reactor_formulas.get(formula.id)).code.endswith("'theirs';\n")
    # Their version is now the base: pushing again overwrites it, knowingly.
    outcome = await pusher.push(NEW, source="card.js")
    assert outcome.pushed and outcome.obj.code == NEW


async def test_ambiguous_and_missing_names_are_refused(client, push_env, tmp_path, capsys):
    first = await make_formula(client, "Twin")
    second = await make_formula(client, "Twin")
    code = write(tmp_path / "c.js", NEW)
    assert await push("formula", "Twin", "--code", str(code)) == 1
    err = capsys.readouterr().err
    assert '2 formulas are named "Twin"; not pushed to any' in err
    assert str(first.id) in err and str(second.id) in err
    assert await push("formula", "twin", "--code", str(code)) == 1
    assert "Did you mean 'Twin'?" in capsys.readouterr().err
    for formula in (first, second):
        assert (await client.reactor_formulas.get(formula.id)).code == OLD


async def test_an_official_formula_and_read_only_mode_are_refused(
    client, push_env, tmp_path, capsys
):
    official = next(
        f for f in (await client.reactor_formulas.list(size=100)).data if f.type == "official"
    )
    code = write(tmp_path / "c.js", NEW)
    assert await push("formula", official.name, "--code", str(code)) == 1
    assert "only the tenant's private formulas" in capsys.readouterr().err
    await make_formula(client)
    assert (
        await asyncio.to_thread(
            main, ["--read-only", "push", "formula", "Card", "--code", str(code)]
        )
        == 1
    )
    assert "Read-only mode: pushing is refused." in capsys.readouterr().err


async def test_usage_errors_exit_2(push_env, tmp_path, capsys):
    code = write(tmp_path / "c.js", NEW)
    assert await push("transform", "Edge", "--code", str(code)) == 2
    assert "--field request or --field response" in capsys.readouterr().err
    assert await push("formula", "Card", "--field", "request", "--code", str(code)) == 2
    assert await push("formula", "Card", "--code", str(tmp_path / "missing.js")) == 2
    assert "There is no file at" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["push", "widget", "Card", "--code", str(code)])
    assert exit_.value.code == 2


async def test_a_service_refusal_exits_1(client, push_env, tmp_path, capsys):
    await make_formula(client)
    code = write(tmp_path / "c.js", "x" * 50_001)  # over the service's limit on code
    # --force: past the console's own code check (no module.exports), to the service's refusal
    assert await push("formula", "Card", "--code", str(code), "--force") == 1
    assert "Not pushed" in capsys.readouterr().err


def wait_for(predicate: Any, what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


class Lines(io.StringIO):
    """Output a watch writes from its thread, read by the test as it comes."""

    def text(self) -> str:
        return self.getvalue()


async def test_watch_pushes_on_save_and_refuses_a_concurrent_change(client, push_env, tmp_path):
    formula = await make_formula(client)
    path = write(tmp_path / "card.js", NEW)
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
        await asyncio.to_thread(wait_for, lambda: out.text().count("Pushed") == 1, "first push")
        assert (await client.reactor_formulas.get(formula.id)).code == NEW
        third = NEW.replace("tokenize: {}", "tokenize: { a: 1 }")
        write(path, third)
        await asyncio.to_thread(wait_for, lambda: out.text().count("Pushed") == 2, "second push")
        assert (await client.reactor_formulas.get(formula.id)).code == third
        # Someone else changes it on the server; the next save is refused, the watch goes on.
        await client.reactor_formulas.update(
            formula.id, {"name": "Card", "type": "private", "code": "module.exports = 1;\n"}
        )
        write(path, third + "// mine\n")
        await asyncio.to_thread(
            wait_for, lambda: "changed by someone else" in err.text(), "refusal"
        )
        assert "Save the file again to push over their version" in err.text()
        assert (await client.reactor_formulas.get(formula.id)).code == "module.exports = 1;\n"
        write(path, third + "// mine, knowingly\n")
        await asyncio.to_thread(wait_for, lambda: out.text().count("Pushed") == 3, "overwrite")
        assert (await client.reactor_formulas.get(formula.id)).code.endswith("knowingly\n")
    finally:
        stop.set()
        await asyncio.to_thread(watcher.join, 15)
    assert result == [0]


async def test_watch_stops_after_max_polls(client, push_env, tmp_path):
    await make_formula(client)
    path = write(tmp_path / "card.js", OLD)
    args = build_parser().parse_args(
        ["push", "formula", "Card", "--code", str(path), "--watch", "--interval", "0.01"]
    )
    out, err = Lines(), Lines()
    code = await asyncio.to_thread(run_push, args, max_polls=3, out=out, err=err)
    assert code == 0
    assert "nothing pushed" in out.text() and "Watching" in err.text()


def test_the_update_sends_back_unknown_fields_with_only_the_code_replaced():
    """Fields the console does not know (the hosted service's own) go back as they came."""
    from console.code_files.push import PushTarget
    from console.models import Proxy, ReactorFormula

    formula = ReactorFormula.model_validate(
        {
            "id": "6f1c5a52-5a2e-4a57-9d55-1c1b2f0c9a10",
            "name": "Card",
            "type": "private",
            "code": OLD,
            "configuration": [{"name": "region", "type": "string", "secret": True}],
            "request_parameters": [],
            "state": "published",
        }
    )
    body = PushTarget("formula", None, formula).body(formula, NEW)
    assert body["code"] == NEW and body["state"] == "published"
    assert body["configuration"][0]["secret"] is True
    proxy = Proxy.model_validate(
        {
            "id": "6f1c5a52-5a2e-4a57-9d55-1c1b2f0c9a11",
            "name": "Edge",
            "destination_url": "https://api.example.com",
            "request_transform": {"code": OLD},
            "response_transform": {
                "type": "mask",
                "matcher": "chase_stratus_pan",
                "replacement": "*",
            },
            "timeout_ms": 3000,
        }
    )
    body = PushTarget("transform", "request_transform", proxy).body(proxy, NEW)
    assert body["request_transform"] == {"code": NEW}
    assert body["response_transform"] == {
        "type": "mask",
        "matcher": "chase_stratus_pan",
        "replacement": "*",
    }
    assert body["timeout_ms"] == 3000


async def test_ctrl_c_stops_a_watch_with_exit_0(client, push_env, tmp_path):
    """The real command in its own process: Ctrl-C (SIGINT) ends the watch cleanly."""
    import os
    import signal
    import subprocess
    import sys

    await make_formula(client)
    path = write(tmp_path / "card.js", NEW)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "console",
            "push",
            "formula",
            "Card",
            "--code",
            str(path),
            "--watch",
            "--interval",
            "0.05",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
        # As at a terminal: Ctrl-C's signal at its default, even when this test runs in a
        # background job (which starts with SIGINT ignored, and Python keeps it so).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout is not None
        line = await asyncio.to_thread(process.stdout.readline)  # the first push's line
        assert 'Pushed card.js to the formula "Card"' in line
        process.send_signal(signal.SIGINT)
        _out, err = await asyncio.to_thread(process.communicate, timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "Stopped." in err and "Traceback" not in err


# -- reactors and pipelines (issue 35) -------------------------------------------------------


async def make_reactor(client: Any, name: str = "Enricher") -> Any:
    return await client.reactors.create(
        {"name": name, "code": OLD, "configuration": {"API_KEY": "reactor-secret-5e4d"}}
    )


async def test_push_a_reactor_sends_a_merge_patch_of_its_code_alone(
    client, push_env, tmp_path, capsys
):
    reactor = await make_reactor(client)
    code = write(tmp_path / "reactor.js", NEW)
    assert await push("reactor", "Enricher", "--code", str(code)) == 0
    assert 'Pushed reactor.js to the reactor "Enricher"' in capsys.readouterr().out
    stored = await client.reactors.get(reactor.id)
    assert stored.code == NEW and stored.configuration == {"API_KEY": "reactor-secret-5e4d"}
    assert await push("reactor", "Enricher", "--code", str(code)) == 0
    assert "already holds reactor.js's code; nothing pushed" in capsys.readouterr().out
    assert await push("reactor", "Nobody", "--code", str(code)) == 1
    assert 'No reactor is named "Nobody"' in capsys.readouterr().err
    assert await push("reactor", "Enricher", "--field", "request", "--code", str(code)) == 2


async def test_a_concurrent_change_to_a_reactor_is_refused(client, push_env, tmp_path):
    reactor = await make_reactor(client)
    target = await find_target(client, "reactor", "Enricher")
    pusher = CodePusher(client, target)
    await client.reactors.patch(reactor.id, {"code": "module.exports = async () => ({});\n"})
    with pytest.raises(ConcurrentChange) as refused:
        await pusher.push(NEW)
    assert any("module.exports = async () => ({});" in line for line in refused.value.diff)
    assert (await pusher.push(NEW)).pushed  # their version is the base now


async def test_a_transform_push_keeps_the_other_sides_pipeline(client, push_env, tmp_path):
    proxy = await client.proxies.create(
        {
            "name": "Piped",
            "destination_url": "https://api.example.com",
            "request_transforms": [{"code": OLD}],
            "response_transforms": [{"code": OLD}, {"code": OLD}],
        }
    )
    code = write(tmp_path / "t.js", NEW)
    assert await push("transform", "Piped", "--field", "request", "--code", str(code)) == 0
    stored = await client.proxies.get(proxy.id)
    assert [s.code for s in stored.request_transforms] == [NEW]
    assert [s.code for s in stored.response_transforms] == [OLD, OLD]
    assert await push("transform", "Piped", "--field", "response", "--code", str(code)) == 1
    stored = await client.proxies.get(proxy.id)
    assert [s.code for s in stored.response_transforms] == [OLD, OLD]


async def test_push_reactor_option_names_the_reactor_as_the_issue_words_it(
    client, push_env, tmp_path, capsys
):
    reactor = await make_reactor(client)
    code = write(tmp_path / "reactor.js", NEW)
    assert await push("--reactor", "Enricher", "--code", str(code)) == 0
    assert 'Pushed reactor.js to the reactor "Enricher"' in capsys.readouterr().out
    assert (await client.reactors.get(reactor.id)).code == NEW


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--code", "f.js"], "required: KIND NAME (or --reactor NAME)"),
        (["reactor", "--code", "f.js"], "required: NAME"),
        (["reactor", "E", "--reactor", "E", "--code", "f.js"], "not both"),
        (["formula", "--reactor", "E", "--code", "f.js"], "not both"),
    ],
)
def test_push_with_both_or_neither_target_is_a_usage_error(argv, says, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["push", *argv])
    assert exit_info.value.code == 2
    assert says in capsys.readouterr().err


async def test_a_transform_push_keeps_the_timeout_and_detokenization(client, push_env, tmp_path):
    proxy = await client.proxies.create(
        {
            "name": "Slow",
            "destination_url": "https://api.example.com",
            "request_transform": {"code": OLD},
            "timeout": 12,
            "disable_detokenization": True,
        }
    )
    code = write(tmp_path / "t.js", NEW)
    assert await push("transform", "Slow", "--field", "request", "--code", str(code)) == 0
    stored = await client.proxies.get(proxy.id)
    assert stored.request_transform is not None and stored.request_transform.code == NEW
    assert (stored.timeout, stored.disable_detokenization) == (12, True)
