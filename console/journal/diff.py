"""What a change changed, field by field; code as a line diff (console.code_diff)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from console.code_diff import code_of, line_diff
from console.journal.sealed import CONFIGURATION, MASK, masked

NOT_COMPARED = frozenset(
    {"id", "tenant_id", "created_at", "created_by", "modified_at", "modified_by", "key", "keys"}
)
"""Fields the service sets itself: a change of these is not a change anyone made."""
CODE_FIELDS = frozenset({"code", "request_transform", "response_transform"})
_WIDTH = 60


@dataclass(frozen=True)
class FieldDiff:
    """One field that differs: its old and new value in short, and code's line diff."""

    field: str
    old: str
    new: str
    code: tuple[str, ...] = ()


def short(value: Any) -> str:
    """A value in one short line: code by its size, lists joined, long text cut; a
    configuration value never shown (console.journal.sealed)."""
    value = masked(value)
    if value is None or value == [] or value == {}:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    code = code_of(value) if isinstance(value, dict) and set(value) == {"code"} else None
    if code is not None:
        value = code
    if isinstance(value, str) and "\n" in value:
        return f"{value.count(chr(10)) + 1} lines, {len(value)} characters"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        text = ", ".join(value)
    elif isinstance(value, dict | list):
        text = json.dumps(value, separators=(",", ":"), default=str)
    else:
        text = str(value)
    return text if len(text) <= _WIDTH else text[: _WIDTH - 1] + "…"


def field_diffs(
    old: dict[str, Any] | None,
    new: dict[str, Any] | None,
    *,
    old_name: str = "before",
    new_name: str = "after",
) -> list[FieldDiff]:
    """The fields whose value differs between `old` and `new`, in `new`'s order."""
    old, new = old or {}, new or {}
    names = [n for n in new if n not in NOT_COMPARED]
    names += [n for n in old if n not in NOT_COMPARED and n not in new]
    diffs = []
    for name in names:
        before, after = old.get(name), new.get(name)
        if _same(before, after):
            continue
        if name == CONFIGURATION and (isinstance(before, dict) or isinstance(after, dict)):
            diffs += _configuration_diffs(before, after)
            continue
        code: list[str] = []
        if name in CODE_FIELDS and (code_of(before) is not None or code_of(after) is not None):
            code = line_diff(
                code_of(before) or "",
                code_of(after) or "",
                old_label=f"{name} ({old_name})",
                new_label=f"{name} ({new_name})",
            )
        diffs.append(FieldDiff(name, short(before), short(after), tuple(code)))
    return diffs


def _configuration_diffs(old: Any, new: Any) -> list[FieldDiff]:
    """Which configuration values an update changed, added or removed: by name, each value
    shown as *** (they are secrets; the journal keeps them sealed or masked)."""
    old = old if isinstance(old, dict) else {}
    new = new if isinstance(new, dict) else {}
    diffs = []
    for name in [*new, *(n for n in old if n not in new)]:
        before, after = old.get(name), new.get(name)
        if not _same(before, after):
            diffs.append(
                FieldDiff(
                    f"{CONFIGURATION}.{name}",
                    "(none)" if before is None else MASK,
                    "(none)" if after is None else MASK,
                )
            )
    return diffs


def _same(a: Any, b: Any) -> bool:
    empty: tuple[Any, ...] = (None, [], {}, "")
    return a == b or (a in empty and b in empty)


def diff_lines(diffs: list[FieldDiff]) -> list[str]:
    """The diffs as plain lines: `field: old -> new`, then a code field's line diff."""
    lines: list[str] = []
    for diff in diffs:
        lines.append(f"{diff.field}: {diff.old} -> {diff.new}")
        lines.extend(f"    {line}" for line in diff.code)
    return lines
