"""The plan that makes a target tenant look like a source (a file or another tenant).

Objects are matched by name within their kind. A name that is not unique on either side is
reported and left alone: guessing which of two "Checkout" proxies is meant could overwrite
the wrong one. What the service assigns is not in a document, so it is never a difference.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from console.estate.document import REDACTED, SINGULAR, Document, Item
from console.estate.tenant import TenantSnapshot

CREATE = "create"
UPDATE = "update"
UNCHANGED = "unchanged"
ONLY_IN_TARGET = "only in target"
DELETE = "delete"
DUPLICATE = "duplicate name"
BLOCKED = "cannot apply"

CHANGING = (CREATE, UPDATE, DELETE)
"""The actions that send a request."""


@dataclass(frozen=True)
class FieldChange:
    """One field that differs: its path in the object, the target's value and the source's."""

    path: str
    before: Any
    after: Any
    secret: bool = False
    """A proxy configuration value: the plan says it changes, never what it is."""

    @property
    def is_text_block(self) -> bool:
        return (
            isinstance(self.before, str | None)
            and isinstance(self.after, str | None)
            and ("\n" in (self.before or "") or "\n" in (self.after or ""))
        )

    def line_diff(self, source: str = "source", target: str = "target") -> list[str]:
        """Code (any text of several lines) as a unified line diff, target to source."""
        return list(
            difflib.unified_diff(
                (self.before or "").splitlines(),
                (self.after or "").splitlines(),
                fromfile=f"{target}",
                tofile=f"{source}",
                lineterm="",
            )
        )


@dataclass
class Step:
    """What the plan does with one object (or setting) of one kind."""

    kind: str
    name: str
    action: str
    changes: list[FieldChange] = field(default_factory=list)
    desired: Any = None
    """The source's object (or setting value): what is sent."""
    target_id: str | None = None
    note: str = ""
    """Why it is left alone, or what it depends on."""
    code_problems: list[str] = field(default_factory=list)
    """What the code check (the forms' own) finds in the code this step sends: one sentence
    each ("The request transform has 1 syntax error (first at 2:5).")."""

    @property
    def changes_something(self) -> bool:
        return self.action in CHANGING

    @property
    def label(self) -> str:
        return f"{SINGULAR[self.kind]} {self.name}"

    @property
    def redacted(self) -> list[str]:
        """Configuration values this step would send as the --redact placeholder."""
        if self.kind != "proxies" or self.action not in (CREATE, UPDATE):
            return []
        configuration = (self.desired or {}).get("configuration") or {}
        return [k for k, v in configuration.items() if v == REDACTED]


@dataclass
class Plan:
    source: str
    target: str
    steps: list[Step]
    target_snapshot: TenantSnapshot | None = None
    left_behind: list[str] = field(default_factory=list)
    """Fields of the source the plan does not carry to the target, one sentence each: the
    plan says so rather than let the target look made alike."""

    def by_action(self, *actions: str) -> list[Step]:
        return [s for s in self.steps if s.action in actions]

    @property
    def to_do(self) -> list[Step]:
        return [s for s in self.steps if s.changes_something]

    @property
    def nothing_to_do(self) -> bool:
        return not self.to_do

    @property
    def blocked(self) -> list[Step]:
        """Differences the plan cannot make (a type or an expiry that cannot change, an
        application that is not there): the target stays different."""
        return self.by_action(BLOCKED)

    @property
    def differs(self) -> bool:
        """Something to do, or a difference that cannot be made: `diff --exit-code` says 3."""
        return bool(self.to_do or self.blocked)

    def redacted(self) -> list[str]:
        """ "proxy NAME: setting" for every placeholder the plan would send."""
        return [f"proxy {s.name}: {k}" for s in self.steps for k in s.redacted]

    def code_problems(self) -> list[str]:
        """ "proxy NAME: sentence" for every problem of the code a step would send."""
        return [
            f"{s.label}: {problem}"
            for s in self.steps
            if s.changes_something
            for problem in s.code_problems
        ]

    def summary(self) -> str:
        counts = Counter(s.action for s in self.steps)
        order = (CREATE, UPDATE, DELETE, UNCHANGED, ONLY_IN_TARGET, DUPLICATE, BLOCKED)
        words = {
            CREATE: "to create",
            UPDATE: "to update",
            DELETE: "to delete",
            UNCHANGED: "unchanged",
            ONLY_IN_TARGET: "only in target (kept)",
            DUPLICATE: "duplicate names left alone",
            BLOCKED: "cannot apply",
        }
        parts = [f"{counts[a]} {words[a]}" for a in order if counts[a]]
        broken = sum(1 for s in self.steps if s.changes_something and s.code_problems)
        if broken:
            parts.append(f"{broken} with code problems")
        return ", ".join(parts) or "nothing in either"


