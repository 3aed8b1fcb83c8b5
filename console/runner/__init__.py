"""Test-runs of formula and transform code before it is saved, on a sample request.

No Textual here: the `run` command and the console's run panel share this. The engines
(console.runner.engines) load only when code is run.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from console.runner.contract import check_request, check_result
from console.runner.result import (
    EXPECTED,
    KINDS,
    MAX_DEPTH,
    CodeError,
    Kind,
    RunResult,
    json_depth,
    non_finite,
)

if TYPE_CHECKING:
    from console.runner.engines import EngineName

__all__ = ["KINDS", "CodeError", "Kind", "RunResult", "prepare_runs", "run_code"]

UNISOLATED = (
    "No operating-system sandbox can be had here ({reason}): the code would run with this "
    "user's access to files, network and processes."
)
"""What the console and `run` say before code from the service runs without a boundary."""


def run_code(
    code: str,
    request: Any,
    kind: Kind,
    *,
    formula: Any = None,
    with_bt: bool = False,
    timeout: float | None = None,
    memory_mb: int | None = None,
    engine: EngineName | None = None,
    check: bool = True,
    allow_unisolated: bool = False,
    prepare_next: bool = True,
) -> RunResult:
    """Run `code` on `request` (the contract's request object) and check what it returns.

    formula: the formula whose request parameters and configuration contract the request is
    checked against first (a model or anything with those attributes). with_bt: a transform
    whose proxy has an application gets the recording `bt` stand-in. Blocks: call it off the
    UI thread. Raises EngineUnavailable when the engine cannot run here, and NoBoundary
    (one of those) when no OS sandbox can be had and `allow_unisolated` is false: the
    caller asks the user first (console.runner.sandbox). prepare_next false: the next run's
    engine process (when spares are on) is not started as this run ends; the caller starts
    it with prepare_runs once it has answered, so that the start does not compete with its
    answer for the processor.
    """
    from console.runner import engines, sandbox

    started = time.perf_counter()
    chosen = engines.engine(engine)
    boundary = sandbox.boundary()
    if not boundary.isolated and not allow_unisolated:
        raise sandbox.NoBoundary(UNISOLATED.format(reason=boundary.reason))
    result = RunResult(kind=kind, engine=chosen.name, engine_name="", status="ok")
    if json_depth(request) > MAX_DEPTH:
        result.engine_name = chosen.display_name
        result.status = "bad_request"
        result.request_problems = [f"The request is nested deeper than {MAX_DEPTH} levels."]
        result.message = result.request_problems[0]
        result.total_ms = (time.perf_counter() - started) * 1000
        return result
    bad_number = non_finite(request)
    if bad_number is not None:
        result.engine_name = chosen.display_name
        result.status = "bad_request"
        result.request_problems = [
            f"{bad_number}: a number JSON cannot carry (NaN, Infinity or out of range); "
            "the service would refuse the request."
        ]
        result.message = result.request_problems[0]
        result.total_ms = (time.perf_counter() - started) * 1000
        return result
    if check:
        result.request_problems = check_request(kind, request, formula)
        if result.request_problems:
            result.engine_name = chosen.display_name
            result.status = "bad_request"
            count = len(result.request_problems)
            result.message = (
                f"The sample request does not meet the contract ({count} "
                f"{'problem' if count == 1 else 'problems'}); the service would refuse it."
            )
            result.total_ms = (time.perf_counter() - started) * 1000
            return result
    job = engines.Job(
        code=code,
        request=request,
        kind=kind,
        with_bt=with_bt and kind == "transform",
        timeout=engines.DEFAULT_TIMEOUT if timeout is None else timeout,
        memory_mb=memory_mb or engines.DEFAULT_MEMORY_MB,
    )
    outcome = chosen.run(job, prepare_next=prepare_next)
    result.isolated = boundary.isolated
    result.protections = boundary.protections(job.memory_mb, job.timeout)
    result.engine_name = chosen.display_name
    result.notes = chosen.notes()
    result.status = outcome.status  # type: ignore[assignment]
    result.result_kind = outcome.result_kind
    result.value = outcome.value
    result.error = outcome.error
    result.logs = outcome.logs
    result.logs_dropped = outcome.logs_dropped
    result.calls = outcome.calls
    result.calls_dropped = outcome.calls_dropped
    result.engine_ms = outcome.engine_ms
    result.stopped_while = outcome.phase if outcome.status == "timeout" else None
    if outcome.status == "pending":
        result.status = "never_settled"
    if result.status == "ok":
        result.shape_problems, result.shape_notes = check_result(
            kind, outcome.result_kind, outcome.value
        )
        if result.shape_problems:
            result.status = "bad_shape"
    result.message = _message(result, job.timeout, job.memory_mb)
    result.total_ms = (time.perf_counter() - started) * 1000
    return result


_WHILE = {
    "after_return": (" after it had returned: its timers, finalizers or promise jobs kept running"),
    "serialising": " while its result was read (a getter, toJSON or Proxy of the result)",
}
"""What a time limit interrupted, when not the code's own call."""


def prepare_runs(engine: EngineName | None = None, *, memory_mb: int | None = None) -> None:
    """Gets the next runs ready: the engine found, the sandbox probed, and from now on an
    engine process started ahead of each run (console.runner.sandbox.Spares), the next one
    (for runs of `memory_mb`, the default limit if None) started now unless one is ready. For
    the console's run screen and the service's reacts; blocks for the probe, so call it off
    the UI thread."""
    from console.runner import engines, sandbox

    chosen = engines.engine(engine)
    sandbox.boundary()
    sandbox.spares.enabled = True
    job = engines.Job(
        code="",
        request=None,
        kind="formula",
        timeout=engines.DEFAULT_TIMEOUT,
        memory_mb=memory_mb or engines.DEFAULT_MEMORY_MB,
    )
    sandbox.spares.prepare(chosen.launch(job))


def _message(result: RunResult, timeout: float, memory_mb: int) -> str:
    expected = EXPECTED[result.kind]
    error = result.error
    match result.status:
        case "ok":
            return f"Returned an object that meets the {result.kind} contract {expected}."
        case "bad_shape":
            return "Returned a value that does not meet the contract: " + result.shape_problems[0]
        case "threw" | "syntax" | "no_function" | "unserializable" | "engine_error":
            return error.summary if error is not None else "The code failed."
        case "too_deep" | "too_large":
            what = "too deeply nested" if result.status == "too_deep" else "too large"
            detail = f" ({error.message})" if error is not None else ""
            return f"The code returned a value {what} to show{detail}."
        case "never_settled":
            return "The promise the code returned never settled (nothing left to wait for)."
        case "timeout":
            where = _WHILE.get(result.stopped_while or "", "")
            return f"Stopped: the code ran past the time limit ({timeout:g} s){where}."
        case "memory":
            return f"Stopped: the code used more than the memory limit ({memory_mb} MB)."
    return result.status
