"""A proxy's transform pipeline run in order on a sample request, as a test-run shows it.

Code steps run through run_code (`kind="transform"`, sandboxed), each one's `{body, headers}`
becoming the next step's `args`. The other step types the service applies itself are done
here by small pure functions where their effect can be known without the service
(append_header, append_text, append_json, a regex mask); a tokenize step creates tokens,
which only the service can, and a `chase_stratus_pan` mask knows a format the vendor does
not publish: those say so and pass the request on unchanged. No Textual here.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from console.runner.result import RunResult

StepStatus = Literal["ok", "error", "not_run_here", "skipped"]
"""ok: applied (code returned the contract's shape); error: failed, the run stops there;
not_run_here: only the service can apply it, the request passes on unchanged; skipped: an
earlier step failed."""


class StepProblem(ValueError):
    """A local step that cannot be applied to this request (its message says why)."""


@dataclass
class StepOutcome:
    """What one step did: its place, type, status and sentence; a code step's whole run."""

    index: int
    type: str
    status: StepStatus
    message: str
    run: RunResult | None = None
    request: Any = None
    """The request after the step (what the next step receives), None unless ok."""

    @property
    def place(self) -> str:
        return f"step {self.index + 1} ({self.type})"


@dataclass
class PipelineRun:
    """Every step's outcome, in order, and the request the pipeline ends with (None when a
    step failed)."""

    steps: list[StepOutcome] = field(default_factory=list)
    final: Any = None

    @property
    def ok(self) -> bool:
        return all(s.status in ("ok", "not_run_here") for s in self.steps)

    @property
    def failed(self) -> StepOutcome | None:
        return next((s for s in self.steps if s.status == "error"), None)

    @property
    def message(self) -> str:
        failed = self.failed
        if failed is not None:
            return f"Failed at {failed.place}: {failed.message}"
        count = len(self.steps)
        if not count:
            return "The pipeline has no steps: the request passes unchanged."
        local = sum(s.status == "not_run_here" for s in self.steps)
        said = f"{count} step{'s' if count != 1 else ''} ran"
        return said + (f" ({local} only the service can apply)." if local else ".")


# ----- the local steps -----------------------------------------------------------------------


def _args(request: Any) -> dict[str, Any]:
    if not isinstance(request, dict) or not isinstance(request.get("args"), dict):
        raise StepProblem("The request has no args object to change.")
    args: dict[str, Any] = request["args"]
    return args


def _options(step: Mapping[str, Any]) -> Mapping[str, Any]:
    options = step.get("options")
    return options if isinstance(options, Mapping) else {}


def _with_args(request: Any, **changes: Any) -> Any:
    """A copy of the request with these args changed (the input is never modified)."""
    changed = copy.deepcopy(request)
    _args(changed).update(changes)
    return changed


def append_header(request: Any, value: str, location: str) -> Any:
    """The header `location` set to `value` (replacing one of that name, any case)."""
    headers = _args(request).get("headers")
    if headers is None:
        headers = {}
    if not isinstance(headers, dict):
        raise StepProblem("args.headers is not an object: no header can be added.")
    kept = {k: v for k, v in headers.items() if k.lower() != location.lower()}
    return _with_args(request, headers={**kept, location: value})


def _body_text(body: Any) -> str:
    """The body as the service sends it: text as it is, JSON serialised."""
    if body is None:
        return ""
    if isinstance(body, str):
        return body
    return json.dumps(body, ensure_ascii=False)


def append_text(request: Any, value: str) -> Any:
    """The body as text with `value` added at its end."""
    return _with_args(request, body=_body_text(_args(request).get("body")) + value)


_PATH_PART = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]|\['([^']*)'\]")


def json_path_parts(location: str) -> list[str | int]:
    """`$.card.numbers[0]` (or `card.numbers[0]`) as ["card", "numbers", 0]. Only plain
    member and index steps: what an append needs."""
    text = location.strip()
    text = text[1:] if text.startswith("$") else text
    if text and not text.startswith((".", "[")):
        text = "." + text
    parts: list[str | int] = []
    at = 0
    while at < len(text):
        found = _PATH_PART.match(text, at)
        if found is None:
            raise StepProblem(f"The location {location!r} is not a JSON path such as $.a.b[0].")
        member, index, quoted = found.groups()
        parts.append(int(index) if index is not None else (member or quoted or ""))
        at = found.end()
    if not parts:
        raise StepProblem("The location names the whole body: give a member, as $.field.")
    return parts


def append_json(request: Any, value: str, location: str) -> Any:
    """`value` (a string, as the step holds it) set at the JSON path `location` of the body,
    the objects on the way created when missing."""
    body = _args(request).get("body")
    if isinstance(body, str):
        try:
            body = json.loads(body) if body.strip() else {}
        except json.JSONDecodeError as error:
            raise StepProblem(f"The body is not JSON ({error.msg}): nothing to add to.") from None
    body = {} if body is None else copy.deepcopy(body)
    parts = json_path_parts(location)
    holder: Any = body
    for part, after in itertools.pairwise(parts):
        holder = _child(holder, part, [] if isinstance(after, int) else {})
    _set(holder, parts[-1], value)
    return _with_args(request, body=body)


def _child(holder: Any, part: str | int, empty: Any) -> Any:
    if isinstance(part, int):
        if not isinstance(holder, list) or part >= len(holder):
            raise StepProblem(f"[{part}] is not an item of the body at that place.")
        return holder[part]
    if not isinstance(holder, dict):
        raise StepProblem(f"{part!r} cannot be added: the body holds no object there.")
    if part not in holder or holder[part] is None:
        holder[part] = empty
    elif not isinstance(holder[part], dict | list):
        raise StepProblem(f"{part!r} holds a value, not an object: nothing can be added in it.")
    return holder[part]


