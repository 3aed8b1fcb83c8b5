"""What someone else changed: field by field, their value against the one about to be saved."""

from __future__ import annotations

from console.tui.modals.lost_update import FieldChange
from console.tui.shown import JsonObject

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
) -> list[FieldChange]:
    """The fields whose value changed between `original` (as opened) and `theirs` (now)."""
    changes: list[FieldChange] = []
    keys = list(labels) + [k for k in theirs if k not in labels]
    for key in keys:
        if theirs.get(key) != original.get(key):
            label = labels.get(key, key.replace("_", " "))
            changes.append(
                FieldChange(label, show_value(theirs.get(key)), show_value(yours.get(key)))
            )
    return changes
