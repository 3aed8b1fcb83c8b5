"""A unified line diff of two versions of code, for the dialogs and the push command.

Code is what people change line by line; "12 lines, 310 characters" says nothing about what
an overwrite would lose, a diff does.
"""

from __future__ import annotations

import difflib
from typing import Any

CONTEXT_LINES = 3


def code_of(value: Any) -> str | None:
    """The code in a payload value: a formula's string, or a transform's `{"code": ...}`;
    None for anything else (no transform, or one of another kind)."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("code"), str):
        return str(value["code"])
    return None


def line_diff(old: str, new: str, *, old_label: str, new_label: str) -> list[str]:
    """`old` -> `new` as unified diff lines (`---`/`+++` heads, `@@` hunks, ` `/`-`/`+`
    lines), without line ends; empty when the texts are the same."""
    if old == new:
        return []
    lines = difflib.unified_diff(
        old.splitlines(),
        new.splitlines(),
        fromfile=old_label,
        tofile=new_label,
        n=CONTEXT_LINES,
        lineterm="",
    )
    result = list(lines)
    if not result:  # the same lines, only a final newline differs
        return [f"--- {old_label}", f"+++ {new_label}", "(only the final line break differs)"]
    return result