def _set(holder: Any, part: str | int, value: str) -> None:
    if isinstance(part, int):
        if not isinstance(holder, list) or part > len(holder):
            raise StepProblem(f"[{part}] is not a place in the list there.")
        if part == len(holder):
            holder.append(value)
        else:
            holder[part] = value
        return
    if not isinstance(holder, dict):
        raise StepProblem(f"{part!r} cannot be added: the body holds no object there.")
    holder[part] = value


def mask_text(text: str, expression: str, replacement: str) -> str:
    """The vendor's regex mask: in each section of `text` the expression matches, every
    occurrence of a capture group's value is replaced by `replacement`, one per character."""
    try:
        compiled = re.compile(expression)
    except re.error as error:
        raise StepProblem(f"The expression is not a regular expression: {error}.") from None

    def masked(match: re.Match[str]) -> str:
        section = match.group(0)
        for value in sorted({g for g in match.groups() if g}, key=len, reverse=True):
            section = section.replace(value, replacement * len(value))
        return section

    return compiled.sub(masked, text)


def mask(request: Any, expression: str, replacement: str) -> Any:
    """The body masked as text (JSON serialised first, read back as JSON when it still is)."""
    body = _args(request).get("body")
    text = _body_text(body)
    result = mask_text(text, expression, replacement)
    new_body: Any = result
    if not isinstance(body, str) and body is not None:
        try:
            new_body = json.loads(result)
        except json.JSONDecodeError:
            new_body = result
    return _with_args(request, body=new_body)


NOT_HERE = {
    "tokenize": (
        "Not run here: a tokenize step creates tokens, which only the service can; "
        "the request passes on unchanged."
    ),
    "chase_stratus_pan": (
        "Not run here: the chase_stratus_pan mask knows a format only the service has; "
        "the request passes on unchanged."
    ),
}


def apply_local(step: Mapping[str, Any], request: Any) -> tuple[StepStatus, str, Any]:
    """(status, sentence, request after) for a step that is not code."""
    kind = str(step.get("type") or "code")
    options = _options(step)
    value = options.get("value")
    location = options.get("location")
    try:
        match kind:
            case "append_header":
                if not isinstance(value, str) or not location:
                    raise StepProblem("An append_header step needs a value and a header name.")
                return "ok", f"Set the header {location}.", append_header(request, value, location)
            case "append_text":
                if not isinstance(value, str):
                    raise StepProblem("An append_text step needs the text to append.")
                return "ok", "Appended the text to the body.", append_text(request, value)
            case "append_json":
                if not isinstance(value, str) or not location:
                    raise StepProblem("An append_json step needs a value and a JSON path.")
                return "ok", f"Set {location} in the body.", append_json(request, value, location)
            case "mask":
                if step.get("matcher") != "regex":
                    reason = NOT_HERE["chase_stratus_pan"]
                    if step.get("matcher") != "chase_stratus_pan":
                        reason = f"Not run here: the matcher {step.get('matcher')!r} is unknown."
                    return "not_run_here", reason, request
                expression, replacement = step.get("expression"), step.get("replacement")
                if not expression or not isinstance(replacement, str) or len(replacement) != 1:
                    raise StepProblem("A mask needs an expression and a one-character replacement.")
                return "ok", "Masked the body.", mask(request, expression, replacement)
            case "tokenize":
                return "not_run_here", NOT_HERE["tokenize"], request
    except StepProblem as problem:
        return "error", str(problem), None
    return (
        "not_run_here",
        f"Not run here: a {kind} step is of a type this console does not know.",
        (request),
    )


# ----- the pipeline ----------------------------------------------------------------------------

RunCode = Callable[..., "RunResult"]


def next_request(request: Any, returned: Mapping[str, Any]) -> Any:
    """The request the next step receives: the same, with a code step's body and headers."""
    return _with_args(request, body=returned.get("body"), headers=returned.get("headers"))


def run_pipeline(
    steps: Sequence[Mapping[str, Any]],
    request: Any,
    *,
    with_bt: bool = False,
    allow_unisolated: bool = False,
    run: RunCode | None = None,
) -> PipelineRun:
    """Each step in order on `request` (`{args: {body, headers}, configuration, bt?}`);
    stops at the first that fails. Blocks (code runs): call it off the UI thread. Raises
    what run_code raises (EngineUnavailable, NoBoundary) for the caller to handle."""
    if run is None:
        from console.runner import run_code

        run = run_code
    outcome = PipelineRun()
    current = request
    for index, step in enumerate(steps):
        kind = str(step.get("type") or "code")
        if current is None:
            outcome.steps.append(
                StepOutcome(index, kind, "skipped", "Not run: an earlier step failed.")
            )
            continue
        if kind != "code":
            status, message, after = apply_local(step, current)
            outcome.steps.append(StepOutcome(index, kind, status, message, request=after))
            current = after
            continue
        result = run(
            str(step.get("code") or ""),
            current,
            "transform",
            with_bt=with_bt,
            allow_unisolated=allow_unisolated,
        )
        if result.ok and isinstance(result.value, dict):
            current = next_request(current, result.value)
            outcome.steps.append(StepOutcome(index, kind, "ok", result.message, result, current))
        else:
            outcome.steps.append(StepOutcome(index, kind, "error", result.message, result))
            current = None
    outcome.final = current
    return outcome
