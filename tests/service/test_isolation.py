"""Tenant isolation: another tenant's object is indistinguishable from one that does not exist.

Tenant A owns one object of each kind; tenant B (full management key) tries every object
endpoint on A's ids and must get exactly the 404 an unknown id gets, while A's objects stay
untouched. Official formulas are the one shared kind: both see them, neither may change them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from service_http import (
    Caller,
    assert_invalid,
    assert_problem,
    describe,
    formula_body,
    http_client,
    ids,
    private_application_body,
    proxy_body,
    unknown_id,
)

UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


@dataclass
class Peers:
    a: Caller
    b: Caller
    a_tenant: str
    b_tenant: str
    objects: dict[str, dict[str, Any]]  # A's objects by kind
    b_objects: dict[str, dict[str, Any]]


KINDS = {
    "formula": ("/reactor-formulas", formula_body),
    "proxy": ("/proxies", proxy_body),
    "application": ("/applications", private_application_body),
}


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def peers(service, client) -> Peers:
    a = service.new_tenant("Isolation A")
    b = service.new_tenant("Isolation B")
    a_caller, b_caller = Caller(client, a.key), Caller(client, b.key)
    objects = {kind: a_caller.created(path, body()) for kind, (path, body) in KINDS.items()}
    b_objects = {kind: b_caller.created(path, body()) for kind, (path, body) in KINDS.items()}
    return Peers(a_caller, b_caller, a.tenant_id, b.tenant_id, objects, b_objects)


def _update_body(kind: str) -> dict[str, Any]:
    if kind == "application":
        return {"name": "hijacked", "permissions": ["token:read"]}
    return KINDS[kind][1](name="hijacked")


# (kind, method, path suffix, body)
OBJECT_CALLS = [
    (kind, method, suffix)
    for kind in KINDS
    for method, suffix in [("GET", ""), ("PUT", ""), ("DELETE", "")]
] + [("application", "POST", "/regenerate")]


def _shape(response: httpx.Response, object_id: str) -> Any:
    """The response with the id taken out, to compare a foreign id with an unknown one."""
    text = response.text.replace(object_id, "<id>")
    return response.status_code, response.headers.get("content-type"), UUID_RE.sub("<uuid>", text)


@pytest.mark.parametrize(
    ("kind", "method", "suffix"),
    OBJECT_CALLS,
    ids=[f"{m} {KINDS[k][0]}/{{id}}{s}" for k, m, s in OBJECT_CALLS],
)
def test_other_tenants_object_is_404_like_an_unknown_one(
    peers: Peers, kind: str, method: str, suffix: str
) -> None:
    path = KINDS[kind][0]
    body = _update_body(kind) if method == "PUT" else None
    foreign = peers.objects[kind]["id"]
    missing = unknown_id()
    response = peers.b.request(method, f"{path}/{foreign}{suffix}", json=body)
    assert_problem(response, 404)
    assert "errors" not in response.json()
    unknown = peers.b.request(method, f"{path}/{missing}{suffix}", json=body)
    assert_problem(unknown, 404)
    assert _shape(response, foreign) == _shape(unknown, missing)
    # A's object is unchanged (not renamed, not deleted).
    own = peers.a.get(f"{path}/{foreign}")
    assert own.status_code == 200, describe(own)
    assert own.json()["name"] == peers.objects[kind]["name"]


def test_regenerate_by_other_tenant_leaves_the_key_working(peers: Peers, client) -> None:
    app = peers.objects["application"]
    assert_problem(peers.b.post(f"/applications/{app['id']}/regenerate"), 404)
    # The private application's key is still valid: it reaches the permission check (403),
    # not the authentication one (401).
    response = Caller(client, app["key"]).get("/proxies")
    assert_problem(response, 403)


@pytest.mark.parametrize("kind", list(KINDS))
def test_lists_never_show_the_other_tenants_objects(peers: Peers, kind: str) -> None:
    path = KINDS[kind][0]
    seen_by_b = ids(peers.b.list_all(path))
    assert peers.objects[kind]["id"] not in seen_by_b
    assert peers.b_objects[kind]["id"] in seen_by_b
    seen_by_a = ids(peers.a.list_all(path))
    assert peers.b_objects[kind]["id"] not in seen_by_a
    assert peers.objects[kind]["id"] in seen_by_a


@pytest.mark.parametrize("kind", ["proxy", "application"])
def test_id_filter_with_other_tenants_ids_returns_nothing(peers: Peers, kind: str) -> None:
    path = KINDS[kind][0]
    foreign = peers.objects[kind]["id"]
    response = peers.b.get(path, params={"id": [foreign]})
    assert response.status_code == 200, describe(response)
    body = response.json()
    assert body["data"] == []
    assert body["pagination"]["total_items"] == 0
    # Mixed with one of B's own: only B's comes back.
    own = peers.b_objects[kind]["id"]
    response = peers.b.get(path, params={"id": [foreign, own]})
    assert ids(response.json()["data"]) == {own}
    assert response.json()["pagination"]["total_items"] == 1


@pytest.mark.parametrize("kind", ["formula", "proxy"])
def test_name_search_does_not_reach_the_other_tenant(peers: Peers, kind: str) -> None:
    path = KINDS[kind][0]
    name = peers.objects[kind]["name"]
    response = peers.b.get(path, params={"name": name})
    assert response.status_code == 200, describe(response)
    assert response.json()["data"] == []


def test_list_objects_carry_the_callers_tenant(peers: Peers) -> None:
    for path in ("/proxies", "/applications"):
        for item in peers.b.list_all(path):
            assert item["tenant_id"] == peers.b_tenant, item


def test_other_tenants_application_in_a_proxy_body_is_400(peers: Peers) -> None:
    foreign = peers.objects["application"]["id"]
    created = peers.b.post("/proxies", json=proxy_body(application={"id": foreign}))
    assert_invalid(created, "application.id")
    own_proxy = peers.b_objects["proxy"]["id"]
    updated = peers.b.put(f"/proxies/{own_proxy}", json=proxy_body(application={"id": foreign}))
    assert_invalid(updated, "application.id")
    # The message is the same as for an id nobody owns: existence is not leaked.
    unknown = peers.b.post("/proxies", json=proxy_body(application={"id": unknown_id()}))
    errors_foreign = created.json()["errors"]["application.id"]
    errors_unknown = unknown.json()["errors"]["application.id"]
    assert [UUID_RE.sub("<id>", e) for e in errors_foreign] == [
        UUID_RE.sub("<id>", e) for e in errors_unknown
    ]


def test_tenant_self_is_the_callers_own(peers: Peers) -> None:
    a = peers.a.get("/tenants/self").json()
    b = peers.b.get("/tenants/self").json()
    assert a["id"] == peers.a_tenant
    assert b["id"] == peers.b_tenant


def test_updating_own_tenant_does_not_touch_the_other(peers: Peers) -> None:
    before = peers.a.get("/tenants/self").json()
    response = peers.b.put("/tenants/self", json={"name": "B renamed"})
    assert response.status_code == 200, describe(response)
    assert peers.a.get("/tenants/self").json() == before


# Official formulas: visible to all, owned by none.


def _official(caller: Caller) -> list[dict[str, Any]]:
    return [f for f in caller.list_all("/reactor-formulas") if f["type"] == "official"]


def test_official_formulas_are_shared_and_read_only(peers: Peers) -> None:
    official_a = ids(_official(peers.a))
    official_b = ids(_official(peers.b))
    assert official_a == official_b
    assert official_a, "every data dir ships the operator's official formulas"
    formula_id = sorted(official_a)[0]
    for caller in (peers.a, peers.b):
        got = caller.get(f"/reactor-formulas/{formula_id}")
        assert got.status_code == 200, describe(got)
        body = formula_body(name="mine now", type="official")
        assert_problem(caller.put(f"/reactor-formulas/{formula_id}", json=body), 403)
        body = formula_body(name="mine now")
        assert_problem(caller.put(f"/reactor-formulas/{formula_id}", json=body), 403)
        assert_problem(caller.delete(f"/reactor-formulas/{formula_id}"), 403)
    after = peers.a.get(f"/reactor-formulas/{formula_id}").json()
    assert after["name"] != "mine now"


def test_private_formula_cannot_become_official(peers: Peers) -> None:
    own = peers.a.created("/reactor-formulas", formula_body())
    response = peers.a.put(f"/reactor-formulas/{own['id']}", json=formula_body(type="official"))
    # Turning one's own formula official would create an official one: refused (403, or 400).
    assert response.status_code in (400, 403), describe(response)
    assert peers.a.get(f"/reactor-formulas/{own['id']}").json()["type"] == "private"


def test_creating_an_official_formula_is_403(peers: Peers) -> None:
    body = formula_body(type="official")
    assert_problem(peers.a.post("/reactor-formulas", json=body), 403)
    names = {f["name"] for f in peers.a.list_all("/reactor-formulas")}
    assert body["name"] not in names
