"""A configuration file checked whole before anything is planned or sent.

Every field of the wrong type or shape is reported with its path (`proxies[2].request_transform`),
all problems at once, so one edit fixes them all; a file with any problem is refused whole.
Without this, a transform given as text or an application reference as an object would be
read as "no transform" or "no application", and apply would remove them from the tenant.

Required fields are checked as the service would (a code transform's code, a rule's
permissions, a formula's code), and so are names used twice in a kind and NaN or infinity
anywhere: a service refusing the third object of a file leaves the first two created. What
depends on the target (a proxy's application, the service's types and permissions) is
`target_problems`, once the target is read and before anything is sent.

What the console itself carries through without understanding stays open: any setting's
text, a rule's conditions, and a transform's fields besides `type` and `code`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from console.estate.travelling import SETTINGS, TENANT, estate_of, in_document
from console.kinds import KINDS
from console.kinds.estate_facet import TargetFacts
from console.kinds.reference import Reference
from console.terminal_text import printable

Problem = tuple[str, str]
"""(path in the document, sentence)."""

MAX_DEPTH = 64
"""Nesting deeper than this is no configuration (an export nests 6 deep)."""
MAX_NODES = 2_000_000
"""Values in the whole document, aliases counted each time they are used (a YAML alias bomb
expands to billions)."""

FIXED_SECTIONS = ("format", TENANT, SETTINGS)
"""The sections before the kinds' own."""


def sections() -> tuple[str, ...]:
    """Every section a configuration may have, in the document's order."""
    return (*FIXED_SECTIONS, *(kind.key for kind in in_document()))


_TYPE_NAMES = {
    dict: "an object",
    list: "a list",
    str: "text",
    bool: "true or false",
    int: "a whole number",
    float: "a number",
    type(None): "null",
}


def compact(value: Any) -> str:
    """A name as JSON writes it (quoted, escapes shown)."""
    return printable(json.dumps(value, ensure_ascii=False))


def kind_of(value: Any) -> str:
    """What a value is, in a person's words ("text", "a list")."""
    if isinstance(value, Mapping):
        return "an object"
    for python_type, words in _TYPE_NAMES.items():
        if type(value) is python_type:
            return words
    return type(value).__name__


def shape_problems(data: Any) -> list[Problem]:
    """Nesting deeper than MAX_DEPTH or more than MAX_NODES values: walked without recursion,
    so neither a deep file nor an alias bomb can exhaust the stack or the time."""
    pending: list[tuple[Any, int]] = [(data, 0)]
    seen = 0
    while pending:
        value, depth = pending.pop()
        seen += 1
        if seen > MAX_NODES:
            return [("", f"the file holds more than {MAX_NODES:,} values; it is no configuration")]
        if depth > MAX_DEPTH:
            return [("", f"the file nests deeper than {MAX_DEPTH} levels; it is no configuration")]
        if isinstance(value, Mapping):
            pending.extend((child, depth + 1) for child in value.values())
        elif isinstance(value, list):
            pending.extend((child, depth + 1) for child in value)
    return []


