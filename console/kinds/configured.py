"""What of each travelling kind's objects travels: its normal form, its request body, and
what the service cannot change once an object exists (the hooks of each EstateFacet).

Only what an administrator configures is in a normal form; what the service assigns (ids,
keys, proxy keys, timestamps, tenant ids) never is, so two exports of tenants configured alike
are equal. Every object's keys come in a fixed order, so two exports diff cleanly in git.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from console.kinds.estate_facet import Item, Unchangeable


def _strings(values: Any) -> list[str]:
    return sorted({v for v in values or [] if isinstance(v, str)})


def moment(value: Any) -> Any:
    """A time as the document writes it: UTC, ISO 8601 with `Z` (`2026-12-01T09:30:00Z`), so
    the service's `+00:00` and a file's `+02:00` of the same moment compare equal. What is
    not a time with a zone is kept as it is (the file check reports it)."""
    if not isinstance(value, str):
        return value
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return value
    if parsed.tzinfo is None:
        return value
    return parsed.astimezone(UTC).isoformat().replace("+00:00", "Z")


# ---- applications ------------------------------------------------------------------------


def _rule(raw: Mapping[str, Any]) -> Item:
    """An access rule in a fixed key order; conditions only when the service sent some."""
    rule: Item = {
        "description": raw.get("description"),
        "priority": raw.get("priority"),
        "container": raw.get("container"),
        "transform": raw.get("transform"),
        "permissions": _strings(raw.get("permissions")),
    }
    if raw.get("conditions"):
        rule["conditions"] = raw["conditions"]
    return rule


def _rule_order(rule: Item) -> tuple[int, str]:
    priority = rule.get("priority")
    return (priority if isinstance(priority, int) else 1 << 62, str(rule.get("description")))


def application_item(raw: Mapping[str, Any]) -> Item:
    """An application as configured: name, type, expiry (null: never), permissions and
    rules; never its key. The expiry travels: a temporary key stays temporary."""
    rules = [_rule(r) for r in raw.get("rules") or [] if isinstance(r, Mapping)]
    return {
        "name": raw.get("name"),
        "type": raw.get("type"),
        "expires_at": moment(raw.get("expires_at")),
        "permissions": _strings(raw.get("permissions")),
        "rules": sorted(rules, key=_rule_order),
    }


def application_body(desired: Item, creating: bool) -> Item:
    """Name, permissions and rules; the type and the expiry on creation only (an update
    cannot send them)."""
    body = {
        "name": desired["name"],
        "permissions": desired["permissions"],
        "rules": desired["rules"],
    }
    if creating:
        body["type"] = desired["type"]
        if desired.get("expires_at"):
            body["expires_at"] = desired["expires_at"]
    return body


def application_unchangeable(
    existing: Item, desired: Item, changed: Sequence[str]
) -> Unchangeable | None:
    """An application's type never changes; its expiry is set when it is created and never
    changes either: a plan that would need it to change says so, and never reports the
    application as made alike."""
    if existing.get("type") != desired.get("type"):
        return Unchangeable(
            f"its type cannot change (target: {existing.get('type')}, "
            f"source: {desired.get('type')})"
        )
    before, after = existing.get("expires_at"), desired.get("expires_at")
    if before == after:
        return None
    both = f"target: {before or 'never'}, source: {after or 'never'}"
    if any(path != "expires_at" for path in changed):
        return Unchangeable(
            f"expires_at is left behind: the service cannot change an application's expiry "
            f"({both}); the other fields are updated",
            blocks=False,
        )
    return Unchangeable(
        f"its expiry cannot change once it exists ({both}); to give it this expiry, delete "
        "it in the target and apply again (it gets a new key)"
    )


def application_type(desired: Item) -> str:
    """What a plan line adds to an application to create: its type."""
    return str(desired.get("type"))


# ---- proxies ---------------------------------------------------------------------------


def _transform(raw: Any) -> Item | None:
    """A transform with `type` and `code` first, then any other fields as given (the hosted
    service's mask transforms): what the console does not understand is carried through. A
    code step is written without its type (`code` is the default), so a service that
    echoes `"type": "code"` and one that does not export it alike."""
    if not isinstance(raw, Mapping):
        return None
    shaped: Item = {}
    for name in ("type", "code"):
        if raw.get(name) is not None:
            shaped[name] = raw[name]
    if shaped.get("type") == "code":  # the default: `{"code": ...}` is the same step
        del shaped["type"]
    for name in sorted(raw):
        if name not in ("type", "code") and raw[name] is not None:
            shaped[name] = raw[name]
    return shaped or None


def _pipeline(raw: Mapping[str, Any], side: str) -> list[Item]:
    """One side's steps: the pipeline (`request_transforms`) when sent as a list, else the
    single transform of the specification as a pipeline of one step (or none)."""
    steps = raw.get(f"{side}_transforms")
    if isinstance(steps, list):
        return [shaped for step in steps if (shaped := _transform(step)) is not None]
    single = _transform(raw.get(f"{side}_transform"))
    return [single] if single is not None else []


def proxy_item(raw: Mapping[str, Any]) -> Item:
    """A proxy as configured; its application by name (ids differ between tenants).

    A side with at most one step is written as the specification's single transform (so
    documents of such proxies are as they always were, whichever service wrote them); a
    longer pipeline as `request_transforms` / `response_transforms`, its single field null.
    `disable_detokenization` and `timeout` only when set."""
    configuration = raw.get("configuration")
    if isinstance(configuration, Mapping):
        configuration = {k: configuration[k] for k in sorted(configuration)}
    else:
        configuration = None
    item: Item = {
        "name": raw.get("name"),
        "destination_url": raw.get("destination_url"),
        "require_auth": bool(raw.get("require_auth", True)),
        "application": raw.get("application"),
    }
    for side in ("request", "response"):
        steps = _pipeline(raw, side)
        item[f"{side}_transform"] = steps[0] if len(steps) == 1 else None
        if len(steps) > 1:
            item[f"{side}_transforms"] = steps
    item["configuration"] = configuration
    if raw.get("disable_detokenization"):
        item["disable_detokenization"] = True
    if raw.get("timeout") is not None:
        item["timeout"] = raw["timeout"]
    return item


# ---- reactor formulas ------------------------------------------------------------------


def _contract(items: Any, *, optional: bool) -> list[Item]:
    """Configuration settings or request parameters, in their own order (it is meaningful)."""
    shaped = []
    for raw in items or []:
        if not isinstance(raw, Mapping):
            continue
        item: Item = {
            "name": raw.get("name"),
            "description": raw.get("description"),
            "type": raw.get("type"),
        }
        if optional:
            item["optional"] = bool(raw.get("optional", False))
        shaped.append(item)
    return shaped


def formula_item(raw: Mapping[str, Any]) -> Item:
    """A private formula as configured: code, configuration, request parameters and icon."""
    return {
        "name": raw.get("name"),
        "description": raw.get("description"),
        "icon": raw.get("icon"),
        "configuration": _contract(raw.get("configuration"), optional=False),
        "request_parameters": _contract(raw.get("request_parameters"), optional=True),
        "code": raw.get("code"),
    }


def private_formula(row: Mapping[str, Any]) -> bool:
    """A tenant's own formula; the official ones belong to the operator and stay."""
    return row.get("type") == "private"


