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
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from console.terminal_text import printable

Problem = tuple[str, str]
"""(path in the document, sentence)."""

MAX_DEPTH = 64
"""Nesting deeper than this is no configuration (an export nests 6 deep)."""
MAX_NODES = 2_000_000
"""Values in the whole document, aliases counted each time they are used (a YAML alias bomb
expands to billions)."""

SECTIONS = ("format", "tenant", "settings", "applications", "proxies", "reactor_formulas")

APPLICATION_FIELDS = ("name", "type", "expires_at", "permissions", "rules")
RULE_FIELDS = ("description", "priority", "container", "transform", "permissions", "conditions")
PROXY_FIELDS = (
    "name",
    "destination_url",
    "require_auth",
    "application",
    "request_transform",
    "response_transform",
    "configuration",
)
FORMULA_FIELDS = (
    "name",
    "description",
    "icon",
    "configuration",
    "request_parameters",
    "code",
)
CONTRACT_FIELDS = ("name", "description", "type", "optional")

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
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: str, sentence: str) -> None:
        self.problems.append((path, sentence))

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

    def unique_names(self, items: list[tuple[str, Mapping]]) -> None:
        """A name once per kind: objects are matched by name, and which of two is meant
        cannot be guessed."""
        first: dict[str, str] = {}
        for path, item in items:
            name = item.get("name")
            if not isinstance(name, str) or not name.strip():
                continue  # reported as a missing name
            if name in first:
                self.add(
                    f"{path}.name",
                    f"{compact(name)} is also the name of {first[name]}; a name may be used "
                    "once per kind",
                )
            else:
                first[name] = path

    def expired(self, data: Mapping[str, Any], facts: TargetFacts) -> None:
        """An application to create whose expiry has passed (an export kept past it): the
        service creates no expired application."""
        assert facts.now is not None
        for path, item in self.objects(data, "applications", report=False):
            value = item.get("expires_at")
            if not isinstance(value, str) or str(item.get("name")) in facts.applications:
                continue
            try:
                moment = datetime.fromisoformat(value.strip())
            except ValueError:
                continue  # reported by the file's own check
            if moment.tzinfo is not None and moment <= facts.now:
                self.add(
                    f"{path}.expires_at",
                    f"{printable(value)} has passed: the service creates no expired "
                    "application (give a later time, or null for never)",
                )

    def references(self, data: Mapping[str, Any], known: Collection[str] = ()) -> None:
        """Each proxy's application is in the file, or (`known`) in the target."""
        named = {
            item.get("name")
            for _path, item in self.objects(data, "applications", report=False)
            if isinstance(item.get("name"), str)
        }
        for path, item in self.objects(data, "proxies", report=False):
            value = item.get("application")
            name = application_name(value) if isinstance(value, str | Mapping) else None
            if name is None or not name.strip() or name in named or name in known:
                continue
            where = "in this file or in the target" if known else "in this file"
            self.add(
                f"{path}.application",
                f"names the application {compact(name)}, which is not {where}",
            )

    # ---- kinds -------------------------------------------------------------------------

    def application(self, item: Mapping[str, Any], path: str) -> None:
        self.fields(item, APPLICATION_FIELDS, path)
        self.name(item, path)
        self.text(item.get("type"), f"{path}.type", optional=False)
        self.moment(item.get("expires_at"), f"{path}.expires_at")
        self.strings(item.get("permissions"), f"{path}.permissions")
        rules = item.get("rules")
        if rules is None:
            self.grants(item, path)
            return
        if not isinstance(rules, list):
            self.add(f"{path}.rules", f"must be a list of rule objects, not {kind_of(rules)}")
            return
        for index, rule in enumerate(rules):
            at = f"{path}.rules[{index}]"
            if not isinstance(rule, Mapping):
                self.add(at, f"must be a rule object, not {kind_of(rule)}")
                continue
            self.fields(rule, RULE_FIELDS, at)
            self.required_text(rule.get("description"), f"{at}.description", "a description")
            self.text(rule.get("container"), f"{at}.container")
            self.required_text(rule.get("transform"), f"{at}.transform", "a transform")
            priority = rule.get("priority")
            if priority is None:
                self.add(f"{at}.priority", "is required: a whole number from 1 (1 comes first)")
            elif type(priority) is not int:
                self.add(f"{at}.priority", f"must be a whole number, not {kind_of(priority)}")
            elif priority < 1:
                self.add(f"{at}.priority", f"must be 1 or more, not {priority}")
            permissions = rule.get("permissions")
            self.strings(permissions, f"{at}.permissions")
            if permissions is None or permissions == []:
                self.add(f"{at}.permissions", "a rule needs at least one permission")
        self.grants(item, path)

    def grants(self, item: Mapping[str, Any], path: str) -> None:
        """An application holds something: permissions, rules, or both (when both are
        well-formed; a malformed one is reported on its own)."""
        permissions, rules = item.get("permissions"), item.get("rules")
        if permissions not in (None, []) or rules not in (None, []):
            return
        self.add(f"{path}.permissions", "an application needs permissions or rules (or both)")

    def transform(self, value: Any, path: str) -> None:
        if value is None:
            return
        if not isinstance(value, Mapping):
            hint = ' (write {"code": "..."})' if isinstance(value, str) else ""
            self.add(path, f"must be an object, not {kind_of(value)}{hint}")
            return
        kind = value.get("type")
        self.text(kind, f"{path}.type")
        code = value.get("code")
        if kind in (None, "code") and (code is None or (isinstance(code, str) and not code)):
            self.add(
                f"{path}.code",
                'a code transform needs its code ({"code": "module.exports = ..."}); '
                "write null for no transform",
            )
        else:
            self.text(code, f"{path}.code")

    def application_reference(self, value: Any, path: str) -> None:
        """By name: text, or an object with a `name` ({"name": "Checkout web"})."""
        if value is None or isinstance(value, str):
            if isinstance(value, str) and not value.strip():
                self.add(path, "names no application (empty); write null for none")
            return
        if not isinstance(value, Mapping):
            self.add(path, f"must be an application's name, not {kind_of(value)}")
            return
        name = value.get("name")
        if isinstance(name, str) and name.strip():
            return
        if "id" in value:
            self.add(
                path,
                "refers to an application by id; refer to it by name (ids differ between "
                'tenants): "application": "NAME"',
            )
        else:
            self.add(path, 'names no application: give its name ("application": "NAME")')

    def proxy(self, item: Mapping[str, Any], path: str) -> None:
        self.fields(item, PROXY_FIELDS, path)
        self.name(item, path)
        self.text(item.get("destination_url"), f"{path}.destination_url")
        self.boolean(item.get("require_auth"), f"{path}.require_auth")
        self.application_reference(item.get("application"), f"{path}.application")
        for side in ("request_transform", "response_transform"):
            self.transform(item.get(side), f"{path}.{side}")
        configuration = item.get("configuration")
        if configuration is None:
            return
        if not isinstance(configuration, Mapping):
            self.add(
                f"{path}.configuration",
                f"must be an object of names and texts, not {kind_of(configuration)}",
            )
            return
        for key, value in configuration.items():
            if value is not None and not isinstance(value, str):
                self.add(
                    f"{path}.configuration.{printable(str(key))}",
                    f"must be text, not {kind_of(value)}",
                )

    def contract(self, value: Any, path: str, *, optional: bool) -> None:
        if value is None:
            return
        if not isinstance(value, list):
            self.add(path, f"must be a list of objects, not {kind_of(value)}")
            return
        known = CONTRACT_FIELDS if optional else CONTRACT_FIELDS[:3]
        for index, item in enumerate(value):
            at = f"{path}[{index}]"
            if not isinstance(item, Mapping):
                self.add(at, f"must be an object, not {kind_of(item)}")
                continue
            self.fields(item, known, at)
            self.name(item, at)
            self.text(item.get("description"), f"{at}.description")
            self.text(item.get("type"), f"{at}.type")
            if optional:
                self.boolean(item.get("optional"), f"{at}.optional")

    def formula(self, item: Mapping[str, Any], path: str) -> None:
        self.fields(item, FORMULA_FIELDS, path)
        self.name(item, path)
        for field in ("description", "icon"):
            self.text(item.get(field), f"{path}.{field}")
        self.required_text(item.get("code"), f"{path}.code", "the formula's code")
        self.contract(item.get("configuration"), f"{path}.configuration", optional=False)
        self.contract(item.get("request_parameters"), f"{path}.request_parameters", optional=True)