def field_changes(
    before: Any, after: Any, path: str = "", secret: bool = False
) -> list[FieldChange]:
    """Field by field: maps recurse; anything else (lists, text) differs as a whole."""
    if before == after:
        return []
    if before is None and isinstance(after, Mapping):  # a new transform: its code as lines
        before = {}
    elif after is None and isinstance(before, Mapping):
        after = {}
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        found = []
        for key in [*before, *(k for k in after if k not in before)]:
            child = f"{path}.{key}" if path else str(key)
            hidden = secret or child == "configuration"
            found += field_changes(before.get(key), after.get(key), child, hidden)
        return found
    return [FieldChange(path, before, after, secret)]


def _duplicates(items: Iterable[Item]) -> set[str]:
    counts = Counter(str(i.get("name")) for i in items)
    return {name for name, n in counts.items() if n > 1}


def _by_name(items: Iterable[Item]) -> dict[str, Item]:
    return {str(i.get("name")): i for i in items}


def compute_plan(
    source: Document,
    target: TenantSnapshot,
    *,
    source_label: str = "source",
    target_label: str = "target",
    prune: bool = False,
    only: Mapping[str, set[str]] | None = None,
) -> Plan:
    """Every step that makes `target` look like `source`, in dependency order (settings,
    applications, formulas, proxies, then deletes with `prune`: proxies first).

    `only` limits the plan to these names per kind (a promotion): no settings then, and
    nothing only in the target is listed.
    """
    steps: list[Step] = []
    if only is None:
        steps += _setting_steps(source.get("settings") or {}, target.settings, prune)
    application_steps: dict[str, Step] = {}
    deletes: list[Step] = []
    for kind in ("applications", "reactor_formulas", "proxies"):
        wanted = source.get(kind) or []
        present = target.document.get(kind) or []
        names = None if only is None else only.get(kind, set())
        if names is not None:
            wanted = [i for i in wanted if i.get("name") in names]
            present = [i for i in present if i.get("name") in names]
        kind_steps = _kind_steps(kind, wanted, present, target)
        if kind == "applications":
            application_steps = {s.name: s for s in kind_steps}
        if kind == "proxies":
            _check_applications(kind_steps, application_steps, target)
        for step in kind_steps:
            if step.action == ONLY_IN_TARGET and names is not None:
                continue
            if step.action == ONLY_IN_TARGET and prune:
                if kind == "applications" and step.target_id == target.own_application_id:
                    step.note = "kept: its key is the one this plan is applied with"
                else:
                    step.action = DELETE
                    deletes.append(step)
                    continue
            steps.append(step)
    order = {"proxies": 0, "reactor_formulas": 1, "applications": 2}
    steps += sorted(deletes, key=lambda s: order[s.kind])
    for step in steps:
        step.code_problems = sent_code_problems(step)
    plan = Plan(source_label, target_label, steps, target)
    name = source.get("tenant")
    if only is None and name and target.tenant_name and name != target.tenant_name:
        plan.left_behind.append(
            f"the tenant's name ({compact(name)}; the target's is "
            f"{compact(target.tenant_name)}): each tenant keeps its own"
        )
    return plan


CODE_FIELDS = {
    "reactor_formulas": (("code", "code", False),),
    "proxies": (
        ("request_transform", "request transform", True),
        ("response_transform", "response transform", True),
    ),
}
"""Per kind: (field, label, whether the code sits in the field's `code`)."""


def sent_code_problems(step: Step) -> list[str]:
    """The code check on the code `step` sends: all of a created object's, an updated one's
    only where it changes (code already on the service is not this plan's doing)."""
    from console.code_files.problems import code_check_sentences

    if step.action not in (CREATE, UPDATE) or not isinstance(step.desired, Mapping):
        return []
    changed = {change.path.split(".")[0] for change in step.changes}
    found: list[str] = []
    for name, label, nested in CODE_FIELDS.get(step.kind, ()):
        if step.action == UPDATE and name not in changed:
            continue
        value = step.desired.get(name)
        code = value.get("code") if nested and isinstance(value, Mapping) else value
        if isinstance(code, str):
            found += code_check_sentences(label, code)
    return found


