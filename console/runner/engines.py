"""The two JavaScript engines a test-run can use, behind one call.

Node.js, when installed, is the service's own runtime: the code runs in a child process
under Node's permission model (no file system, child processes or workers), with a heap
limit, in a vm context that holds no `require`, `process`, `fetch` or any other host object.
Otherwise an embedded V8 (mini-racer, a dependency of the project) runs it in a fresh
isolate, in a child process of its own (embedded_child.py); it has no Node built-in modules
at all, which the result says.

On both, the harness (harness.js) freezes the sandbox's intrinsics and runs timers, finalizer
callbacks and the result's serialisation inside evaluations under the time limit; the Node
host (node_host.js) runs with its own intrinsics frozen and answers `import()` with an error
of the sandbox's realm. docs/test-run-hardening.md says what this does and does not do.

Either way the engine process runs inside the operating system's boundary (sandbox.py): no
network, no other process, no file, an empty environment, one memory limit on the process
for everything the code allocates, and a hard kill at the time limit
(docs/test-run-sandbox.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from console.runner.result import (
    CODE_FILE_NAME,
    MAX_DEPTH,
    BtCall,
    CodeError,
    Kind,
    LogLine,
    json_depth,
    locate,
    locate_syntax_error,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from console.runner.sandbox import Launch

log = logging.getLogger(__name__)

EngineName = Literal["node", "embedded"]
ENGINES: tuple[EngineName, ...] = ("node", "embedded")

DEFAULT_TIMEOUT = 5.0
DEFAULT_MEMORY_MB = 128
SERVICE_NODE_MAJOR = 16
START_GRACE = 2.0
"""Seconds an engine process may take beyond the limit (its start-up) before it is killed."""
KILL_MARGIN = 1.0
"""Seconds an engine may run past the limit once the code has started (it says so with a
first byte on stdout) before the console kills it: the engine's own limit strikes first
and reports where; this one holds whatever runs outside the engine's evaluations."""
NODE_BASE_MB = 64
"""What Node.js itself needs of the process's data limit (threads' stacks, its own heap)
beyond the code's memory limit: measured at about 50 MB for Node 20 on x86_64."""
EMBEDDED_BASE_MB = 64
"""The same for the embedded engine's process (Python, asyncio and the V8 library)."""
MEMORY_SIGNS = (
    "heap out of memory",
    "Reached heap limit",
    "Allocation failed",
    "Fatal process out of memory",
    "Last few GCs",
    "MemoryError",
    "std::bad_alloc",
)
"""What an engine writes on stderr when it dies of the memory limit."""
OUT_OF_MEMORY_SIGNALS = frozenset(
    {signal.SIGTRAP, signal.SIGILL, signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS}
)
"""How V8 dies, without a word, when the process's data limit refuses it memory it cannot do
without (its fatal out-of-memory handler traps): the memory limit, not an engine error."""

EMBEDDED_PREFIX = "__tcDefine(function (module, exports, require) {\n"
"""The embedded engine's wrapper: one line before the code, subtracted from error lines."""


class EngineUnavailable(Exception):
    """The engine asked for cannot run here; str() says why and what to do."""


@dataclass
class Job:
    code: str
    request: Any
    kind: Kind
    with_bt: bool = False
    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB


@dataclass
class Outcome:
    """What an engine reported, before the shape check."""

    status: str
    result_kind: str | None = None
    value: Any = None
    error: CodeError | None = None
    logs: list[LogLine] = field(default_factory=list)
    logs_dropped: int = 0
    calls: list[BtCall] = field(default_factory=list)
    calls_dropped: int = 0
    engine_ms: float | None = None
    phase: str | None = None
    """Where a time limit struck: "running", "after_return" (timers, finalizers or promise
    jobs of code that had returned) or "serialising" (getters, toJSON)."""


PHASES = ("running", "after_return", "serialising")


class _TimeUp(Exception):
    """The time limit was spent between two evaluations."""


class _Unreadable(Exception):
    """The engine's report cannot be read as the harness writes it."""


