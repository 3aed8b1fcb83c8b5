"""Each travelling kind's file check: the fields of one object as the service would judge
them, and what a file's objects ask of a target (the hooks of each EstateFacet).

The pieces (text, a time, a list of texts, a reference) and the reporting come from the
file check itself (console.estate.validate), through the FileCheck protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from console.kinds.estate_facet import FileCheck, Located, TargetFacts
from console.kinds.reference import Reference

APPLICATION_FIELDS = ("name", "type", "expires_at", "permissions", "rules")
RULE_FIELDS = ("description", "priority", "container", "transform", "permissions", "conditions")
PROXY_FIELDS = (
    "name",
    "destination_url",
    "require_auth",
    "application",
    "request_transform",
    "request_transforms",
    "response_transform",
    "response_transforms",
    "configuration",
    "disable_detokenization",
    "timeout",
)
TRANSFORMS_MAX = 10
"""Steps a pipeline may hold (console.models.proxies.TRANSFORMS_MAX)."""
REACTOR_FIELDS = ("name", "application", "code", "runtime", "configuration")
FORMULA_FIELDS = (
    "name",
    "description",
    "icon",
    "configuration",
    "request_parameters",
    "code",
)
CONTRACT_FIELDS = ("name", "description", "type", "optional")


# ---- applications ----------------------------------------------------------------------


def check_application(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
    check.fields(item, APPLICATION_FIELDS, path)
    check.name(item, path)
    check.text(item.get("type"), f"{path}.type", optional=False)
    check.moment(item.get("expires_at"), f"{path}.expires_at")
    check.strings(item.get("permissions"), f"{path}.permissions")
    rules = item.get("rules")
    if rules is None:
        _grants(check, item, path)
        return
    if not isinstance(rules, list):
        check.add(f"{path}.rules", f"must be a list of rule objects, not {check.describe(rules)}")
        return
    for index, rule in enumerate(rules):
        at = f"{path}.rules[{index}]"
        if not isinstance(rule, Mapping):
            check.add(at, f"must be a rule object, not {check.describe(rule)}")
            continue
        check.fields(rule, RULE_FIELDS, at)
        check.required_text(rule.get("description"), f"{at}.description", "a description")
        check.text(rule.get("container"), f"{at}.container")
        check.required_text(rule.get("transform"), f"{at}.transform", "a transform")
        priority = rule.get("priority")
        if priority is None:
            check.add(f"{at}.priority", "is required: a whole number from 1 (1 comes first)")
        elif type(priority) is not int:
            check.add(f"{at}.priority", f"must be a whole number, not {check.describe(priority)}")
        elif priority < 1:
            check.add(f"{at}.priority", f"must be 1 or more, not {priority}")
        permissions = rule.get("permissions")
        check.strings(permissions, f"{at}.permissions")
        if permissions is None or permissions == []:
            check.add(f"{at}.permissions", "a rule needs at least one permission")
    _grants(check, item, path)


def _grants(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
    """An application holds something: permissions, rules, or both (when both are
    well-formed; a malformed one is reported on its own)."""
    permissions, rules = item.get("permissions"), item.get("rules")
    if permissions not in (None, []) or rules not in (None, []):
        return
    check.add(f"{path}.permissions", "an application needs permissions or rules (or both)")


def check_applications_on_target(
    check: FileCheck, located: Located, own: Sequence[Mapping[str, Any]], facts: TargetFacts
) -> None:
    """Applications to create whose expiry has passed (with a time to judge by), then, with
    the service's permission catalogue, types and permissions the service does not have or
    allows no such application."""
    existing = _held(own)
    if facts.now is not None:
        _expired(check, located, existing, facts.now)
    if facts.catalogue is None:
        return
    catalogue = facts.catalogue
    types = {kind for allowed in catalogue.values() for kind in allowed}
    for path, item in located:
        found = existing.get(str(item.get("name")))
        kind = item.get("type")
        if found is None and kind not in types:
            check.add(
                f"{path}.type",
                f"{check.quote(kind)} is not a type of application this service has (it has: "
                f"{', '.join(sorted(types))})",
            )
            continue
        held = found[1] if found is not None else frozenset()
        grants = [(f"{path}.permissions", item.get("permissions") or [])]
        for index, rule in enumerate(item.get("rules") or []):
            grants.append((f"{path}.rules[{index}].permissions", rule.get("permissions") or []))
        for at, permissions in grants:
            for index, permission in enumerate(permissions):
                if permission in held:
                    continue
                allowed = catalogue.get(permission)
                if allowed is None:
                    check.add(
                        f"{at}[{index}]",
                        f"{check.quote(permission)} is not a permission this service has",
                    )
                elif kind not in allowed:
                    check.add(
                        f"{at}[{index}]",
                        f"{check.quote(permission)} is not allowed for {kind} applications",
                    )


def _held(own: Sequence[Mapping[str, Any]]) -> dict[str, tuple[Any, frozenset[str]]]:
    """The target's applications by name: type, and every permission each holds (kept even
    where the catalogue does not list it: the service granted it)."""
    applications: dict[str, tuple[Any, frozenset[str]]] = {}
    for item in own:
        name = str(item.get("name"))
        held = {*item.get("permissions", [])}
        for rule in item.get("rules") or []:
            held.update(rule.get("permissions") or [])
        if name in applications:  # a name twice: the plan leaves both alone
            held.update(applications[name][1])
        applications[name] = (item.get("type"), frozenset(held))
    return applications


def _expired(
    check: FileCheck, located: Located, existing: Mapping[str, Any], now: datetime
) -> None:
    """An application to create whose expiry has passed (an export kept past it): the
    service creates no expired application."""
    for path, item in located:
        value = item.get("expires_at")
        if not isinstance(value, str) or str(item.get("name")) in existing:
            continue
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            continue  # reported by the file's own check
        if moment.tzinfo is not None and moment <= now:
            check.add(
                f"{path}.expires_at",
                f"{check.shown(value)} has passed: the service creates no expired "
                "application (give a later time, or null for never)",
            )


# ---- proxies ---------------------------------------------------------------------------


def proxy_check(application: Reference) -> Callable[[FileCheck, Mapping[str, Any], str], None]:
    """The check of a proxy, whose `application` is the reference given."""

    def check_proxy(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
        check.fields(item, PROXY_FIELDS, path)
        check.name(item, path)
        check.text(item.get("destination_url"), f"{path}.destination_url")
        check.boolean(item.get("require_auth"), f"{path}.require_auth")
        check.reference(item, path, application)
        check.boolean(item.get("disable_detokenization"), f"{path}.disable_detokenization")
        _timeout(check, item.get("timeout"), f"{path}.timeout")
        for side in ("request", "response"):
            _transform(check, item.get(f"{side}_transform"), f"{path}.{side}_transform")
            _pipeline(check, item, side, path)
        _configuration(check, item.get("configuration"), f"{path}.configuration")

    return check_proxy


def _configuration(check: FileCheck, configuration: Any, path: str) -> None:
    if configuration is None:
        return
    if not isinstance(configuration, Mapping):
        check.add(
            path, f"must be an object of names and texts, not {check.describe(configuration)}"
        )
        return
    for key, value in configuration.items():
        if value is not None and not isinstance(value, str):
            check.add(
                f"{path}.{check.shown(str(key))}", f"must be text, not {check.describe(value)}"
            )


def _timeout(check: FileCheck, value: Any, path: str) -> None:
    if value is not None and (type(value) is not int or not 1 <= value <= 30):
        check.add(
            path, f"must be a whole number of seconds from 1 to 30, not {check.shown(str(value))}"
        )


def _pipeline(check: FileCheck, item: Mapping[str, Any], side: str, path: str) -> None:
    """`request_transforms`: a list of at most TRANSFORMS_MAX steps, each a transform; not
    beside a single `request_transform`."""
    steps = item.get(f"{side}_transforms")
    at = f"{path}.{side}_transforms"
    if steps is None:
        return
    if not isinstance(steps, list):
        check.add(at, f"must be a list of transform objects, not {check.describe(steps)}")
        return
    if item.get(f"{side}_transform") is not None:
        check.add(at, f"give {side}_transforms or {side}_transform, not both")
    if len(steps) > TRANSFORMS_MAX:
        check.add(at, f"holds {len(steps)} steps; a pipeline holds at most {TRANSFORMS_MAX}")
    for index, step in enumerate(steps):
        if step is None:
            check.add(f"{at}[{index}]", "must be a transform object, not null")
        else:
            _transform(check, step, f"{at}[{index}]")


def _transform(check: FileCheck, value: Any, path: str) -> None:
    if value is None:
        return
    if not isinstance(value, Mapping):
        hint = ' (write {"code": "..."})' if isinstance(value, str) else ""
        check.add(path, f"must be an object, not {check.describe(value)}{hint}")
        return
    kind = value.get("type")
    check.text(kind, f"{path}.type")
    code = value.get("code")
    if kind in (None, "code") and (code is None or (isinstance(code, str) and not code)):
        check.add(
            f"{path}.code",
            'a code transform needs its code ({"code": "module.exports = ..."}); '
            "write null for no transform",
        )
    else:
        check.text(code, f"{path}.code")


# ---- reactor formulas ------------------------------------------------------------------


def check_formula(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
    check.fields(item, FORMULA_FIELDS, path)
    check.name(item, path)
    for field in ("description", "icon"):
        check.text(item.get(field), f"{path}.{field}")
    check.required_text(item.get("code"), f"{path}.code", "the formula's code")
    _contract(check, item.get("configuration"), f"{path}.configuration", optional=False)
    _contract(check, item.get("request_parameters"), f"{path}.request_parameters", optional=True)


def _contract(check: FileCheck, value: Any, path: str, *, optional: bool) -> None:
    if value is None:
        return
    if not isinstance(value, list):
        check.add(path, f"must be a list of objects, not {check.describe(value)}")
        return
    known = CONTRACT_FIELDS if optional else CONTRACT_FIELDS[:3]
    for index, item in enumerate(value):
        at = f"{path}[{index}]"
        if not isinstance(item, Mapping):
            check.add(at, f"must be an object, not {check.describe(item)}")
            continue
        check.fields(item, known, at)
        check.name(item, at)
        check.text(item.get("description"), f"{at}.description")
        check.text(item.get("type"), f"{at}.type")
        if optional:
            check.boolean(item.get("optional"), f"{at}.optional")


# ---- reactors --------------------------------------------------------------------------


def reactor_check(application: Reference) -> Callable[[FileCheck, Mapping[str, Any], str], None]:
    """The check of a reactor, whose `application` is the reference given; its runtime as
    the service judges one (console.models.reactors.ReactorRuntime)."""

    def check_reactor(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
        check.fields(item, REACTOR_FIELDS, path)
        check.name(item, path)
        check.required_text(item.get("code"), f"{path}.code", "the reactor's code")
        check.reference(item, path, application)
        _configuration(check, item.get("configuration"), f"{path}.configuration")
        _runtime(check, item.get("runtime"), f"{path}.runtime")

    return check_reactor


def _runtime(check: FileCheck, runtime: Any, path: str) -> None:
    if runtime is None:
        return
    if not isinstance(runtime, Mapping):
        check.add(path, f"must be an object of runtime options, not {check.describe(runtime)}")
        return
    from pydantic import ValidationError

    from console.models.errors import field_errors
    from console.models.reactors import ReactorRuntime

    try:
        ReactorRuntime.model_validate(dict(runtime))
    except ValidationError as exc:
        errors = field_errors(exc)  # paths and sentences, never the values
        for where, sentences in errors.items():
            for sentence in sentences:
                at = f"{path}.{check.shown(where)}" if where else path
                check.add(at, sentence.rstrip("."))


# ---- webhooks --------------------------------------------------------------------------

WEBHOOK_FIELDS = ("name", "url", "events", "notify_email", "status")


def check_webhook(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
    """A webhook as the service judges one (console.models.webhooks): an http(s) URL, at
    least one event type the service sends (each once), a well-formed email if any, a
    status of enabled or disabled."""
    from console.models.people import is_email
    from console.models.webhooks import STATUSES, webhook_url_problem

    check.fields(item, WEBHOOK_FIELDS, path)
    check.name(item, path)
    url = item.get("url")
    check.required_text(url, f"{path}.url", "the URL events are sent to")
    if isinstance(url, str) and url and (problem := webhook_url_problem(url)):
        check.add(f"{path}.url", problem.rstrip("."))
    _events(check, item.get("events"), f"{path}.events")
    email = item.get("notify_email")
    check.text(email, f"{path}.notify_email")
    if isinstance(email, str) and email and not is_email(email):
        check.add(f"{path}.notify_email", f"{check.quote(email)} is not an email address")
    status = item.get("status")
    if status is not None and status not in STATUSES:
        check.add(
            f"{path}.status",
            f"must be {' or '.join(STATUSES)}, not {check.quote(status)}",
        )


def _events(check: FileCheck, events: Any, path: str) -> None:
    from console.models.webhooks import event_type_problem

    if events is None or events == []:
        check.add(path, "a webhook needs at least one event type")
        return
    if not isinstance(events, list):
        check.add(path, f"must be a list of event types, not {check.describe(events)}")
        return
    seen: set[str] = set()
    for index, event in enumerate(events):
        at = f"{path}[{index}]"
        if not isinstance(event, str):
            check.add(at, f"must be an event type, not {check.describe(event)}")
            continue
        problem = event_type_problem(event)
        if problem is not None:
            check.add(at, check.shown(problem.rstrip(".")))
        elif event in seen:
            check.add(at, f"{check.quote(event)} is given twice")
        seen.add(event)