class _Checker:
    """The file check's pieces and its problems, in the order found (a FileCheck for the
    kinds' own checks, console.kinds.estate_checks)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, sentence: str) -> None:
        self.problems.append((path, sentence))

    def describe(self, value: Any) -> str:
        return kind_of(value)

    def quote(self, value: Any) -> str:
        return compact(value)

    def shown(self, text: str) -> str:
        return printable(text)

    # ---- pieces ------------------------------------------------------------------------

    def text(self, value: Any, path: str, *, optional: bool = True) -> None:
        if value is None and optional:
            return
        if not isinstance(value, str):
            self.add(path, f"must be text, not {kind_of(value)}")

    def required_text(self, value: Any, path: str, what: str) -> None:
        if value is None or (isinstance(value, str) and not value.strip()):
            self.add(path, f"{what} (non-empty text) is required")
        else:
            self.text(value, path)

    def moment(self, value: Any, path: str) -> None:
        """A time with its zone (ISO 8601: `2026-12-01T09:30:00Z`), or null for never."""
        if value is None:
            return
        if not isinstance(value, str):
            self.add(path, f"must be a time as text (2026-12-01T09:30:00Z), not {kind_of(value)}")
            return
        try:
            parsed = datetime.fromisoformat(value.strip())
        except ValueError:
            self.add(path, "is not a time: write it as 2026-12-01T09:30:00Z (ISO 8601)")
            return
        if parsed.tzinfo is None:
            self.add(path, "has no time zone: add one (Z for UTC, or +02:00)")

    def boolean(self, value: Any, path: str) -> None:
        if value is not None and not isinstance(value, bool):
            self.add(path, f"must be true or false, not {kind_of(value)}")

    def strings(self, value: Any, path: str) -> None:
        if value is None:
            return
        if not isinstance(value, list):
            hint = ' (write ["a", "b"], not "a, b")' if isinstance(value, str) else ""
            self.add(path, f"must be a list of texts, not {kind_of(value)}{hint}")
            return
        for index, item in enumerate(value):
            if not isinstance(item, str):
                self.add(f"{path}[{index}]", f"must be text, not {kind_of(item)}")

    def fields(self, item: Mapping[str, Any], known: tuple[str, ...], path: str) -> None:
        for key in item:
            if key not in known:
                self.add(
                    f"{path}.{printable(str(key))}",
                    f"is not a field here (the fields are: {', '.join(known)})",
                )

    def name(self, item: Mapping[str, Any], path: str) -> None:
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            what = "missing" if name is None else f"{kind_of(name)}, not a name"
            self.add(f"{path}.name", f"a name (non-empty text) is required; it is {what}")

    def objects(
        self, data: Mapping[str, Any], section: str, *, report: bool = True
    ) -> list[tuple[str, Mapping]]:
        value = data.get(section)
        if value is None:
            return []
        if not isinstance(value, list):
            if report:
                self.add(section, f"must be a list of objects, not {kind_of(value)}")
            return []
        found = []
        for index, item in enumerate(value):
            path = f"{section}[{index}]"
            if isinstance(item, Mapping):
                found.append((path, item))
            elif report:
                self.add(path, f"must be an object, not {kind_of(item)}")
        return found

    def settings(self, settings: Mapping[str, Any]) -> None:
        """Values are text (or null, as a hosted tenant may hold): a service takes nothing
        else, and YAML reads an unquoted true as a boolean."""
        for key, value in settings.items():
            if value is None or isinstance(value, str):
                continue
            hint = f' (write "{str(value).lower()}", in quotes)' if isinstance(value, bool) else ""
            self.add(f"settings.{printable(str(key))}", f"must be text, not {kind_of(value)}{hint}")

    def unique_names(self, items: list[tuple[str, Mapping]], by: str) -> None:
        """A name (the field `by`) once per kind: objects are matched by name, and which of
        two is meant cannot be guessed."""
        first: dict[str, str] = {}
        for path, item in items:
            name = item.get(by)
            if not isinstance(name, str) or not name.strip():
                continue  # reported as a missing name
            if name in first:
                self.add(
                    f"{path}.{by}",
                    f"{compact(name)} is also the name of {first[name]}; a name may be used "
                    "once per kind",
                )
            else:
                first[name] = path

    def references(self, data: Mapping[str, Any], known: TargetFacts | None = None) -> None:
        """Each reference names an object in the file, or (`known`) in the target."""
        for kind in in_document():
            for reference in estate_of(kind).references:
                self._referred(data, kind.key, reference, known)

    def _referred(
        self, data: Mapping[str, Any], key: str, reference: Reference, known: TargetFacts | None
    ) -> None:
        referred = KINDS.get(reference.kind)
        by = referred.name_field
        named = {
            item.get(by)
            for _path, item in self.objects(data, reference.kind, report=False)
            if isinstance(item.get(by), str)
        }
        in_target = known.names(reference.kind, by) if known is not None else set()
        noun = referred.nouns.singular
        for path, item in self.objects(data, key, report=False):
            value = item.get(reference.field)
            name = referred_name(value) if isinstance(value, str | Mapping) else None
            if name is None or not name.strip() or name in named or name in in_target:
                continue
            where = "in this file or in the target" if in_target else "in this file"
            self.add(
                f"{path}.{reference.field}",
                f"names the {noun} {compact(name)}, which is not {where}",
            )

    def reference(self, item: Mapping[str, Any], path: str, reference: Reference) -> None:
        """By name: text, or an object with a `name` ({"name": "Checkout web"})."""
        value, path = item.get(reference.field), f"{path}.{reference.field}"
        noun = KINDS.get(reference.kind).nouns
        if value is None or isinstance(value, str):
            if isinstance(value, str) and not value.strip():
                self.add(path, f"names no {noun.singular} (empty); write null for none")
            return
        if not isinstance(value, Mapping):
            self.add(path, f"must be {noun.a_singular}'s name, not {kind_of(value)}")
            return
        name = value.get("name")
        if isinstance(name, str) and name.strip():
            return
        if "id" in value:
            self.add(
                path,
                f"refers to {noun.a_singular} by id; refer to it by name (ids differ between "
                f'tenants): "{reference.field}": "NAME"',
            )
        else:
            self.add(
                path,
                f'names no {noun.singular}: give its name ("{reference.field}": "NAME")',
            )


def document_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a document whose `format` is right, in document order."""
    check = _Checker()
    known = sections()
    for key in data:
        if key not in known:
            check.add(
                printable(str(key)),
                f"is not a section of a configuration (the sections are: {', '.join(known)})",
            )
    check.text(data.get(TENANT), TENANT)
    settings = data.get(SETTINGS)
    if settings is not None and not isinstance(settings, Mapping):
        check.add(SETTINGS, f"must be an object of names and texts, not {kind_of(settings)}")
    elif settings is not None:
        check.settings(settings)
    kinds = in_document()
    for kind in kinds:
        for path, item in check.objects(data, kind.key):
            estate_of(kind).check(check, item, path)
    for kind in kinds:
        located = check.objects(data, kind.key, report=False)
        check.unique_names(located, kind.name_field)
        limit = estate_of(kind).limit
        if limit is not None and len(located) > limit:
            check.add(
                kind.key,
                f"holds {len(located)} {kind.nouns.plural}; a tenant holds at most {limit}",
            )
    numbers = number_problems(data)
    odd = {path for path, _ in numbers}  # "is nan" says more than "must be text, not a number"
    return [p for p in check.problems if not (p[0] in odd and p[1].startswith("must be"))] + numbers