def _decode(text: str) -> Any:
    """JSON text from the engine, never a traceback: too deep or malformed is _Unreadable."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise _Unreadable(
            f"the engine's report is not readable JSON ({type(error).__name__})"
        ) from None
    if json_depth(value) > MAX_DEPTH + 10:
        raise _Unreadable("the engine's report is nested deeper than any result may be")
    return value


def outcome_to_json(outcome: Outcome) -> dict[str, Any]:
    """An Outcome as JSON, for the embedded engine's child process to send back."""
    return asdict(outcome)


def outcome_from_json(data: dict[str, Any]) -> Outcome:
    error = data.get("error")
    return Outcome(
        status=str(data.get("status") or "engine_error"),
        result_kind=data.get("result_kind"),
        value=data.get("value"),
        error=CodeError(**error) if isinstance(error, dict) else None,
        logs=[LogLine(**line) for line in data.get("logs") or []],
        logs_dropped=int(data.get("logs_dropped") or 0),
        calls=[BtCall(**call) for call in data.get("calls") or []],
        calls_dropped=int(data.get("calls_dropped") or 0),
        engine_ms=data.get("engine_ms"),
        phase=data.get("phase") if data.get("phase") in PHASES else None,
    )


def _allocation_refused(outcome: Outcome) -> Outcome:
    """An ArrayBuffer the process's memory limit refused is the memory limit, not an error
    of the code (V8 says "Array buffer allocation failed")."""
    error = outcome.error
    if outcome.status == "threw" and error is not None and "allocation failed" in error.message:
        return Outcome(status="memory", logs=outcome.logs, engine_ms=outcome.engine_ms)
    return outcome


def _died_of(returncode: int) -> int | None:
    """The signal that ended a process: its negative return code, or 128 + the signal as the
    sandbox's launcher (a shell-like pid 1) reports it."""
    if returncode < 0:
        return -returncode
    if 128 < returncode < 128 + 65:
        return returncode - 128
    return None


def _launch(argv: list[str], reads: list[str], job: Job, base_mb: int) -> Launch:
    """The sandbox.Launch of an engine process for `job`: its data limit is the code's
    memory limit plus what the engine itself needs."""
    import console.runner.sandbox as sandbox

    return sandbox.Launch(
        tuple(argv), sandbox.boundary().mechanism, tuple(reads), job.memory_mb + base_mb
    )


def _confined(
    launch: Launch, payload: str, job: Job, what: str, prepare_next: bool = True
) -> Outcome | bytes:
    """Run an engine process in the sandbox (a spare one started ahead when there is one):
    its stdout, or the Outcome of a limit or a crash (logged, with its stderr). prepare_next:
    start the next run's spare once this one has ended (when spares are on); a caller that
    has more to do before it answers (the service) starts it later (prepare_runs)."""
    import console.runner.sandbox as sandbox
    from console.terminal_text import printable  # not in the embedded child's sandbox

    try:
        process = sandbox.spares.take(launch) or sandbox.start(launch)
        finished = sandbox.finish(
            process,
            payload.encode("utf-8"),
            job.timeout + START_GRACE,
            after_start=job.timeout + KILL_MARGIN,
        )
    except OSError as error:
        raise EngineUnavailable(f"{what} could not be started: {error}") from error
    if prepare_next:
        sandbox.spares.prepare(launch)  # the next run's process starts while this one is read
    if finished.timed_out:
        return Outcome(status="timeout")
    if finished.too_large:
        cap = sandbox.REPORT_CAP // (1024 * 1024)
        log.warning("%s wrote a report over %s MB; it was stopped", what, cap)
        return Outcome(
            status="too_large",
            error=CodeError(
                "ResultTooLarge", f"what the engine reported is over {cap} MB: too large to read"
            ),
        )
    # Engine text (a crash's message holds the code's strings): escaped before it is logged,
    # its line breaks too, so that it cannot pass for lines of the log of its own.
    stderr = printable(finished.stderr.decode("utf-8", "replace").strip())
    if finished.returncode != 0 and any(sign in stderr for sign in MEMORY_SIGNS):
        return Outcome(status="memory")
    died_of = _died_of(finished.returncode)
    if not finished.stdout and died_of in OUT_OF_MEMORY_SIGNALS:
        log.warning("%s died of signal %s, taken as the memory limit", what, died_of)
        return Outcome(status="memory")
    if finished.returncode == sandbox.EXIT_SETUP and stderr.startswith("sandbox:"):
        raise EngineUnavailable(f"The sandbox could not be set up: {stderr}")
    if finished.returncode != 0 or not finished.stdout:
        log.warning("%s ended with %s and no report: %s", what, finished.returncode, stderr[-2000:])
        return Outcome(
            status="engine_error",
            error=CodeError(
                "EngineError", f"{what} ended with code {finished.returncode} without a result"
            ),
        )
    return finished.stdout