def document_problems(data: Mapping[str, Any]) -> list[Problem]:
    """Every problem of a document whose `format` is right, in document order."""
    check = _Checker()
    for key in data:
        if key not in SECTIONS:
            check.add(
                printable(str(key)),
                f"is not a section of a configuration (the sections are: {', '.join(SECTIONS)})",
            )
    check.text(data.get("tenant"), "tenant")
    settings = data.get("settings")
    if settings is not None and not isinstance(settings, Mapping):
        check.add("settings", f"must be an object of names and texts, not {kind_of(settings)}")
    elif settings is not None:
        check.settings(settings)
    for path, item in check.objects(data, "applications"):
        check.application(item, path)
    for path, item in check.objects(data, "proxies"):
        check.proxy(item, path)
    for path, item in check.objects(data, "reactor_formulas"):
        check.formula(item, path)
    for section in ("applications", "proxies", "reactor_formulas"):
        check.unique_names(check.objects(data, section, report=False))
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


@dataclass(frozen=True)
class TargetFacts:
    """What a file is checked against besides itself: the target's applications and the
    permission catalogue of the service it is on."""

    applications: Mapping[str, tuple[str | None, frozenset[str]]]
    """By name: type, and every permission it holds (kept even where the catalogue does not
    list it: the service granted it)."""
    catalogue: Mapping[str, Collection[str]] | None = None
    """Permission -> the application types that may hold it; None: not checked (a file)."""
    now: datetime | None = None
    """The time an application to create must expire after; None: not checked (a file)."""