def number_problems(data: Any) -> list[Problem]:
    """Every NaN or infinity (JSON's `NaN`, `Infinity`; YAML's `.nan`, `.inf`), with its path:
    no service takes them, and Python's JSON reader lets them through."""
    found: list[Problem] = []
    pending: list[tuple[Any, str]] = [(data, "")]
    while pending:
        value, path = pending.pop()
        if isinstance(value, float) and not math.isfinite(value):
            found.append((path, f"is {value!r}, which is no number a service accepts"))
        elif isinstance(value, Mapping):
            for key in reversed(list(value)):
                name = printable(str(key))
                pending.append((value[key], f"{path}.{name}" if path else name))
        elif isinstance(value, list):
            pending.extend((item, f"{path}[{i}]") for i, item in reversed(list(enumerate(value))))
    return found


def target_problems(data: Mapping[str, Any], facts: TargetFacts) -> list[Problem]:
    """What a sound file (no document_problems) asks of this target that it cannot do: an
    object it refers to in neither (a proxy's application), then what each kind's own check
    finds (a type or a permission the service does not have for an application to create)."""
    check = _Checker()
    check.references(data, facts)
    for kind in in_document():
        target_check = estate_of(kind).target_check
        if target_check is not None:
            located = check.objects(data, kind.key, report=False)
            target_check(check, located, facts.objects.get(kind.key, ()), facts)
    return check.problems


def referred_name(value: Any) -> str | None:
    """The name a (checked) reference gives: text, or an object's `name`."""
    if isinstance(value, Mapping):
        value = value.get("name")
    return value if isinstance(value, str) else None


__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "Problem",
    "TargetFacts",
    "document_problems",
    "referred_name",
    "target_problems",
]