@functools.cache
def _script(name: str) -> str:
    return resources.files("console.runner").joinpath(name).read_text(encoding="utf-8")


def harness() -> str:
    return _script("harness.js")


@functools.cache
def node_script() -> str:
    """node_host.js with the harness's text before it as HARNESS (strict, as the host is):
    it comes with the process, so that the host sets it up before the job is read."""
    return f'"use strict";\nconst HARNESS = {json.dumps(harness())};\n{_script("node_host.js")}'


def node_path() -> str | None:
    """The Node.js executable, or None: $TENANT_CONSOLE_NODE, else `node` on PATH."""
    configured = os.environ.get("TENANT_CONSOLE_NODE", "").strip()
    if configured:
        return shutil.which(configured)
    return shutil.which("node")


@functools.cache
def node_version(path: str) -> tuple[int, str]:
    """(major, "v20.20.2") of a Node executable, asked once per process."""
    try:
        text = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as error:
        raise EngineUnavailable(f"{path} --version failed: {error}") from error
    found = re.match(r"v(\d+)", text)
    return (int(found.group(1)) if found else 0), text


def permission_flags(major: int) -> list[str]:
    """Node's permission model: denies file system access (beyond none granted), child
    processes and workers. `--permission` from Node 23.5, experimental before (20 to 23)."""
    if major >= 24:
        return ["--permission"]
    if major >= 20:
        return ["--experimental-permission"]
    return []


def _unreadable(reason: str) -> Outcome:
    return Outcome(
        status="engine_error",
        error=CodeError("EngineError", f"The run's result could not be read: {reason}."),
    )


def _outcome_from(report: str | dict[str, Any], line_offset: int) -> Outcome:
    """The harness's JSON report (text, or already decoded) as an Outcome, error places moved
    to the code as written; a report that cannot be read is an engine error that says so,
    never an exception."""
    try:
        data = _decode(report) if isinstance(report, str) else report
        if not isinstance(data, dict):
            raise _Unreadable("the engine's report is not an object")
        return _report(data, line_offset)
    except _Unreadable as error:
        log.warning("An unreadable test-run report: %s", error)
        return _unreadable(str(error))
    except (TypeError, ValueError, AttributeError) as error:
        log.warning("An unreadable test-run report", exc_info=True)
        return _unreadable(f"a field has the wrong type ({type(error).__name__})")


REPORTED = frozenset(
    {"ok", "pending", "threw", "no_function", "unserializable", "timeout", "memory"}
    | {"too_deep", "too_large", "engine_error"}
)
"""The statuses an engine's report may carry (anything else is an engine error)."""


def _report(data: dict[str, Any], line_offset: int) -> Outcome:
    status = str(data.get("status") or "engine_error")
    if status not in REPORTED:
        raise _Unreadable(f"an unknown status {status[:40]!r}")
    error = None
    raw = data.get("error")
    if isinstance(raw, dict):
        stack = raw.get("stack")
        line, column, frames = locate(stack, line_offset)
        error = CodeError(
            name=str(raw.get("name") or "Error"),
            message=str(raw.get("message") or ""),
            line=line,
            column=column,
            frames=frames,
            status=_error_status(raw.get("status")),
            errors=_decode(raw["errors_json"]) if isinstance(raw.get("errors_json"), str) else None,
        )
    value = None
    text = data.get("result_json")
    if isinstance(text, str):
        value = _decode(text)
        if json_depth(value) > MAX_DEPTH:
            status = "too_deep"
            value = None
            error = CodeError(
                "ResultTooDeep", f"the returned value is nested over {MAX_DEPTH} levels"
            )
    phase = data.get("phase")
    return Outcome(
        status=status,
        result_kind=data.get("result_kind"),
        value=value,
        error=error,
        logs=[LogLine(str(i.get("level")), str(i.get("text"))) for i in data.get("logs") or []],
        logs_dropped=int(data.get("logs_dropped") or 0),
        calls=[
            BtCall(str(c.get("method")), list(c.get("args") or [])) for c in data.get("calls") or []
        ],
        calls_dropped=int(data.get("calls_dropped") or 0),
        engine_ms=float(data["engine_ms"]) if data.get("engine_ms") is not None else None,
        phase=phase if phase in PHASES else None,
    )


