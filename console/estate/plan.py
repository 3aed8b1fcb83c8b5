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

from console.estate.document import REDACTED, Document
from console.estate.tenant import TenantSnapshot
from console.estate.travelling import SETTINGS, estate_of, in_apply_order, noun
from console.kinds import KINDS, Kind
from console.kinds.estate_facet import Item
from console.kinds.reference import Reference

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
    """A value that may be a secret (a proxy's configuration): the plan says it changes,
    never what it is."""

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
        return f"{noun(self.kind)} {self.name}"

    @property
    def redacted(self) -> list[str]:
        """Values this step would send as the --redact placeholder (a proxy's configuration
        settings)."""
        if self.kind == SETTINGS or self.action not in (CREATE, UPDATE):
            return []
        found = []
        for name in estate_of(KINDS.get(self.kind)).redacted:
            values = (self.desired or {}).get(name) or {}
            found += [k for k, v in values.items() if v == REDACTED]
        return found


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
        return [f"{s.label}: {k}" for s in self.steps for k in s.redacted]

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
    before: Any,
    after: Any,
    path: str = "",
    secret: bool = False,
    hidden: Iterable[str] = (),
    itemized: Iterable[str] = (),
) -> list[FieldChange]:
    """Field by field: maps recurse; the lists of the `itemized` fields (a proxy's pipeline)
    item by item (`request_transforms[1].code`); anything else (lists, text) differs as a
    whole. The values of the `hidden` fields (and all below them) are secret."""
    if before == after:
        return []
    itemized = tuple(itemized)
    if path in itemized and isinstance(before or [], list) and isinstance(after or [], list):
        old, new = list(before or []), list(after or [])
        found: list[FieldChange] = []
        for index in range(max(len(old), len(new))):
            found += field_changes(
                old[index] if index < len(old) else None,
                new[index] if index < len(new) else None,
                f"{path}[{index}]",
                secret,
                hidden,
            )
        return found
    if before is None and isinstance(after, Mapping):  # a new transform: its code as lines
        before = {}
    elif after is None and isinstance(before, Mapping):
        after = {}
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        found = []
        for key in [*before, *(k for k in after if k not in before)]:
            child = f"{path}.{key}" if path else str(key)
            found += field_changes(
                before.get(key),
                after.get(key),
                child,
                secret or child in hidden,
                hidden,
                itemized,
            )
        return found
    return [FieldChange(path, before, after, secret)]


def _duplicates(items: Iterable[Item], by: str) -> set[str]:
    counts = Counter(str(i.get(by)) for i in items)
    return {name for name, n in counts.items() if n > 1}


