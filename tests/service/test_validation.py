"""Every validation rule of the spec and the API decisions: one 400 case per rule.

Each case asserts the status, the problem+json content type and the JSON path that `errors`
names. Boundary cases just inside each limit are accepted, so the rules are not too strict.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from service_http import (
    Caller,
    application_body,
    assert_invalid,
    assert_problem,
    describe,
    formula_body,
    future,
    http_client,
    private_application_body,
    proxy_body,
    unique,
    unknown_id,
)

PNG_1X1 = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
    )
).decode()


@dataclass
class World:
    """One tenant with an object of each kind, and a private application of another tenant."""

    caller: Caller
    formula: str
    proxy: str
    management_app: str
    private_app: str
    public_app: str
    other_private_app: str

    def path(self, template: str) -> str:
        return template.format(**self.__dict__)


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def world(service, client) -> World:
    tenant = service.new_tenant("Validation")
    other = service.new_tenant("Validation peer")
    caller = Caller(client, tenant.key)
    other_caller = Caller(client, other.key)
    return World(
        caller=caller,
        formula=caller.created("/reactor-formulas", formula_body())["id"],
        proxy=caller.created("/proxies", proxy_body())["id"],
        management_app=caller.created("/applications", application_body())["id"],
        private_app=caller.created("/applications", private_application_body())["id"],
        public_app=caller.created(
            "/applications", application_body(type="public", permissions=["token:create"])
        )["id"],
        other_private_app=other_caller.created("/applications", private_application_body())["id"],
    )


Body = Callable[[World], Any]


@dataclass(frozen=True)
class Rule:
    """A request that breaks one rule, and the JSON paths `errors` may name for it."""

    name: str
    method: str
    path: str
    body: Body
    paths: tuple[str, ...]


def without(body: dict[str, Any], field: str) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != field}


def rule(description: dict[str, Any], **overrides: Any) -> dict[str, Any]:
    return {**description, **overrides}


PRIVATE_RULE = {
    "description": "Read cards",
    "priority": 1,
    "container": "/pci/",
    "transform": "mask",
    "permissions": ["token:read"],
}
MANAGEMENT_RULE = {
    "description": "Read proxies",
    "priority": 1,
    "transform": "redact",
    "permissions": ["proxy:read"],
}
LONG = "x" * 201
CONTRACT_26 = [{"name": f"p{i}", "type": "string"} for i in range(26)]


def private_app_with_rules(*rules: dict[str, Any]) -> dict[str, Any]:
    return application_body(type="private", permissions=[], rules=list(rules))


RULES: list[Rule] = [
    # name: required and at most 200, on all four resources.
    Rule("formula name required", "POST", "/reactor-formulas",
         lambda w: without(formula_body(), "name"), ("name",)),
    Rule("formula name > 200", "POST", "/reactor-formulas",
         lambda w: formula_body(name=LONG), ("name",)),
    Rule("formula update name > 200", "PUT", "/reactor-formulas/{formula}",
         lambda w: formula_body(name=LONG), ("name",)),
    Rule("proxy name required", "POST", "/proxies",
         lambda w: without(proxy_body(), "name"), ("name",)),
    Rule("proxy name > 200", "POST", "/proxies", lambda w: proxy_body(name=LONG), ("name",)),
    Rule("proxy update name > 200", "PUT", "/proxies/{proxy}",
         lambda w: proxy_body(name=LONG), ("name",)),
    Rule("application name required", "POST", "/applications",
         lambda w: without(application_body(), "name"), ("name",)),
    Rule("application name > 200", "POST", "/applications",
         lambda w: application_body(name=LONG), ("name",)),
    Rule("application update name > 200", "PUT", "/applications/{management_app}",
         lambda w: {"name": LONG, "permissions": ["proxy:read"]}, ("name",)),
    Rule("tenant name required", "PUT", "/tenants/self", lambda w: {}, ("name",)),
    Rule("tenant name > 200", "PUT", "/tenants/self", lambda w: {"name": LONG}, ("name",)),
    # type required on create.
    Rule("formula type required", "POST", "/reactor-formulas",
         lambda w: without(formula_body(), "type"), ("type",)),
    Rule("formula type unknown", "POST", "/reactor-formulas",
         lambda w: formula_body(type="shared"), ("type",)),
    Rule("application type required", "POST", "/applications",
         lambda w: without(application_body(), "type"), ("type",)),
    Rule("application type unknown", "POST", "/applications",
         lambda w: application_body(type="robot"), ("type",)),
    # formula texts.
    Rule("formula code required", "POST", "/reactor-formulas",
         lambda w: without(formula_body(), "code"), ("code",)),
    Rule("formula code > 50000", "POST", "/reactor-formulas",
         lambda w: formula_body(code="x" * 50_001), ("code",)),
    Rule("formula description > 1000", "POST", "/reactor-formulas",
         lambda w: formula_body(description="d" * 1001), ("description",)),
    # proxy destination.
    Rule("proxy destination_url required", "POST", "/proxies",
         lambda w: without(proxy_body(), "destination_url"), ("destination_url",)),
    Rule("proxy destination_url > 400", "POST", "/proxies",
         lambda w: proxy_body(destination_url="https://example.com/" + "a" * 381),
         ("destination_url",)),
    Rule("proxy destination_url http", "POST", "/proxies",
         lambda w: proxy_body(destination_url="http://example.com/x"), ("destination_url",)),
    Rule("proxy destination_url relative", "POST", "/proxies",
         lambda w: proxy_body(destination_url="/relative/path"), ("destination_url",)),
    Rule("proxy update destination_url not https", "PUT", "/proxies/{proxy}",
         lambda w: proxy_body(destination_url="ftp://example.com/x"), ("destination_url",)),
    # application grants.
    Rule("application create permissions or rules", "POST", "/applications",
         lambda w: application_body(permissions=[], rules=[]), ("permissions", "rules")),
    Rule("application create neither permissions nor rules sent", "POST", "/applications",
         lambda w: without(application_body(), "permissions"), ("permissions", "rules")),
    Rule("application update permissions or rules", "PUT", "/applications/{management_app}",
         lambda w: {"name": "x", "permissions": [], "rules": []}, ("permissions", "rules")),
    Rule("unknown permission", "POST", "/applications",
         lambda w: application_body(permissions=["token:teleport"]), ("permissions[0]",)),
    Rule("unknown permission on update", "PUT", "/applications/{management_app}",
         lambda w: {"name": "x", "permissions": ["proxy:read", "nope"]}, ("permissions[1]",)),
    Rule("management given token:read", "POST", "/applications",
         lambda w: application_body(permissions=["token:read"]), ("permissions[0]",)),
    Rule("private given tenant:read", "POST", "/applications",
         lambda w: private_application_body(permissions=["tenant:read"]), ("permissions[0]",)),
    Rule("public given token:read on update", "PUT", "/applications/{public_app}",
         lambda w: {"name": "x", "permissions": ["token:read"]}, ("permissions[0]",)),
    # access rules.
    Rule("rule priority < 1", "POST", "/applications",
         lambda w: private_app_with_rules(rule(PRIVATE_RULE, priority=0)), ("rules[0].priority",)),
    Rule("rule duplicate priority", "POST", "/applications",
         lambda w: private_app_with_rules(PRIVATE_RULE, rule(PRIVATE_RULE, container="/bank/")),
         ("rules[1].priority",)),
    Rule("rule transform unknown", "POST", "/applications",
         lambda w: private_app_with_rules(rule(PRIVATE_RULE, transform="encrypt")),
         ("rules[0].transform",)),
    Rule("rule container required for private", "POST", "/applications",
         lambda w: private_app_with_rules(without(PRIVATE_RULE, "container")),
         ("rules[0].container",)),
    Rule("rule container required for public", "POST", "/applications",
         lambda w: application_body(
             type="public", permissions=[],
             rules=[without(rule(PRIVATE_RULE, permissions=["token:create"]), "container")]),
         ("rules[0].container",)),
    Rule("rule container rejected for management", "POST", "/applications",
         lambda w: application_body(permissions=[], rules=[rule(MANAGEMENT_RULE, container="/x/")]),
         ("rules[0].container",)),
    Rule("rule conditions on an application", "POST", "/applications",
         lambda w: private_app_with_rules(rule(PRIVATE_RULE, conditions=[
             {"attribute": "container", "operator": "starts_with", "value": "/pci/"}])),
         ("rules[0].conditions",)),
    Rule("rule permission not allowed for type", "POST", "/applications",
         lambda w: private_app_with_rules(rule(PRIVATE_RULE, permissions=["proxy:read"])),
         ("rules[0].permissions[0]",)),
    Rule("rule container on management update", "PUT", "/applications/{management_app}",
         lambda w: {"name": "x", "rules": [rule(MANAGEMENT_RULE, container="/x/")]},
         ("rules[0].container",)),
    # application lifetime and type.
    Rule("expires_at in the past", "POST", "/applications",
         lambda w: application_body(expires_at=future(-3600)), ("expires_at",)),
    Rule("expires_at not a date", "POST", "/applications",
         lambda w: application_body(expires_at="tomorrow"), ("expires_at",)),
    Rule("type sent on application update", "PUT", "/applications/{management_app}",
         lambda w: {"name": "x", "type": "management", "permissions": ["proxy:read"]}, ("type",)),
    # formula contracts and icon.
    Rule("configuration name with a dot", "POST", "/reactor-formulas",
         lambda w: formula_body(configuration=[{"name": "db.host", "type": "string"}]),
         ("configuration[0].name",)),
    Rule("configuration type unknown", "POST", "/reactor-formulas",
         lambda w: formula_body(configuration=[{"name": "a", "type": "object"}]),
         ("configuration[0].type",)),
    Rule("request parameter type unknown", "POST", "/reactor-formulas",
         lambda w: formula_body(request_parameters=[{"name": "a", "type": "array"}]),
         ("request_parameters[0].type",)),
    Rule("configuration > 25 items", "POST", "/reactor-formulas",
         lambda w: formula_body(configuration=CONTRACT_26), ("configuration",)),
    Rule("request_parameters > 25 items", "PUT", "/reactor-formulas/{formula}",
         lambda w: formula_body(request_parameters=CONTRACT_26), ("request_parameters",)),
    Rule("icon not a data URL", "POST", "/reactor-formulas",
         lambda w: formula_body(icon="https://example.com/icon.png"), ("icon",)),
    Rule("icon wrong media type", "POST", "/reactor-formulas",
         lambda w: formula_body(icon="data:image/gif;base64,R0lGODlhAQABAAAAACw="), ("icon",)),
    Rule("icon base64 undecodable", "POST", "/reactor-formulas",
         lambda w: formula_body(icon="data:image/png;base64,***not base64***"), ("icon",)),
    # proxy transforms, configuration and application.
    Rule("proxy request transform empty code", "POST", "/proxies",
         lambda w: proxy_body(request_transform={"code": ""}), ("request_transform.code",)),
    Rule("proxy response transform without code", "PUT", "/proxies/{proxy}",
         lambda w: proxy_body(response_transform={}), ("response_transform.code",)),
    Rule("proxy configuration not a map", "POST", "/proxies",
         lambda w: proxy_body(configuration=["a", "b"]), ("configuration",)),
    Rule("proxy configuration value not a string", "POST", "/proxies",
         lambda w: proxy_body(configuration={"retries": 3}),
         ("configuration.retries", "configuration")),
    Rule("proxy application unknown", "POST", "/proxies",
         lambda w: proxy_body(application={"id": unknown_id()}), ("application.id",)),
    Rule("proxy application is management", "POST", "/proxies",
         lambda w: proxy_body(application={"id": w.management_app}), ("application.id",)),
    Rule("proxy application of another tenant", "POST", "/proxies",
         lambda w: proxy_body(application={"id": w.other_private_app}), ("application.id",)),
    Rule("proxy update application of another tenant", "PUT", "/proxies/{proxy}",
         lambda w: proxy_body(application={"id": w.other_private_app}), ("application.id",)),
    # JSON types as documented, not coercible look-alikes (found by schemathesis).
    Rule("proxy require_auth a string", "POST", "/proxies",
         lambda w: proxy_body(require_auth="yes"), ("require_auth",)),
    Rule("proxy require_auth a number", "PUT", "/proxies/{proxy}",
         lambda w: proxy_body(require_auth=0), ("require_auth",)),
    Rule("request parameter optional a number", "POST", "/reactor-formulas",
         lambda w: formula_body(request_parameters=[{"name": "a", "type": "string",
                                                     "optional": 0}]),
         ("request_parameters[0].optional",)),
    Rule("rule priority a string", "POST", "/applications",
         lambda w: private_app_with_rules(rule(PRIVATE_RULE, priority="1")),
         ("rules[0].priority",)),
    Rule("proxy application id not a uuid", "POST", "/proxies",
         lambda w: proxy_body(application={"id": "not-a-uuid"}), ("application.id",)),
    # tenant settings.
    Rule("tenant setting not true/false", "PUT", "/tenants/self",
         lambda w: {"name": "T", "settings": {"fingerprint_tokens": "yes",
                                              "deduplicate_tokens": "false"}},
         ("settings.fingerprint_tokens",)),
    Rule("tenant setting a JSON boolean", "PUT", "/tenants/self",
         lambda w: {"name": "T", "settings": {"fingerprint_tokens": "true",
                                              "deduplicate_tokens": True}},
         ("settings.deduplicate_tokens",)),
]  # fmt: skip


@pytest.mark.parametrize("case", RULES, ids=lambda r: r.name)
def test_rule_is_enforced(world: World, case: Rule) -> None:
    response = world.caller.request(case.method, world.path(case.path), json=case.body(world))
    assert_invalid(response, *case.paths)


def test_rejected_create_stores_nothing(world: World) -> None:
    name = unique("Rejected")
    response = world.caller.post("/proxies", json=proxy_body(name=name, destination_url="http://x"))
    assert_invalid(response, "destination_url")
    listed = world.caller.get("/proxies", params={"name": name})
    assert listed.status_code == 200, describe(listed)
    assert listed.json()["data"] == []


def test_rejected_update_changes_nothing(world: World) -> None:
    before = world.caller.get(f"/proxies/{world.proxy}").json()
    body = proxy_body(name="changed", destination_url="http://plain.example.com")
    assert_invalid(world.caller.put(f"/proxies/{world.proxy}", json=body), "destination_url")
    assert world.caller.get(f"/proxies/{world.proxy}").json() == before


def test_every_broken_field_is_reported_at_once(world: World) -> None:
    body = {"name": LONG, "type": "private", "code": ""}
    errors = assert_invalid(world.caller.post("/reactor-formulas", json=body), "name")
    assert "code" in errors, errors


# Bodies that are not JSON objects.


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/proxies"), ("PUT", "/tenants/self"), ("PUT", "/applications/{management_app}")],
)
def test_malformed_json_is_400(world: World, method: str, path: str) -> None:
    response = world.caller.request(
        method,
        world.path(path),
        content=b'{"name": "half',
        headers={"Content-Type": "application/json"},
    )
    assert_problem(response, 400)


@pytest.mark.parametrize("body", [b"[]", b'"text"', b"null", b"42"], ids=str)
def test_body_that_is_not_an_object_is_400(world: World, body: bytes) -> None:
    response = world.caller.post(
        "/reactor-formulas", content=body, headers={"Content-Type": "application/json"}
    )
    assert_problem(response, 400)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "application/xml"],
)
@pytest.mark.parametrize(("method", "path"), [("POST", "/proxies"), ("PUT", "/tenants/self")])
def test_non_json_content_type_is_415(
    world: World, method: str, path: str, content_type: str
) -> None:
    name = unique("Typed")
    payload = proxy_body(name=name) if path == "/proxies" else {"name": name}
    response = world.caller.request(
        method,
        path,
        content=httpx.Request("POST", "http://x", json=payload).content,
        headers={"Content-Type": content_type},
    )
    assert_problem(response, 415)
    if path == "/proxies":
        assert world.caller.get("/proxies", params={"name": name}).json()["data"] == []


# Query parameters.

LISTS = ["/reactor-formulas", "/proxies", "/applications"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"page": 0}, "page"),
        ({"page": -1}, "page"),
        ({"page": "abc"}, "page"),
        ({"size": 0}, "size"),
        ({"size": 101}, "size"),
        ({"size": "ten"}, "size"),
    ],
    ids=lambda v: "&".join(f"{k}={x}" for k, x in v.items()) if isinstance(v, dict) else v,
)
@pytest.mark.parametrize("path", LISTS)
def test_bad_paging_is_400(world: World, path: str, params: dict[str, Any], field: str) -> None:
    assert_invalid(world.caller.get(path, params=params), field)


@pytest.mark.parametrize("param", ["page", "size"])
@pytest.mark.parametrize("path", LISTS)
def test_huge_paging_numbers_are_no_server_error(world: World, path: str, param: str) -> None:
    """Found by schemathesis: a page number past 2**63 must not overflow into a 500."""
    response = world.caller.get(path, params={param: str(10**25)})
    assert response.status_code in (200, 400), describe(response)
    if response.status_code == 200:
        assert response.json()["data"] == []
    else:
        assert_invalid(response, param)


@pytest.mark.parametrize("path", ["/proxies", "/applications"])
def test_id_filter_not_a_uuid_is_400(world: World, path: str) -> None:
    assert_invalid(world.caller.get(path, params={"id": "not-a-uuid"}), "id", "id[0]")


def test_unknown_application_type_on_permissions_is_400(world: World) -> None:
    response = world.caller.get("/permissions", params={"application_type": "robot"})
    assert_invalid(response, "application_type")


# Just inside every limit: accepted.


@pytest.mark.parametrize("path", LISTS)
def test_paging_limits_are_accepted(world: World, path: str) -> None:
    for params in ({"page": 1, "size": 1}, {"page": 1, "size": 100}, {"page": 1000}):
        response = world.caller.get(path, params=params)
        assert response.status_code == 200, describe(response)


def test_page_past_the_end_is_empty(world: World) -> None:
    response = world.caller.get("/proxies", params={"page": 1000, "size": 100})
    assert response.status_code == 200, describe(response)
    assert response.json()["data"] == []


def test_limits_are_inclusive(world: World) -> None:
    formula = formula_body(
        name="n" * 200,
        description="d" * 1000,
        code="c" * 50_000,
        configuration=[{"name": f"c{i}", "type": "boolean"} for i in range(25)],
        request_parameters=[{"name": f"card.p{i}", "type": "number"} for i in range(25)],
    )
    created = world.caller.created("/reactor-formulas", formula)
    assert created["name"] == "n" * 200
    assert len(created["request_parameters"]) == 25
    url = "https://example.com/" + "a" * 380
    assert len(url) == 400
    assert world.caller.created("/proxies", proxy_body(name="p" * 200, destination_url=url))
    assert world.caller.created("/applications", application_body(name="a" * 200))
    response = world.caller.put("/tenants/self", json={"name": "t" * 200})
    assert response.status_code == 200, describe(response)


@pytest.mark.parametrize("media_type", ["image/png", "image/jpg", "image/jpeg"])
def test_icon_media_types_are_accepted(world: World, media_type: str) -> None:
    icon = f"data:{media_type};base64,{PNG_1X1}"
    assert world.caller.created("/reactor-formulas", formula_body(icon=icon))["icon"] == icon


@pytest.mark.parametrize("application", ["private_app", "public_app"])
def test_proxy_application_of_own_tenant_is_accepted(world: World, application: str) -> None:
    app_id = getattr(world, application)
    created = world.caller.created("/proxies", proxy_body(application={"id": app_id}))
    assert created["application_id"] == app_id


def test_rules_without_permissions_are_enough(world: World) -> None:
    created = world.caller.created("/applications", private_app_with_rules(PRIVATE_RULE))
    assert created["permissions"] == []
    assert created["rules"][0]["container"] == "/pci/"
    body = {"name": "rules only", "rules": [MANAGEMENT_RULE]}
    response = world.caller.put(f"/applications/{world.management_app}", json=body)
    assert response.status_code == 200, describe(response)
    assert response.json()["rules"][0]["priority"] == 1


@pytest.mark.parametrize("value", ["true", "false"])
def test_tenant_settings_strings_are_accepted(world: World, value: str) -> None:
    settings = {"fingerprint_tokens": value, "deduplicate_tokens": value}
    response = world.caller.put("/tenants/self", json={"name": "T", "settings": settings})
    assert response.status_code == 200, describe(response)
    assert response.json()["settings"] == settings
