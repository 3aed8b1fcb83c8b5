"""What a test-run found: the returned object and its shape, logs, `bt` calls, an error with
its place in the code, and which engine ran it. Plain data, shared by the CLI and the TUI."""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Kind = Literal["formula", "transform", "reactor"]
KINDS: tuple[Kind, ...] = ("formula", "transform", "reactor")
"""A reactor is called as a formula is (`{args, configuration, bt}`) and answers the hosted
service's react shape: `{raw, body, headers, tokenize}`."""

EXPECTED: dict[str, str] = {
    "formula": "{raw, tokenize}",
    "transform": "{body, headers}",
    "reactor": "{raw, body, headers}",
}
"""What each kind's code is expected to return, as a sentence names it."""

Status = Literal[
    "ok",
    "bad_shape",
    "bad_request",
    "threw",
    "syntax",
    "no_function",
    "never_settled",
    "unserializable",
    "too_deep",
    "too_large",
    "timeout",
    "memory",
    "engine_error",
]

MAX_DEPTH = 100
"""The deepest value a test-run takes or shows (a request, a result, a bt call's argument):
the harness refuses deeper results, and what comes back is checked again here, as it comes
from a process that ran hostile code."""

CODE_FILE_NAME = "code.js"
"""The name the engines give the code under test, so its stack frames can be told apart."""

_FRAME_PLACE = re.compile(re.escape(CODE_FILE_NAME) + r":(\d+):(\d+)")


@dataclass(frozen=True)
class CodeError:
    """An error the code threw (or could not be compiled with), at a 1-based line and column
    of the code as written (any wrapper around it already subtracted)."""

    name: str
    message: str
    line: int | None = None
    column: int | None = None
    frames: list[str] = field(default_factory=list)
    """The stack's frames inside the code, with lines as written."""
    status: int | None = None
    """A reactor's error only: the HTTP error status (400 to 599) the thrown value carried,
    as the vendor's reactor error types do, for the service to answer with."""
    errors: Any = None
    """A reactor's error only: the thrown value's `errors` (any JSON), for the answer."""

    @property
    def place(self) -> str:
        if self.line is None:
            return ""
        return f"line {self.line}" + (f", column {self.column}" if self.column else "")

    @property
    def summary(self) -> str:
        where = f" at {self.place}" if self.place else ""
        return f"{self.name}: {self.message}{where}"


@dataclass(frozen=True)
class LogLine:
    level: str
    text: str


@dataclass(frozen=True)
class BtCall:
    """One call the code made on the `bt` stand-in: "tokens.create" and its arguments."""

    method: str
    args: list[Any]


@dataclass
class RunResult:
    kind: Kind
    engine: str
    """"node" or "embedded"."""
    engine_name: str
    """Which engine ran the code, for a person: "Node.js v20.20.2", "embedded V8 …"."""
    status: Status
    value: Any = None
    """The returned object, as JSON would carry it (None when nothing was returned)."""
    result_kind: str | None = None
    """What the code returned: object, array, null, undefined, string, …"""
    shape_problems: list[str] = field(default_factory=list)
    shape_notes: list[str] = field(default_factory=list)
    request_problems: list[str] = field(default_factory=list)
    error: CodeError | None = None
    message: str = ""
    """One sentence for a status line: what happened."""
    logs: list[LogLine] = field(default_factory=list)
    logs_dropped: int = 0
    calls: list[BtCall] = field(default_factory=list)
    calls_dropped: int = 0
    engine_ms: float | None = None
    """The engine's own time to compile and run the code (start-up not counted)."""
    total_ms: float = 0.0
    """From asking to run to having the result, start-up of the engine included."""
    notes: list[str] = field(default_factory=list)
    """How this run differs from the service's runtime (engine, version)."""
    stopped_while: str | None = None
    """Where the time limit struck: "running", "after_return" (timers, finalizers or promise
    jobs of code that had returned) or "serialising" (a getter or toJSON of the result)."""
    isolated: bool = False
    """Whether an operating-system boundary held the engine process (console.runner.sandbox)."""
    protections: list[str] = field(default_factory=list)
    """The protections that were in force, each as "what: how" ("network: none (…)")."""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_json(self) -> dict[str, Any]:
        """The result as the `run` command prints it."""
        data = asdict(self)
        data["ok"] = self.ok
        return data


def json_depth(value: Any, stop_after: int = MAX_DEPTH + 10) -> int:
    """The deepest nesting of lists and dicts in a decoded JSON value, without recursion;
    counting stops past `stop_after`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        if depth > stop_after:
            return depth
        stack.extend((child, depth + 1) for child in children)
    return deepest


def non_finite(value: Any) -> str | None:
    """The path (`args.amount`, `args.items[2]`) of the first number in a decoded JSON value
    that JSON cannot carry (NaN, Infinity, or 1e999, which reads as infinity), or None.
    Python's json reads them; JavaScript's JSON.parse, and the service, refuse them."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, path = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return path or "(the request itself)"
        if isinstance(item, dict):
            stack.extend(
                (child, f"{path}.{key}" if path else str(key)) for key, child in item.items()
            )
        elif isinstance(item, list):
            stack.extend((child, f"{path}[{index}]") for index, child in enumerate(item))
    return None


def locate(stack: str | None, line_offset: int = 0) -> tuple[int | None, int | None, list[str]]:
    """The first place in the code named by a stack, and the stack's frames in the code,
    each line moved back by `line_offset` (the lines a wrapper put before the code)."""
    if not stack:
        return None, None, []
    line = column = None
    frames: list[str] = []
    for text in stack.splitlines():
        found = _FRAME_PLACE.search(text)
        if found is None or not text.lstrip().startswith("at "):
            continue
        row, col = int(found.group(1)) - line_offset, int(found.group(2))
        if line is None:
            line, column = row, col
        frames.append(_FRAME_PLACE.sub(f"{CODE_FILE_NAME}:{row}:{col}", text.strip()))
    return line, column, frames


def locate_syntax_error(
    text: str, source_name: str, line_offset: int = 0
) -> tuple[int, int] | None:
    """Line and column of a V8 syntax error report: "NAME:LINE" (or "NAME:LINE: …"), then
    the source line, then carets under the offending part."""
    lines = text.splitlines()
    head = re.compile(re.escape(source_name) + r":(\d+)")
    for index, candidate in enumerate(lines):
        found = head.match(candidate.strip())
        if found is None:
            continue
        line = int(found.group(1)) - line_offset
        column = 1
        if index + 2 < len(lines) and "^" in lines[index + 2]:
            column = lines[index + 2].index("^") + 1
        return line, column
    return None