def formula_body(desired: Item, creating: bool) -> Item:
    """The formula as configured, sent as a private one."""
    return {**desired, "type": "private"}


# ---- reactors --------------------------------------------------------------------------


def _options(raw: Any) -> Item | None:
    """A runtime's options given, in name order; None for none (the legacy node-bt)."""
    if not isinstance(raw, Mapping):
        return None
    shaped = {k: raw[k] for k in sorted(raw) if raw[k] is not None}
    return shaped or None


def reactor_item(raw: Mapping[str, Any]) -> Item:
    """A reactor as configured: its application by name, code, runtime options and
    configuration (secret: redacted in exports, never shown in plans)."""
    configuration = raw.get("configuration")
    return {
        "name": raw.get("name"),
        "application": raw.get("application"),
        "code": raw.get("code"),
        "runtime": _options(raw.get("runtime")),
        "configuration": (
            {k: configuration[k] for k in sorted(configuration)}
            if isinstance(configuration, Mapping)
            else {}
        ),
    }


def reactor_body(desired: Item, creating: bool) -> Item:
    """Name, code, application, configuration; the runtime only when the document has one (a
    legacy reactor's body has none, as a spec-era client sends it)."""
    body: Item = {
        "name": desired["name"],
        "code": desired.get("code"),
        "application": desired.get("application"),
        "configuration": desired.get("configuration") or {},
    }
    if desired.get("runtime") is not None:
        body["runtime"] = desired["runtime"]
    return body


# ---- webhooks --------------------------------------------------------------------------


def webhook_item(raw: Mapping[str, Any]) -> Item:
    """A webhook as configured: its name, URL, the events it subscribes to (sorted: their
    order means nothing), the email told when the service disables it, and whether it is
    enabled. Why the local service disabled one (`disabled_reason`) is the service's, never
    configured: it does not travel."""
    return {
        "name": raw.get("name"),
        "url": raw.get("url"),
        "events": _strings(raw.get("events")),
        "notify_email": raw.get("notify_email"),
        "status": raw.get("status") or "enabled",
    }


def webhook_body(desired: Item, creating: bool) -> Item:
    """Name, URL, events and the email (when there is one); the status on update only (a
    webhook is created enabled: see webhook_created_note)."""
    body: Item = {
        "name": desired["name"],
        "url": desired["url"],
        "events": desired["events"],
    }
    if desired.get("notify_email"):
        body["notify_email"] = desired["notify_email"]
    if not creating and desired.get("status"):
        body["status"] = desired["status"]
    return body


def webhook_created_note(desired: Item) -> str:
    """What a plan line adds to a webhook to create: that a disabled one starts enabled (a
    create request has no status; the next apply disables it)."""
    if desired.get("status") == "disabled":
        return "created enabled (a create has no status): apply again to disable it"
    return ""