def _error_status(value: Any) -> int | None:
    """A reactor error's HTTP status as the harness reported it, if it is one (400..599)."""
    if isinstance(value, int) and not isinstance(value, bool) and 400 <= value <= 599:
        return value
    return None


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or ["?"])[0][:500]


def _syntax_outcome(message: str, text: str, source_name: str, line_offset: int) -> Outcome:
    place = locate_syntax_error(text, source_name, line_offset)
    line, column = place if place else (None, None)
    return Outcome(
        status="syntax", error=CodeError("SyntaxError", message, line=line, column=column)
    )


class NodeEngine:
    """Node.js in a child process, sandboxed (see the module's docstring)."""

    name: EngineName = "node"

    def __init__(self, path: str | None = None) -> None:
        found = path or node_path()
        if found is None:
            raise EngineUnavailable("Node.js is not installed (no `node` on PATH).")
        self.path = found
        self.major, self.version = node_version(found)

    @property
    def display_name(self) -> str:
        return f"Node.js {self.version}"

    def notes(self) -> list[str]:
        notes = []
        if self.major != SERVICE_NODE_MAJOR:
            notes.append(
                f"Ran on Node.js {self.version}; the service runs Node.js v{SERVICE_NODE_MAJOR}."
            )
        if not permission_flags(self.major):
            notes.append("This Node.js has no permission model; the vm sandbox alone applies.")
        return notes

    def command(self, job: Job) -> list[str]:
        return [
            self.path,
            "--no-warnings",
            # Our listeners handle the sandbox's rejections without reading them (node_host.js).
            "--unhandled-rejections=none",
            *permission_flags(self.major),
            # node_host.js refuses to run without these two (see there).
            "--frozen-intrinsics",
            "--experimental-vm-modules",
            f"--max-old-space-size={job.memory_mb}",
            "--disallow-code-generation-from-strings",
            "-e",
            node_script(),
        ]

    def launch(self, job: Job) -> Launch:
        """The sandboxed process that runs `job`."""
        from console.runner.sandbox import engine_paths

        return _launch(self.command(job), engine_paths(self.path), job, NODE_BASE_MB)

    def run(self, job: Job, *, prepare_next: bool = True) -> Outcome:
        payload = json.dumps(
            {
                "code": job.code,
                "request": job.request,
                "kind": job.kind,
                "with_bt": job.with_bt,
                "timeout_ms": max(1, int(job.timeout * 1000)),
            }
        )
        # No variable of ours reaches the child: the sandbox gives it an empty environment.
        report = _confined(self.launch(job), payload, job, "Node.js", prepare_next)
        if isinstance(report, Outcome):
            return report
        try:
            data = _decode(report.decode("utf-8", "replace"))
            if not isinstance(data, dict):
                raise _Unreadable("not an object")
        except _Unreadable:
            log.warning("Node.js wrote no readable report: %r", report[:2000])  # repr: escaped
            return Outcome(
                status="engine_error",
                error=CodeError("EngineError", "Node.js ended without a result"),
            )
        if data.get("status") == "syntax":
            reported = data.get("error") or {}
            stack = str(reported.get("stack") or "")
            return _syntax_outcome(str(reported.get("message")), stack, CODE_FILE_NAME, 0)
        if data.get("status") == "host_error":
            from console.terminal_text import printable

            log.warning("The Node.js host failed: %s", printable(str(data.get("error"))))
            data["status"] = "engine_error"
        return _allocation_refused(_outcome_from(data, 0))