def target_problems(data: Mapping[str, Any], facts: TargetFacts) -> list[Problem]:
    """What a sound file (no document_problems) asks of this target that it cannot do: a
    proxy's application in neither, a type the service does not have for an application to
    create, a permission it does not have or allows no such application."""
    check = _Checker()
    check.references(data, facts.applications)
    if facts.now is not None:
        check.expired(data, facts)
    if facts.catalogue is None:
        return check.problems
    types = {kind for allowed in facts.catalogue.values() for kind in allowed}
    for path, item in check.objects(data, "applications", report=False):
        existing = facts.applications.get(str(item.get("name")))
        kind = item.get("type")
        if existing is None and kind not in types:
            check.add(
                f"{path}.type",
                f"{compact(kind)} is not a type of application this service has (it has: "
                f"{', '.join(sorted(types))})",
            )
            continue
        held = existing[1] if existing is not None else frozenset()
        grants = [(f"{path}.permissions", item.get("permissions") or [])]
        for index, rule in enumerate(item.get("rules") or []):
            grants.append((f"{path}.rules[{index}].permissions", rule.get("permissions") or []))
        for at, permissions in grants:
            for index, permission in enumerate(permissions):
                if permission in held:
                    continue
                allowed = facts.catalogue.get(permission)
                if allowed is None:
                    check.add(
                        f"{at}[{index}]",
                        f"{compact(permission)} is not a permission this service has",
                    )
                elif kind not in allowed:
                    check.add(
                        f"{at}[{index}]",
                        f"{compact(permission)} is not allowed for {kind} applications",
                    )
    return check.problems


def application_name(value: Any) -> str | None:
    """The name a (checked) application reference gives: text, or an object's `name`."""
    if isinstance(value, Mapping):
        value = value.get("name")
    return value if isinstance(value, str) else None


__all__ = [
    "MAX_DEPTH",
    "MAX_NODES",
    "Problem",
    "TargetFacts",
    "application_name",
    "document_problems",
    "target_problems",
]