def _by_name(items: Iterable[Item], by: str) -> dict[str, Item]:
    return {str(i.get(by)): i for i in items}


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
    then the kinds in apply order: applications, formulas, proxies; then deletes with
    `prune`, in the reverse order: proxies first).

    `only` limits the plan to these names per kind (a promotion): no settings then, and
    nothing only in the target is listed.
    """
    steps: list[Step] = []
    if only is None:
        steps += _setting_steps(source.get(SETTINGS) or {}, target.settings, prune)
    by_kind: dict[str, dict[str, Step]] = {}
    deletes: list[Step] = []
    for kind in in_apply_order():
        wanted = source.get(kind.key) or []
        present = target.document.get(kind.key) or []
        names = None if only is None else only.get(kind.key, set())
        if names is not None:
            wanted = [i for i in wanted if i.get(kind.name_field) in names]
            present = [i for i in present if i.get(kind.name_field) in names]
        kind_steps = _kind_steps(kind, wanted, present, target)
        by_kind[kind.key] = {s.name: s for s in kind_steps}
        for reference in estate_of(kind).references:
            _check_references(kind_steps, reference, by_kind.get(reference.kind, {}), target)
        limit = estate_of(kind).limit
        first: list[Step] = []  # a limited kind's deletes, before its creates
        for step in kind_steps:
            if step.action == ONLY_IN_TARGET and names is not None:
                continue
            if step.action == ONLY_IN_TARGET and prune:
                if kind.features.keys and step.target_id == target.own_application_id:
                    step.note = "kept: its key is the one this plan is applied with"
                else:
                    step.action = DELETE
                    (first if limit is not None else deletes).append(step)
                    continue
            steps.append(step)
        if limit is not None:
            kept = [s for s in kind_steps if all(s is not d for d in first)]
            _within_limit(kind, limit, kept, first, target)
            at = next((n for n, s in enumerate(steps) if s.kind == kind.key), len(steps))
            steps[at:at] = first
    order = {kind.key: place for place, kind in enumerate(reversed(in_apply_order()))}
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


def _within_limit(
    kind: Kind, limit: int, steps: list[Step], deleted: list[Step], target: TenantSnapshot
) -> None:
    """Blocks every create of `kind` when applying them would leave the target holding
    more than `limit` (a promotion's plan holds only some names: the target's others count
    too)."""
    creates = [s for s in steps if s.action == CREATE]
    if not creates:
        return
    named = sum(len(ids) for ids in target.ids.get(kind.key, {}).values())
    held = max(len(target.document.get(kind.key) or []), named)  # a promotion's: every id
    after = held - len(deleted) + len(creates)
    if after <= limit:
        return
    plural = kind.nouns.plural
    note = (
        f"the target would hold {after} {plural}; a tenant holds at most {limit} (delete "
        f"some there{'' if deleted else ', or apply with --prune'})"
    )
    for step in creates:
        step.action, step.note = BLOCKED, note


def sent_code_problems(step: Step) -> list[str]:
    """The code check on the code `step` sends: all of a created object's, an updated one's
    only where it changes (code already on the service is not this plan's doing)."""
    from console.code_files.problems import code_check_sentences

    if step.kind == SETTINGS or step.action not in (CREATE, UPDATE):
        return []
    if not isinstance(step.desired, Mapping):
        return []
    changed = {change.path.split(".")[0].split("[")[0] for change in step.changes}
    found: list[str] = []
    for field_ in estate_of(KINDS.get(step.kind)).code:
        if step.action == UPDATE and field_.field not in changed:
            continue
        for label, code in field_.codes(step.desired.get(field_.field)):
            found += code_check_sentences(label, code)
    return found


def _setting_steps(
    wanted: Mapping[str, Any], present: Mapping[str, Any], prune: bool
) -> list[Step]:
    steps = []
    for name in sorted({*wanted, *present}):
        if name not in present:
            steps.append(Step(SETTINGS, name, CREATE, [FieldChange(name, None, wanted[name])]))
        elif name not in wanted:
            action = DELETE if prune else ONLY_IN_TARGET
            steps.append(Step(SETTINGS, name, action, [FieldChange(name, present[name], None)]))
        elif wanted[name] != present[name]:
            change = FieldChange(name, present[name], wanted[name])
            steps.append(Step(SETTINGS, name, UPDATE, [change], wanted[name]))
        else:
            steps.append(Step(SETTINGS, name, UNCHANGED))
        steps[-1].desired = wanted.get(name)
    return steps


def _kind_steps(
    kind: Kind, wanted: list[Item], present: list[Item], target: TenantSnapshot
) -> list[Step]:
    facet, by = estate_of(kind), kind.name_field
    twice_in_source, twice_in_target = _duplicates(wanted, by), _duplicates(present, by)
    source_items, target_items = _by_name(wanted, by), _by_name(present, by)
    steps = []
    for name in sorted({*source_items, *target_items}):
        counts = []
        if name in twice_in_source:
            counts.append(f"{sum(1 for i in wanted if i.get(by) == name)} in the source")
        if name in twice_in_target:
            counts.append(f"{sum(1 for i in present if i.get(by) == name)} in the target")
        if counts:
            note = f"the name is not unique ({', '.join(counts)}): left alone"
            steps.append(Step(kind.key, name, DUPLICATE, note=note))
            continue
        desired, existing = source_items.get(name), target_items.get(name)
        target_id = target.id_of(kind.key, name)
        if existing is None:
            steps.append(Step(kind.key, name, CREATE, desired=desired))
        elif desired is None:
            steps.append(Step(kind.key, name, ONLY_IN_TARGET, target_id=target_id))
        else:
            itemized = [code.field for code in facet.code if code.each]
            changes = field_changes(existing, desired, hidden=facet.secret, itemized=itemized)
            action = UPDATE if changes else UNCHANGED
            step = Step(kind.key, name, action, changes, desired, target_id)
            unchangeable = None
            if facet.cannot_change is not None:
                paths = [change.path for change in changes]
                unchangeable = facet.cannot_change(existing, desired, paths)
            if unchangeable is not None:
                step.note = unchangeable.note
                if unchangeable.blocks:
                    step.action = BLOCKED
            steps.append(step)
    return steps


def _check_references(
    steps: list[Step], reference: Reference, referred: dict[str, Step], target: TenantSnapshot
) -> None:
    """An object can be applied only if the one it refers to (a proxy's application) will
    exist, once, in the target."""
    what = KINDS.get(reference.kind).nouns.singular
    for step in steps:
        if step.action not in (CREATE, UPDATE):
            continue
        name = (step.desired or {}).get(reference.field)
        if name is None:
            continue
        other = referred.get(name)
        in_target = target.ids.get(reference.kind, {}).get(name, [])
        if other is not None and other.action == DUPLICATE:
            step.action, step.note = BLOCKED, f"its {what} {name} is not unique"
        elif len(in_target) > 1:
            step.action, step.note = BLOCKED, f"its {what} {name} is not unique in the target"
        elif not in_target and (other is None or other.action != CREATE):
            step.action, step.note = BLOCKED, f"its {what} {name} is not in the target"
        elif other is not None and other.action == CREATE:
            step.note = f"after its {what} {name}"


def compact(value: Any) -> str:
    """A value on one line, as JSON shows it."""
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
