"""What someone else changed: field by field, their value against the one about to be saved."""

from __future__ import annotations

from console.code_diff import code_of, line_diff
from console.tui.base.shown import JsonObject
from console.tui.modals.lost_update import FieldChange

_WIDTH = 70


def show_value(value: object) -> str:
    """A value in one short line: code by its size, lists joined, long text cut."""
    if value is None or value == [] or value == {}:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict) and set(value) == {"code"}:
        return show_value(value["code"])
    if isinstance(value, str) and "\n" in value:
        return f"{value.count(chr(10)) + 1} lines, {len(value)} characters"
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        text = ", ".join(value)
    elif isinstance(value, list):
        text = f"{len(value)} item{'s' if len(value) != 1 else ''}: " + "; ".join(
            _compact(v) for v in value
        )
    elif isinstance(value, dict):
        text = _compact(value)
    else:
        text = str(value)
    return text if len(text) <= _WIDTH else text[: _WIDTH - 1] + "…"


def _compact(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={_compact(v)}" for k, v in value.items() if v not in (None, ""))
    if isinstance(value, list):
        return "[" + ", ".join(_compact(v) for v in value) + "]"
    return str(value)


def describe_changes(
    labels: dict[str, str],
    original: JsonObject,
    theirs: JsonObject,
    yours: JsonObject,
    *,
    code_fields: tuple[str, ...] = (),
) -> list[FieldChange]:
    """The fields whose value changed between `original` (as opened) and `theirs` (now).

    A code field also carries the line diff from their code to yours: what saving over
    theirs changes, line by line."""
    changes: list[FieldChange] = []
    keys = list(labels) + [k for k in theirs if k not in labels]
    for key in keys:
        if theirs.get(key) != original.get(key):
            label = labels.get(key, key.replace("_", " "))
            diff: list[str] = []
            problems: list[str] = []
            if key in code_fields:
                diff = code_diff(label, theirs.get(key), yours.get(key), "theirs", "yours")
                problems = code_problems(label, theirs.get(key), yours.get(key))
            changes.append(
                FieldChange(
                    label,
                    show_value(theirs.get(key)),
                    show_value(yours.get(key)),
                    tuple(diff),
                    tuple(problems),
                )
            )
    return changes


def code_problems(label: str, theirs: object, yours: object) -> list[str]:
    """The code check (the one push and the plans run) on both versions of a code field:
    which one saving keeps should not hide that either will not run."""
    from console.code_files.problems import code_check_sentences

    found = []
    for whose, value in (("their", theirs), ("your", yours)):
        found += code_check_sentences(f"{label.lower()} ({whose} version)", code_of(value))
    return found


def code_diff(label: str, old: object, new: object, old_name: str, new_name: str) -> list[str]:
    """The line diff between two values of a code field (no code counts as empty)."""
    old_code, new_code = code_of(old), code_of(new)
    if old_code is None and new_code is None:
        return []
    return line_diff(
        old_code or "",
        new_code or "",
        old_label=f"{label} ({old_name})",
        new_label=f"{label} ({new_name})",
    )


def code_changes(
    labels: dict[str, str],
    code_fields: tuple[str, ...],
    saved: JsonObject,
    yours: JsonObject,
) -> list[tuple[str, list[str]]]:
    """(label, diff) for each code field that differs between the saved object and the form."""
    found = []
    for key in code_fields:
        label = labels.get(key, key.replace("_", " "))
        diff = code_diff(label, saved.get(key), yours.get(key), "saved", "this form")
        if diff:
            found.append((label, diff))
    return found
