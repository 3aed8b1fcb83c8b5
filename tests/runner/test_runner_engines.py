"""Formula and transform code run on both engines: shapes, errors with their place, logs,
limits, the sandbox, and the bt stand-in."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from runner_support import (
    ENGINES,
    FORMULA_REQUEST,
    NODE_MISSING,
    SPIN_LIMIT,
    SPIN_LIMIT_SAID,
    TRANSFORM_REQUEST,
)

from console.runner import run_code

pytestmark = pytest.mark.parametrize("engine", ENGINES)


def test_a_formula_that_returns_the_contract_shape(engine: str) -> None:
    code = (
        "module.exports = async function (req) {\n"
        "  const { args, configuration } = req;\n"
        "  return { raw: { last4: args.card.number.slice(-4) }, tokenize: { data: args.card } };\n"
        "};\n"
    )
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "ok", result.message
    assert result.value == {
        "raw": {"last4": "4242"},
        "tokenize": {"data": {"number": "4242424242424242"}},
    }
    assert result.engine == engine
    assert result.engine_ms is not None and result.engine_ms >= 0
    if engine == "embedded":
        assert any("Node's built-in modules" in note for note in result.notes)


def test_a_formula_that_returns_the_wrong_shape(engine: str) -> None:
    code = "module.exports = function (req) { return { raw: 'plain text' }; };"
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "bad_shape"
    assert result.shape_problems == ["raw must be an object, not string."]


def test_nothing_returned_is_the_wrong_shape(engine: str) -> None:
    code = "module.exports = function () {};"
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "bad_shape"
    assert "returned nothing" in result.shape_problems[0]


def test_a_thrown_error_has_its_line_and_column(engine: str) -> None:
    code = (
        "module.exports = function (req) {\n"
        "  const card = req.args.missing;\n"
        "  return { raw: { n: card.number } };\n"
        "};\n"
    )
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "threw"
    assert result.error is not None
    assert result.error.name == "TypeError"
    assert (result.error.line, result.error.column) == (3, 27)
    assert "line 3, column 27" in result.message
    assert result.error.frames and "code.js:3:27" in result.error.frames[0]


def test_a_rejected_promise_is_a_thrown_error(engine: str) -> None:
    code = "module.exports = async function () {\n\n  throw new RangeError('too big');\n};"
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "threw"
    assert result.error is not None
    assert (result.error.name, result.error.message) == ("RangeError", "too big")
    assert (result.error.line, result.error.column) == (3, 9)


def test_a_syntax_error_has_its_line_and_column(engine: str) -> None:
    code = "module.exports = function (req) {\n  return { raw: req.args } }\n  oops here;\n};\n"
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "syntax"
    assert result.error is not None
    assert (result.error.line, result.error.column) == (3, 8)


def test_an_export_that_is_not_a_function(engine: str) -> None:
    result = run_code(
        "module.exports = { handler() {} };",
        FORMULA_REQUEST,
        "formula",
        engine=engine,  # type: ignore[arg-type]
    )
    assert result.status == "no_function"
    assert "module.exports is object" in result.message


def test_logs_are_captured_by_level(engine: str) -> None:
    code = (
        "module.exports = function (req) {\n"
        "  console.log('args', req.args, 3);\n"
        "  console.warn('careful');\n"
        "  console.error(new Error('bad'));\n"
        "  return { raw: {} };\n"
        "};\n"
    )
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "ok"
    assert [(line.level, line.text.splitlines()[0]) for line in result.logs] == [
        ("log", 'args {"card":{"number":"4242424242424242"}} 3'),
        ("warn", "careful"),
        ("error", "Error: bad"),
    ]


@pytest.mark.parametrize(
    "code",
    [
        "module.exports = function () { while (true) {} };",
        "module.exports = async function () { while (true) { await null; } };",
    ],
    ids=["loop", "promise-loop"],
)
def test_an_endless_loop_is_stopped_at_the_time_limit(engine: str, code: str) -> None:
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine, timeout=SPIN_LIMIT)  # type: ignore[arg-type]
    assert result.status == "timeout"
    assert result.message == f"Stopped: the code ran past {SPIN_LIMIT_SAID}."
    assert result.total_ms < 4000


def test_unbounded_allocation_is_stopped_at_the_memory_limit(engine: str) -> None:
    code = (
        "module.exports = function () {\n"
        "  const kept = [];\n"
        "  while (true) kept.push(new Array(100000).fill(kept.length));\n"
        "};\n"
    )
    result = run_code(
        code,
        FORMULA_REQUEST,
        "formula",
        engine=engine,  # type: ignore[arg-type]
        memory_mb=64,
        timeout=10,
    )
    assert result.status == "memory"
    assert "memory limit (64 MB)" in result.message


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("return require('fs').readFileSync('/etc/passwd', 'utf8');", 'require("fs") is refused'),
        ("return require('net').connect(80, 'example.com');", 'require("net") is refused'),
        ("return require('child_process').execSync('id');", 'require("child_process")'),
        ("return process.binding('fs');", "process is not defined"),
        ("return globalThis.constructor.constructor('return process')().pid;", "process"),
        ("return this.constructor.constructor('return process')().env;", "process"),
        ("return fetch('https://example.com');", "fetch is not defined"),
        ("return new WebSocket('wss://example.com');", "WebSocket is not defined"),
    ],
    ids=["file", "socket", "process", "binding", "global-escape", "this-escape", "fetch", "ws"],
)
def test_files_network_and_processes_are_refused(engine: str, body: str, expected: str) -> None:
    code = f"module.exports = function () {{\n  {body}\n}};\n"
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "threw", result.value
    assert result.error is not None
    assert expected in result.error.message
    assert result.error.line == 2


def test_no_host_object_is_reachable(engine: str) -> None:
    code = (
        "module.exports = function () {\n"
        "  const seen = {};\n"
        "  for (const name of ['process', 'require', 'fetch', 'WebSocket', 'Buffer',\n"
        "                      'XMLHttpRequest', 'global', 'module']) {\n"
        "    seen[name] = typeof globalThis[name];\n"
        "  }\n"
        "  seen.escape = typeof globalThis.constructor.constructor('return this')().process;\n"
        "  return { raw: seen };\n"
        "};\n"
    )
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "ok", result.message
    assert set(result.value["raw"].values()) == {"undefined"}


def test_a_transform_gets_body_headers_and_configuration(engine: str) -> None:
    code = (
        "module.exports = async function (req) {\n"
        "  const { body, headers } = req.args;\n"
        "  headers['x-key'] = req.configuration.KEY;\n"
        "  return { body: { ...body, seen: typeof req.bt }, headers };\n"
        "};\n"
    )
    result = run_code(code, TRANSFORM_REQUEST, "transform", engine=engine)  # type: ignore[arg-type]
    assert result.status == "ok", result.message
    assert result.value == {
        "body": {"card_number": "4242", "seen": "undefined"},
        "headers": {"content-type": "application/json", "x-key": "value"},
    }


def test_a_transform_that_forgets_the_headers(engine: str) -> None:
    code = "module.exports = function (req) { return { body: req.args.body }; };"
    result = run_code(code, TRANSFORM_REQUEST, "transform", engine=engine)  # type: ignore[arg-type]
    assert result.status == "bad_shape"
    assert result.shape_problems == ["headers is missing: the proxied message would have none."]


def test_bt_calls_are_recorded_and_answer_fake_tokens(engine: str) -> None:
    code = (
        "module.exports = async function (req) {\n"
        "  const token = await req.bt.tokens.create({ type: 'card', data: req.args.body });\n"
        "  const again = await req.bt.tokens.retrieve(token.id);\n"
        "  const other = await req.bt.tokenize({ a: 1 }, 'second');\n"
        "  const same = again.id === token.id;\n"
        "  return { body: { token, same, other }, headers: req.args.headers };\n"
        "};\n"
    )
    result = run_code(
        code,
        TRANSFORM_REQUEST,
        "transform",
        engine=engine,  # type: ignore[arg-type]
        with_bt=True,
    )
    assert result.status == "ok", result.message
    token = result.value["body"]["token"]
    assert token["id"] == "00000000-0000-4000-8000-000000000001"
    assert (token["type"], token["data"]) == ("card", {"card_number": "4242"})
    assert token["containers"] == ["/general/high/"] and token["fingerprint"]
    assert result.value["body"]["same"] is True and result.value["body"]["other"] is None
    assert [(call.method, call.args) for call in result.calls] == [
        ("tokens.create", [{"type": "card", "data": {"card_number": "4242"}}]),
        ("tokens.retrieve", ["00000000-0000-4000-8000-000000000001"]),
        ("tokenize", [{"a": 1}, "second"]),
    ]


def test_bt_retrieve_answers_the_samples_tokens_and_404s_others(engine: str) -> None:
    card = {"type": "card", "data": {"number": "4111111111111111"}}
    request = {**TRANSFORM_REQUEST, "bt": {"tokens": {"tok-1": card}}}
    code = (
        "module.exports = async function (req) {\n"
        "  const card = await req.bt.tokens.retrieve('tok-1');\n"
        "  const seen = Object.keys(req).sort().join(',');\n"
        "  try { await req.bt.tokens.retrieve('tok-2'); } catch (e) {\n"
        "    const missing = e.message;\n"
        "    return { body: { number: card.data.number, seen, missing }, headers: {} };\n"
        "  }\n"
        "};\n"
    )
    result = run_code(code, request, "transform", engine=engine, with_bt=True)  # type: ignore[arg-type]
    assert result.status == "ok", result.message
    body = result.value["body"]
    assert body["number"] == "4111111111111111"
    assert body["seen"] == "args,bt,configuration"  # bt is the stand-in, not the sample's data
    assert body["missing"].startswith('bt.tokens.retrieve: no token "tok-2" in this test-run (404)')


@pytest.mark.parametrize(
    ("fixtures", "problem"),
    [
        ("tokens", "bt must be an object"),
        ({"tokens": []}, "bt.tokens must be an object"),
        ({"tokens": {"t": "card"}}, "bt.tokens.t must be a token object"),
    ],
)
def test_a_malformed_bt_in_the_sample_is_refused_before_running(
    fixtures: object, problem: str, engine: str
) -> None:
    request = {**TRANSFORM_REQUEST, "bt": fixtures}
    code = "module.exports = (req) => ({ body: {}, headers: {} });"
    result = run_code(code, request, "transform", engine=engine, with_bt=True)  # type: ignore[arg-type]
    assert result.status == "bad_request"
    assert any(p.startswith(problem) for p in result.request_problems), result.request_problems


def test_a_promise_that_never_settles(engine: str) -> None:
    code = "module.exports = function () { return new Promise(() => {}); };"
    result = run_code(code, FORMULA_REQUEST, "formula", engine=engine, timeout=2)  # type: ignore[arg-type]
    assert result.status == "never_settled"


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
@pytest.mark.parametrize(
    "script",
    [
        "require('fs').readFileSync('/etc/passwd')",
        "require('child_process').execSync('id')",
        "new (require('worker_threads').Worker)('1', { eval: true })",
    ],
    ids=["file", "process", "worker"],
)
def test_the_node_process_itself_is_denied_files_processes_and_workers(
    engine: str, script: str
) -> None:
    """Behind the vm context, the Node process runs under the permission model: even the
    host side could not read a file or start a process or a worker."""
    if engine != "node":
        pytest.skip("the permission model is Node's")
    from console.runner.engines import Job, NodeEngine

    command = NodeEngine().command(Job(code="", request={}, kind="formula"))
    command[command.index("-e") + 1] = script
    finished = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert finished.returncode != 0
    assert "ERR_ACCESS_DENIED" in finished.stderr


ORDINARY_CODE = """
module.exports = async function (req) {
  'use strict';
  const out = {};
  class A { constructor() { this.x = 1; } toString() { return 'A'; } }
  class B extends A { constructor() { super(); this.constructor = B; this.toString = () => 'B'; } }
  out.cls = String(new B()) + String(new A());
  function F() {} F.prototype.valueOf = function () { return 42; }; out.proto = +new F();
  out.assign = Object.assign({}, { toString: 1, hasOwnProperty: 2 }).toString;
  out.spread = { ...{ a: 1 }, constructor: 3 }.constructor;
  out.re = 'a-b-c'.replace(/-/g, '+') + 'x1y2'.match(/\\d/g).join('')
    + [...'abc'.matchAll(/./g)].length;
  out.json = JSON.parse('{"a":[1,2]}', (k, v) => (typeof v === 'number' ? v * 2 : v));
  out.date = new Date(0).toISOString();
  out.intl = new Intl.NumberFormat('en-US').format(1234.5);
  out.map = [...new Map([[1, 2]]).entries()];
  out.set = [...new Set([1, 1, 2])];
  out.typed = Array.from(new Uint8Array([1, 2]));
  out.gen = [...(function* () { yield 1; yield 2; })()];
  out.asyncgen = [];
  for await (const v of (async function* () { yield 3; })()) out.asyncgen.push(v);
  const err = new TypeError('t'); err.code = 'E1'; err.message = 'changed';
  out.err = [err.code, err.message, err.name];
  class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; } }
  out.myerr = String(new MyErr('m'));
  out.sorted = [3, 1, 2].sort((a, b) => a - b);
  out.timer = await new Promise((r) => setTimeout(() => r('t'), 100));
  out.imm = await new Promise((r) => setImmediate(r, 'i'));
  const arr = [1, 2]; arr.length = 1; out.arr = arr;
  out.sym = typeof Symbol.asyncIterator;
  out.prom = await Promise.all([1, Promise.resolve(2)]);
  out.b64 = typeof btoa;
  out.obj = Object.entries({ a: 1 }).map(([k, v]) => k + v);
  out.getter = Object.getOwnPropertyDescriptor(Array.prototype, 'map') ? 'desc' : 'none';
  const o = Object.create(null); o.toString = 1; out.nullproto = o.toString;
  return { raw: out };
};
"""


def test_ordinary_code_runs_with_the_intrinsics_frozen(engine: str) -> None:
    """Frozen intrinsics (issue 22) keep what code usually does working: classes that set
    name, toString or constructor, prototypes of its own, assignments of names a built-in
    prototype has, timers (fired in order, without waiting), async generators."""
    result = run_code(ORDINARY_CODE, FORMULA_REQUEST, "formula", engine=engine)  # type: ignore[arg-type]
    assert result.status == "ok", result.message
    assert result.value["raw"] == {
        "cls": "BA",
        "proto": 42,
        "assign": 1,
        "spread": 3,
        "re": "a+b+c123",
        "json": {"a": [2, 4]},
        "date": "1970-01-01T00:00:00.000Z",
        "intl": "1,234.5",
        "map": [[1, 2]],
        "set": [1, 2],
        "typed": [1, 2],
        "gen": [1, 2],
        "asyncgen": [3],
        "err": ["E1", "changed", "TypeError"],
        "myerr": "MyErr: m",
        "sorted": [1, 2, 3],
        "timer": "t",
        "imm": "i",
        "arr": [1],
        "sym": "symbol",
        "prom": [1, 2],
        "b64": "undefined",
        "obj": ["a1"],
        "getter": "desc",
        "nullproto": 1,
    }


@pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
@pytest.mark.parametrize("flag", ["--frozen-intrinsics", "--experimental-vm-modules"])
def test_the_node_host_refuses_to_run_without_its_flags(engine: str, flag: str) -> None:
    """Without frozen host intrinsics a leaked host object lets the code plant getters the
    host runs later; without the vm-modules flag import() rejects with a host error: the host
    script refuses rather than run the code less isolated (issue 22)."""
    if engine != "node":
        pytest.skip("the flags are Node's")
    import json

    from console.runner.engines import Job, NodeEngine

    command = NodeEngine().command(Job(code="", request={}, kind="formula"))
    command.remove(flag)
    job = {
        "code": "module.exports = () => ({ raw: {} });",
        "request": {},
        "kind": "formula",
        "with_bt": False,
        "timeout_ms": 2000,
    }
    finished = subprocess.run(
        command, input=json.dumps(job), capture_output=True, text=True, timeout=30
    )
    report = json.loads(finished.stdout)
    assert report["status"] == "host_error"
    assert f"runs without {flag}; the run is refused" in report["error"]["message"]


def test_the_node_script_carrying_the_harness_fits_in_one_argument(engine: str) -> None:
    """The harness comes with node_host.js on the command line (so that a spare process sets
    it up before its job arrives): Linux refuses an argument over 128 KiB, and the sandbox's
    launcher gets the command inside one JSON argument."""
    if engine != "node":
        pytest.skip("the script is Node's")
    import json

    from console.runner.engines import node_script

    script = node_script()
    assert script.startswith('"use strict";\nconst HARNESS = ')
    assert len(json.dumps({"argv": [script]}).encode("utf-8")) < 100 * 1024
