"""Issue #15: every `pattern` of the OpenAPI document accepts exactly what its validator does.

Each pattern lives next to its validator (console.models) and the document reads it from
there; this checks the two against one table of examples (pattern_examples.py,
destination_urls.py). A pattern the tables do not cover fails the test, so a new one comes
with its examples.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import destination_urls
import jsonschema_rs
import pattern_examples as ex
import pytest
from pydantic import BaseModel, ValidationError
from service_http import http_client

from console.models import (
    ApplicationCreate,
    ApplicationUpdate,
    PayloadInvalid,
    ProxyCreate,
    ReactorFormulaCreate,
    TenantUpdate,
)
from console.models.formulas import FormulaConfiguration
from console.models.people import InvitationCreate, SecurityContactUpdate
from console.models.reactors import ReactorCreate, ReactorPatch, ReactorRuntime
from console.models.webhooks import WebhookCreate, WebhookUpdate
from console.service.api.query import QueryParameters

Verdict = Callable[[str], bool]


def _body_field(model: Any, body: dict[str, Any], field: str, **context: Any) -> Verdict:
    """Whether `model` accepts a body that is valid but for `field`."""

    def accepts(value: str) -> bool:
        try:
            model.parse({**body, field: value}, **context)
        except PayloadInvalid as exc:
            assert set(exc.errors) == {field}, exc.errors  # only the field under test is at fault
            return False
        return True

    return accepts


def _model_field(model: type[BaseModel], data: dict[str, Any], field: str) -> Verdict:
    def accepts(value: str) -> bool:
        try:
            model.model_validate({**data, field: value})
        except ValidationError as exc:
            assert {e["loc"][0] for e in exc.errors()} == {field}, exc.errors()
            return False
        return True

    return accepts


def _package_name(value: str) -> bool:
    """Whether a runtime accepts `value` as a package name in `dependencies`."""
    try:
        ReactorRuntime.model_validate({"dependencies": {value: "1.0.0"}})
    except ValidationError as exc:
        assert {e["loc"][0] for e in exc.errors()} == {"dependencies"}, exc.errors()
        return False
    return True


@dataclass(frozen=True)
class Rule:
    """A table of examples and the validator whose verdict the pattern must repeat."""

    valid: list[str]
    invalid: list[tuple[str, str]]
    accepts: Verdict


URLS = (destination_urls.VALID, destination_urls.INVALID)
ICONS = (ex.ICONS_VALID, ex.ICONS_INVALID)
NAMES = (ex.NAMES_VALID, ex.NAMES_INVALID)
EMAILS = (ex.EMAILS_VALID, ex.EMAILS_INVALID)
WEBHOOK_URLS = (ex.WEBHOOK_URLS_VALID, ex.WEBHOOK_URLS_INVALID)
WEBHOOK = {"name": "Hook", "url": "https://example.com/in", "events": ["token.created"]}
GRANTS = {"permissions": ["proxy:read"]}
MANAGEMENT = {"type": "management", **GRANTS}
FORMULA = {"type": "private", "code": "x"}

RULES: dict[str, Rule] = {
    "ProxyCreate.destination_url": Rule(
        *URLS, _body_field(ProxyCreate, {"name": "P"}, "destination_url")
    ),
    # A merge-patch is validated as the proxy it makes (ProxyCreate's rules).
    "ProxyPatch.destination_url": Rule(
        *URLS, _body_field(ProxyCreate, {"name": "P"}, "destination_url")
    ),
    "ProxyPatch.name": Rule(
        *NAMES, _body_field(ProxyCreate, {"destination_url": "https://example.com"}, "name")
    ),
    "ReactorFormulaCreate.icon": Rule(
        *ICONS, _body_field(ReactorFormulaCreate, {**FORMULA, "name": "F"}, "icon")
    ),
    "FormulaConfiguration.name": Rule(
        ex.CONFIGURATION_NAMES_VALID,
        ex.CONFIGURATION_NAMES_INVALID,
        _model_field(FormulaConfiguration, {"type": "string"}, "name"),
    ),
    "ApplicationCreate.name": Rule(*NAMES, _body_field(ApplicationCreate, MANAGEMENT, "name")),
    "ApplicationUpdate.name": Rule(
        *NAMES,
        _body_field(ApplicationUpdate, GRANTS, "name", application_type="management"),
    ),
    "ProxyCreate.name": Rule(
        *NAMES, _body_field(ProxyCreate, {"destination_url": "https://example.com"}, "name")
    ),
    "ReactorFormulaCreate.name": Rule(*NAMES, _body_field(ReactorFormulaCreate, FORMULA, "name")),
    "TenantUpdate.name": Rule(*NAMES, _body_field(TenantUpdate, {}, "name")),
    "ReactorCreate.name": Rule(*NAMES, _body_field(ReactorCreate, {"code": "x"}, "name")),
    "ReactorPatch.name": Rule(*NAMES, _body_field(ReactorPatch, {}, "name")),
    "GET /proxies ?name": Rule(
        ex.NAME_FILTERS_VALID, ex.NAME_FILTERS_INVALID, _model_field(QueryParameters, {}, "name")
    ),
    "GET /reactor-formulas ?name": Rule(
        ex.NAME_FILTERS_VALID, ex.NAME_FILTERS_INVALID, _model_field(QueryParameters, {}, "name")
    ),
    "InvitationCreate.email": Rule(*EMAILS, _body_field(InvitationCreate, {}, "email")),
    "SecurityContactUpdate.email": Rule(*EMAILS, _body_field(SecurityContactUpdate, {}, "email")),
    "components/schemas/NpmPackages/propertyNames": Rule(
        ex.PACKAGE_NAMES_VALID, ex.PACKAGE_NAMES_INVALID, _package_name
    ),
    "GET /reactors ?name": Rule(
        ex.NAME_FILTERS_VALID, ex.NAME_FILTERS_INVALID, _model_field(QueryParameters, {}, "name")
    ),
    "WebhookCreate.name": Rule(*NAMES, _body_field(WebhookCreate, WEBHOOK, "name")),
    "WebhookUpdate.name": Rule(*NAMES, _body_field(WebhookUpdate, WEBHOOK, "name")),
    "WebhookCreate.url": Rule(*WEBHOOK_URLS, _body_field(WebhookCreate, WEBHOOK, "url")),
    "WebhookUpdate.url": Rule(*WEBHOOK_URLS, _body_field(WebhookUpdate, WEBHOOK, "url")),
    "WebhookCreate.notify_email": Rule(
        *EMAILS, _body_field(WebhookCreate, WEBHOOK, "notify_email")
    ),
    "WebhookUpdate.notify_email": Rule(
        *EMAILS, _body_field(WebhookUpdate, WEBHOOK, "notify_email")
    ),
    "GET /logs ?entity_type": Rule(
        ex.ENTITY_TYPES_VALID,
        ex.ENTITY_TYPES_INVALID,
        _model_field(QueryParameters, {}, "entity_type"),
    ),
}


def _patterned(node: Any, where: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], dict]]:
    """Every schema of the document that has a `pattern`, with the path that leads to it."""
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield where, node
        for key, value in node.items():
            yield from _patterned(value, (*where, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _patterned(value, (*where, i))


def _label(document: dict[str, Any], where: tuple[Any, ...]) -> str:
    """`ProxyCreate.destination_url`, `GET /proxies ?name`; else the raw path (no rule)."""
    match where:
        case ("components", "schemas", model, "properties", field, *_):
            return f"{model}.{field}"
        case ("paths", path, method, "parameters", index, "schema"):
            name = document["paths"][path][method]["parameters"][index]["name"]
            return f"{method.upper()} {path} ?{name}"
    return "/".join(str(part) for part in where)


@pytest.fixture(scope="module")
def documented(service) -> dict[str, dict[str, Any]]:
    """Every patterned schema of the served document, by label."""
    with http_client(service.base_url) as client:
        document = client.get("/openapi.json").json()
    found: dict[str, dict[str, Any]] = {}
    for where, schema in _patterned(document):
        label = _label(document, where)
        assert label not in found, f"two patterns at {label}"
        found[label] = schema
    return found


def test_every_documented_pattern_has_a_table_of_examples(documented: dict[str, Any]) -> None:
    assert set(documented) == set(RULES)


def _reads(schema: dict[str, Any], value: str) -> tuple[bool, bool]:
    """The schema's verdict as a JSON Schema validator (ECMA-262) reads it, and as a
    generator such as schemathesis reads the pattern (Python's `re`, the whole string)."""
    pattern = schema["pattern"]
    assert pattern.startswith("^") and pattern.endswith("$"), pattern
    within = schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", len(value))
    python = within and re.fullmatch(pattern[1:-1], value) is not None
    return jsonschema_rs.is_valid(schema, value), python


CASES = [
    pytest.param(label, value, True, id=f"{label}: valid {value[:40]!r}")
    for label, rule in RULES.items()
    for value in rule.valid
] + [
    pytest.param(label, value, False, id=f"{label}: invalid ({why}) {value[:40]!r}")
    for label, rule in RULES.items()
    for value, why in rule.invalid
]


@pytest.mark.parametrize(("label", "value", "valid"), CASES)
def test_the_pattern_and_its_validator_follow_the_table(
    documented: dict[str, dict[str, Any]], label: str, value: str, valid: bool
) -> None:
    assert RULES[label].accepts(value) is valid, "the validator disagrees with the table"
    ecma, python = _reads(documented[label], value)
    assert ecma is valid, f"the document (ECMA-262) disagrees: {documented[label]}"
    assert python is valid, f"the document (Python re) disagrees: {documented[label]}"
