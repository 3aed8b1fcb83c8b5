"""A plan as lines of text: what `diff` and `apply` print and the console's plan screen shows.

Proxy configuration values may be secrets: the plan says which change, never their values.
"""

from __future__ import annotations

from console.estate.plan import (
    BLOCKED,
    CREATE,
    DELETE,
    DUPLICATE,
    ONLY_IN_TARGET,
    UNCHANGED,
    UPDATE,
    FieldChange,
    Plan,
    Step,
    compact,
)
from console.estate.travelling import SETTINGS, estate_of, heading, noun
from console.kinds import KINDS
from console.terminal_text import printable

MARKS = {
    CREATE: "+",
    UPDATE: "~",
    DELETE: "-",
    UNCHANGED: "=",
    ONLY_IN_TARGET: "?",
    DUPLICATE: "!",
    BLOCKED: "!",
}
CODE_MARK = "      ! code check: "
"""Starts each line that says what the code check found in the code a step sends."""


def plan_lines(plan: Plan, *, show_unchanged: bool = True) -> list[str]:
    """The plan, grouped by kind, each object with its action and changed fields."""
    lines = [f"Plan: {plan.target} made like {plan.source}"]
    lines += [f"  Not copied: {what}." for what in plan.left_behind]
    kinds = list(dict.fromkeys(s.kind for s in plan.steps))
    for kind in kinds:
        steps = [s for s in plan.steps if s.kind == kind]
        if not show_unchanged:
            steps = [s for s in steps if s.action != UNCHANGED]
        if not steps:
            continue
        lines.append("")
        lines.append(heading(kind))
        for step in steps:
            lines += step_lines(step, plan)
    lines.append("")
    lines.append(f"Summary: {plan.summary()}.")
    if plan.nothing_to_do and plan.blocked:
        lines.append("Nothing can be done: the target still differs (! cannot apply, above).")
    elif plan.nothing_to_do:
        lines.append("Nothing to do.")
    # Names, values and code from a file or a tenant: control characters shown, never obeyed.
    return [printable(line, tabs=True) for line in lines]


def step_lines(step: Step, plan: Plan) -> list[str]:
    action = step.action
    if action == ONLY_IN_TARGET and step.kind != SETTINGS and not step.note:
        note = "kept; apply --prune deletes it"
    else:
        note = step.note
    head = f"  {MARKS[action]} {action:<15} {printable(step.name)}"
    if step.kind != SETTINGS and step.desired and action == CREATE:
        created_note = estate_of(KINDS.get(step.kind)).created_note
        said = created_note(step.desired) if created_note is not None else ""
        if said:
            head += f" ({said})"
    if note:
        head += f"  ({note})"
    lines = [head]
    if step.changes_something:
        lines += [f"{CODE_MARK}{problem}" for problem in step.code_problems]
    if step.kind == SETTINGS:
        for change in step.changes:
            lines.append(f"      {_value(change.before)} -> {_value(change.after)}")
        return lines
    for change in step.changes:
        lines += change_lines(change, plan)
    return lines


def change_lines(change: FieldChange, plan: Plan) -> list[str]:
    if change.secret:
        if change.before is None:
            what = "added"
        elif change.after is None:
            what = "removed"
        else:
            what = "changed"
        return [f"      {change.path}: {what} (value not shown)"]
    if change.is_text_block:
        diff = change.line_diff(plan.source, plan.target)
        return [f"      {change.path}:", *(f"        {line}" for line in diff)]
    return [f"      {change.path}: {_value(change.before)} -> {_value(change.after)}"]


def _value(value: object) -> str:
    if value is None:
        return "(none)"
    return compact(value)


def kind_word(kind: str) -> str:
    return noun(kind)