def _setting_steps(
    wanted: Mapping[str, Any], present: Mapping[str, Any], prune: bool
) -> list[Step]:
    steps = []
    for name in sorted({*wanted, *present}):
        if name not in present:
            steps.append(Step("settings", name, CREATE, [FieldChange(name, None, wanted[name])]))
        elif name not in wanted:
            action = DELETE if prune else ONLY_IN_TARGET
            steps.append(Step("settings", name, action, [FieldChange(name, present[name], None)]))
        elif wanted[name] != present[name]:
            change = FieldChange(name, present[name], wanted[name])
            steps.append(Step("settings", name, UPDATE, [change], wanted[name]))
        else:
            steps.append(Step("settings", name, UNCHANGED))
        steps[-1].desired = wanted.get(name)
    return steps


def _kind_steps(
    kind: str, wanted: list[Item], present: list[Item], target: TenantSnapshot
) -> list[Step]:
    twice_in_source, twice_in_target = _duplicates(wanted), _duplicates(present)
    source_items, target_items = _by_name(wanted), _by_name(present)
    steps = []
    for name in sorted({*source_items, *target_items}):
        counts = []
        if name in twice_in_source:
            counts.append(f"{sum(1 for i in wanted if i.get('name') == name)} in the source")
        if name in twice_in_target:
            counts.append(f"{sum(1 for i in present if i.get('name') == name)} in the target")
        if counts:
            note = f"the name is not unique ({', '.join(counts)}): left alone"
            steps.append(Step(kind, name, DUPLICATE, note=note))
            continue
        desired, existing = source_items.get(name), target_items.get(name)
        target_id = target.id_of(kind, name)
        if existing is None:
            steps.append(Step(kind, name, CREATE, desired=desired))
        elif desired is None:
            steps.append(Step(kind, name, ONLY_IN_TARGET, target_id=target_id))
        else:
            changes = field_changes(existing, desired)
            action = UPDATE if changes else UNCHANGED
            step = Step(kind, name, action, changes, desired, target_id)
            if kind == "applications" and existing.get("type") != desired.get("type"):
                step.action = BLOCKED
                step.note = (
                    f"its type cannot change (target: {existing.get('type')}, "
                    f"source: {desired.get('type')})"
                )
            elif kind == "applications":
                _expiry_left_behind(step, existing, desired)
            steps.append(step)
    return steps


def _expiry_left_behind(step: Step, existing: Item, desired: Item) -> None:
    """An application's expiry is set when it is created and never changes: a plan that
    would need it to change says so, and never reports the application as made alike."""
    before, after = existing.get("expires_at"), desired.get("expires_at")
    if before == after:
        return
    both = f"target: {before or 'never'}, source: {after or 'never'}"
    if any(change.path != "expires_at" for change in step.changes):
        step.note = (
            f"expires_at is left behind: the service cannot change an application's expiry "
            f"({both}); the other fields are updated"
        )
        return
    step.action = BLOCKED
    step.note = (
        f"its expiry cannot change once it exists ({both}); to give it this expiry, delete "
        "it in the target and apply again (it gets a new key)"
    )


def _check_applications(
    proxies: list[Step], applications: dict[str, Step], target: TenantSnapshot
) -> None:
    """A proxy can be applied only if its application will exist, once, in the target."""
    for step in proxies:
        if step.action not in (CREATE, UPDATE):
            continue
        name = (step.desired or {}).get("application")
        if name is None:
            continue
        app_step = applications.get(name)
        in_target = target.ids.get("applications", {}).get(name, [])
        if app_step is not None and app_step.action == DUPLICATE:
            step.action, step.note = BLOCKED, f"its application {name} is not unique"
        elif len(in_target) > 1:
            step.action, step.note = BLOCKED, f"its application {name} is not unique in the target"
        elif not in_target and (app_step is None or app_step.action != CREATE):
            step.action, step.note = BLOCKED, f"its application {name} is not in the target"
        elif app_step is not None and app_step.action == CREATE:
            step.note = f"after its application {name}"


def compact(value: Any) -> str:
    """A value on one line, as JSON shows it."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
