"""Running a reactor's code for a react, and what the service answers for each outcome.

The code is tenant code, hostile until shown otherwise: it runs only through
console.runner.run_code (kind "reactor"), in the runner's sandbox and limits, as a test-run
does, never in the service's process. What the run ended with maps to the answer the hosted
service gives (docs/reactors.md): 200 with what the code returned, or a problem.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from console.models.reactors import TIMEOUT_MAX

if TYPE_CHECKING:
    from console.runner import RunResult

log = logging.getLogger("console.service")

DEFAULT_TIMEOUT = 10
"""Seconds a react may run when the runtime names no `timeout` (the hosted default)."""
MEMORY_MB = {"standard": 128, "large": 256, "xlarge": 512}
"""The memory limit of a run, by the runtime's `resources`."""

LOCAL_NOTE = "BT-Local-Note"
NO_TOKENS = (
    "The local service keeps no tokens: the reactor's tokenize was not carried out "
    "(tokens is null)."
)
NO_SANDBOX = (
    "No operating-system sandbox can be had here, so reactors' code does not run; start the "
    "service with --allow-unisolated to run it anyway, with the service user's access."
)

TITLES = {
    400: "Bad Request",
    401: "Authentication Failed",
    402: "Invalid Payment Method",
    403: "Forbidden",
    429: "Rate Limit Exceeded",
    500: "Reactor Runtime Error",
    503: "Service Unavailable Error",
}
"""The titles of the vendor's reactor error types, by the status they answer with."""


@dataclass(frozen=True)
class Reaction:
    """One react to run: the serving version's code, and what it is called with."""

    code: str
    request: dict[str, Any]
    """`{args, configuration}`, as the code receives it."""
    timeout: float
    memory_mb: int

    @classmethod
    def of(cls, code: str, configuration: dict[str, str], runtime: Any, args: Any) -> Reaction:
        runtime = runtime if isinstance(runtime, dict) else {}
        timeout = runtime.get("timeout") or DEFAULT_TIMEOUT
        return cls(
            code=code,
            request={"args": args, "configuration": configuration},
            timeout=float(min(timeout, TIMEOUT_MAX)),
            memory_mb=MEMORY_MB.get(str(runtime.get("resources")), MEMORY_MB["standard"]),
        )


@dataclass(frozen=True)
class Answer:
    """What the service answers for a react: its status, JSON body and extra headers."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def problem(self) -> bool:
        return self.status >= 400

    def to_json(self) -> dict[str, Any]:
        """As an asynchronous react's result keeps it."""
        return {"status": self.status, "body": self.body, "headers": self.headers}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Answer:
        return cls(int(data["status"]), data.get("body"), dict(data.get("headers") or {}))


def problem(
    status: int, detail: str, errors: dict[str, list[str]] | None = None, title: str | None = None
) -> Answer:
    """A problem+json answer, titled as the vendor's reactor errors are."""
    if title is None:
        try:
            title = TITLES.get(status) or HTTPStatus(status).phrase
        except ValueError:
            title = "Error"
    body: dict[str, Any] = {"type": "about:blank", "title": title, "status": status}
    body["detail"] = detail
    if errors is not None:
        body["errors"] = errors
    return Answer(status, body)


def run(reaction: Reaction, *, allow_unisolated: bool) -> Answer:
    """Runs the reaction (blocking: call it off the event loop) and maps the outcome.

    The engine process of the next react is not started here: call `prepare_next` once
    the answer is out (starting one, an interpreter and the harness's set-up, takes tens of
    milliseconds of processor that the answer would otherwise share)."""
    from console.runner import run_code
    from console.runner.engines import EngineUnavailable
    from console.runner.sandbox import NoBoundary

    try:
        result = run_code(
            reaction.code,
            reaction.request,
            "reactor",
            timeout=reaction.timeout,
            memory_mb=reaction.memory_mb,
            check=False,  # args may be any JSON; the depth and numbers are still checked
            allow_unisolated=allow_unisolated,
            prepare_next=False,
        )
    except NoBoundary:
        return problem(503, NO_SANDBOX)
    except EngineUnavailable as error:
        log.error("A react could not run: %s", error)
        return problem(503, f"Reactors cannot run here: {error}")
    return answer(result, reaction.timeout)


def prepare_next(reaction: Reaction, ran: Answer) -> None:
    """After a react that reached the engine: an engine process for the next react with the
    same limits, started ahead (the runner's spares, as the console's run screen has them),
    so that it waits for no interpreter, engine or harness to start. A service that never
    reacts starts none; one where reacts cannot run (503) neither."""
    if ran.status == 503:
        return
    from console.runner import prepare_runs
    from console.runner.engines import EngineUnavailable

    try:
        prepare_runs(memory_mb=reaction.memory_mb)
    except (EngineUnavailable, OSError) as error:  # the next react says so to its caller
        log.warning("The next react's engine process could not be started: %s", error)


def answer(result: RunResult, timeout: float) -> Answer:
    """The answer for a run's outcome (docs/reactors.md, "React")."""
    error = result.error
    summary = error.summary if error is not None else result.message
    match result.status:
        case "ok":
            return _returned(result.value)
        case "bad_request":
            return problem(400, result.message, {"args": list(result.request_problems)})
        case "syntax" | "no_function":
            return problem(
                422,
                f"Reactor code is not a valid function: {summary}",
                {"code": [summary]},
                title="Unprocessable Entity",
            )
        case "threw" if error is not None:
            status = error.status or 500
            errors = errors_of(error.errors, error.message)
            return problem(status, f"The reactor's code threw {summary}", errors)
        case "timeout":
            detail = f"The reactor timed out after {timeout:g} s."
            return problem(500, detail, {"error": [detail]})
        case "memory":
            detail = f"The reactor used more than its memory limit: {result.message}"
            return problem(500, detail, {"error": [detail]})
        case "bad_shape":
            detail = "The reactor returned a value that does not meet the contract."
            return problem(500, detail, {"result": list(result.shape_problems)})
        case "engine_error":  # the error's name only: its text may quote the configuration
            log.error("A react's engine failed (%s).", error.name if error else "no report")
    return problem(500, result.message or summary, {"error": [result.message or summary]})


def _returned(value: Any) -> Answer:
    """200: the parts of the contract the code returned; `tokens` always null here."""
    value = value if isinstance(value, dict) else {}
    body: dict[str, Any] = {"tokens": None}
    for part in ("raw", "body", "headers"):
        if part in value:
            body[part] = value[part]
    headers = {LOCAL_NOTE: NO_TOKENS} if value.get("tokenize") is not None else {}
    return Answer(200, body, headers)


def _sentence(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def errors_of(errors: Any, message: str) -> dict[str, list[str]]:
    """A thrown value's `errors` as the problem's `errors`, as the vendor's reactor error
    types build them: a string or a list under `error`, an object's values each a list."""
    if errors is None:
        return {"error": [message]}
    if isinstance(errors, list):
        return {"error": [_sentence(item) for item in errors]}
    if isinstance(errors, dict):
        return {
            str(key): [_sentence(item) for item in value]
            if isinstance(value, list)
            else [_sentence(value)]
            for key, value in errors.items()
        }
    return {"error": [_sentence(errors)]}