class EmbeddedEngine:
    """V8 embedded through mini-racer: a fresh isolate per run, in a sandboxed child process
    of its own (embedded_child.py); `run_here` is what that child calls."""

    name: EngineName = "embedded"

    def __init__(self) -> None:
        from importlib.util import find_spec

        spec = find_spec("py_mini_racer")
        if spec is None or not spec.submodule_search_locations:
            raise EngineUnavailable(
                "The embedded engine (mini-racer) is not installed: pip install mini-racer"
            )
        self._package = os.path.realpath(next(iter(spec.submodule_search_locations)))
        self._module: Any = None
        self.v8_version: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def display_name(self) -> str:
        return f"embedded V8 {self.v8_version or ''} (mini-racer)".replace("  ", " ")

    def notes(self) -> list[str]:
        return [
            "Ran on an embedded V8, not Node.js: Node's built-in modules and globals "
            "(Buffer, process, setTimeout's timers, require) are missing here; the service "
            f"runs Node.js v{SERVICE_NODE_MAJOR}. Install Node.js for a closer run."
        ]

    def launch(self, job: Job) -> Launch:
        """The sandboxed child process that runs `job`."""
        from console.runner.sandbox import interpreter_paths, python_executable

        here = Path(__file__).resolve()
        console_root = str(here.parents[2])
        argv = [
            python_executable(),
            "-I",
            "-S",
            "-B",
            "-X",
            "utf8",
            str(here.with_name("embedded_child.py")),
            console_root,
            os.path.dirname(self._package),
            str(job.memory_mb),
        ]
        reads = [
            *interpreter_paths(),
            str(here.parents[1] / "__init__.py"),
            str(here.parent),
            self._package,
        ]
        return _launch(argv, reads, job, EMBEDDED_BASE_MB)

    def run(self, job: Job, *, prepare_next: bool = True) -> Outcome:
        """The job in a sandboxed child process: the code's memory is never the console's."""
        payload = json.dumps(asdict(job))
        report = _confined(self.launch(job), payload, job, "The embedded engine", prepare_next)
        if isinstance(report, Outcome):
            return report
        try:
            data = json.loads(report)
        except (ValueError, RecursionError) as error:
            log.warning("The embedded engine's report could not be read: %s", error)
            return Outcome(
                status="engine_error",
                error=CodeError(
                    "EngineError", f"The embedded engine's report could not be read: {error}"
                ),
            )
        self.v8_version = data.get("v8_version") or self.v8_version
        return _allocation_refused(outcome_from_json(data))

    def run_here(self, job: Job, on_start: Callable[[], None] | None = None) -> Outcome:
        """The job in this process (the child's side of `run`); `on_start` is called just
        before the code starts."""
        with self.prepared(job.memory_mb) as context:
            return self.run_prepared(context, job, on_start)

    @contextlib.contextmanager
    def prepared(self, memory_mb: int) -> Iterator[Any]:
        """A fresh context with its memory limit and the harness set up, for one job: the
        child makes it before it reads its job, so that a process started ahead of its run
        has it ready (the harness's set-up freezes the intrinsics: tens of milliseconds)."""
        if self._module is None:
            import py_mini_racer

            self._module = py_mini_racer
        with self._module.mini_racer(self._event_loop()) as context:
            if self.v8_version is None:
                self.v8_version = str(context.v8_version)
            context.set_hard_memory_limit(memory_mb * 1024 * 1024)
            context.eval(harness())
            yield context

    def run_prepared(
        self, context: Any, job: Job, on_start: Callable[[], None] | None = None
    ) -> Outcome:
        """The job in a context from `prepared` (used once)."""
        context.set_hard_memory_limit(job.memory_mb * 1024 * 1024)
        outcome = self._run_in(context, job, on_start)
        if outcome.status in ("timeout", "memory"):
            self._stop(context)
        return outcome

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        """One event loop for every context, running for the life of the process.

        mini-racer answers a stopped evaluation later, on its context's loop; with a loop of
        its own per context, closed with the context, that answer meets a closed loop and is
        reported as an unraisable error. An open loop drops it quietly."""
        if self._loop is None:
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="mini-racer", daemon=True).start()
            self._loop = loop
        return self._loop

    def _stop(self, context: Any) -> None:
        """Ends a runaway promise loop before the context closes: an evaluation with a
        timeout terminates whatever the isolate is running when it fires."""
        # The expected "terminated by timeout" means the isolate is idle again.
        with contextlib.suppress(self._module.JSEvalException):
            context.eval("0", timeout_sec=0.05)

    def _run_in(
        self, context: Any, job: Job, on_start: Callable[[], None] | None = None
    ) -> Outcome:
        mr = self._module
        context.eval(
            f"__tcPrepare({json.dumps(json.dumps(job.request))}, {json.dumps(job.kind)}, "
            f"{'true' if job.with_bt else 'false'})"
        )
        if on_start is not None:
            on_start()
        started = time.perf_counter()
        deadline = started + job.timeout

        def elapsed() -> float:
            return (time.perf_counter() - started) * 1000

        source = f"{EMBEDDED_PREFIX}{job.code}\n}});\n//# sourceURL={CODE_FILE_NAME}"
        alone = context.eval(f"__tcParses({json.dumps(job.code)}, true)")
        if alone and not context.eval(f"__tcParses({json.dumps(source)}, false)"):
            # It closes the wrapper (Node's compileFunction would refuse it): never run.
            said = "the code closes the module function it is wrapped in"
            return Outcome(
                status="syntax", error=CodeError("SyntaxError", f"Unexpected '}}': {said}")
            )
        try:
            context.eval(source, timeout_sec=job.timeout)
        except mr.JSParseException as error:
            text = str(error)
            message = text.splitlines()[0].split("SyntaxError: ", 1)[-1] if text else "?"
            return _syntax_outcome(message, text, "<anonymous>", 1)
        except mr.JSTimeoutException:
            # Code that closed the wrapper runs its own statements at the top level.
            return Outcome(status="timeout", engine_ms=elapsed(), phase="running")
        except mr.JSOOMException:
            return Outcome(status="memory", engine_ms=elapsed())
        except mr.JSEvalException as error:
            return Outcome(
                status="threw",
                error=CodeError("Error", _first_line(str(error)), line=None, column=None),
            )
        # The promise jobs of the code run once an evaluation has returned; the next
        # evaluation waits for them, and its timeout stops an endless `await` loop. Timers and
        # finalizer callbacks run one per evaluation (__tcTick), so nothing of the code runs
        # outside an evaluation with what is left of the time limit.
        phase = "running"

        def step(script: str) -> Any:
            left = deadline - time.perf_counter()
            if left <= 0:
                raise _TimeUp
            return context.eval(script, timeout_sec=left)

        try:
            flags = int(step("__tcInvoke()"))
            while True:
                if flags & 1:
                    phase = "after_return"
                flags = int(step("__tcTick()"))
                if flags & 2:
                    continue
                if not flags & 4:
                    break  # settled with nothing left, or never settling with nothing queued
            phase = "serialising"
            text = step("__tcOutcome()")
            step("0")  # the promise jobs a getter or toJSON queued, under the limit too
        except mr.JSOOMException:
            return Outcome(status="memory", engine_ms=elapsed())
        except (mr.JSTimeoutException, _TimeUp):
            status = "memory" if context.was_hard_memory_limit_reached() else "timeout"
            return Outcome(status=status, engine_ms=elapsed(), phase=phase)
        except mr.JSEvalException:
            log.warning("The embedded engine's harness failed", exc_info=True)
            return _unreadable("the sandbox's harness failed")
        except (TypeError, ValueError):
            log.warning("The embedded engine's harness answered no number", exc_info=True)
            return _unreadable("the harness answered something other than a number")
        if context.was_hard_memory_limit_reached():
            return Outcome(status="memory", engine_ms=elapsed())
        if not isinstance(text, str):
            return _unreadable("the harness answered something other than JSON text")
        outcome = _outcome_from(text, 1)
        outcome.engine_ms = elapsed()
        return outcome


_engines: dict[EngineName, Any] = {}


ENGINE_ENV = "TENANT_CONSOLE_JS_ENGINE"
"""node or embedded: the engine to use when none is named (default: Node.js if installed)."""


def engine(name: EngineName | None = None) -> NodeEngine | EmbeddedEngine:
    """The engine to use: the one named, else $TENANT_CONSOLE_JS_ENGINE, else Node.js when
    installed, else the embedded one. Made once per process (the Node version and the V8
    library are looked up once)."""
    if name is None:
        configured = os.environ.get(ENGINE_ENV, "").strip().lower()
        if configured == "node":
            name = "node"
        elif configured == "embedded":
            name = "embedded"
        else:
            name = "node" if node_path() is not None else "embedded"
    if name not in _engines:
        _engines[name] = NodeEngine() if name == "node" else EmbeddedEngine()
    return _engines[name]
