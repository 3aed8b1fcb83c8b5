"""The authorization matrix: every endpoint x {no key, unknown key, key lacking, key with}.

The endpoint table below is the data; the tests only walk it. A destructive call gets a fresh
object (and DELETE /tenants/self a fresh tenant), so cases never depend on each other.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from people_http import email, invitation_body, new_member
from service_http import (
    Caller,
    assert_problem,
    describe,
    formula_body,
    http_client,
    private_application_body,
    proxy_body,
    reactor_body,
    tenant_body,
)

from console.kinds.endpoints import permission_by_endpoint, required_permission
from console.models import MANAGEMENT_PERMISSIONS
from console.service.app import create_app
from console.service.store import Store


@dataclass(frozen=True)
class Endpoint:
    """One row of the matrix.

    `target` names the kind of object `{id}` stands for; `fresh` means the call destroys or
    changes the object's key, so each case gets its own.
    """

    method: str
    path: str
    success: int
    body: Callable[[], dict[str, Any]] | None = None
    target: str | None = None
    fresh: bool = False

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"

    @property
    def permission(self) -> str | None:
        """What the endpoint requires: the kinds' routes (console.kinds.endpoints)."""
        return required_permission(self.method, self.path)


ENDPOINTS: list[Endpoint] = [
    Endpoint("GET", "/permissions", 200),
    Endpoint("POST", "/reactor-formulas", 201, formula_body),
    Endpoint("GET", "/reactor-formulas", 200),
    Endpoint("GET", "/reactor-formulas/{id}", 200, target="formula"),
    Endpoint("PUT", "/reactor-formulas/{id}", 200, formula_body, "formula"),
    Endpoint("DELETE", "/reactor-formulas/{id}", 204, None, "formula", True),
    Endpoint("GET", "/tenants/self", 200),
    Endpoint("PUT", "/tenants/self", 200, tenant_body),
    Endpoint("DELETE", "/tenants/self", 204, None, "tenant", True),
    Endpoint("GET", "/tenants/self/reports/usage", 200),
    Endpoint("POST", "/proxies", 201, proxy_body),
    Endpoint("GET", "/proxies", 200),
    Endpoint("GET", "/proxies/{id}", 200, target="proxy"),
    Endpoint("PUT", "/proxies/{id}", 200, proxy_body, "proxy"),
    Endpoint("PATCH", "/proxies/{id}", 204, lambda: {"name": "patched"}, "proxy"),
    Endpoint("DELETE", "/proxies/{id}", 204, None, "proxy", True),
    Endpoint("POST", "/applications", 201, private_application_body),
    Endpoint("GET", "/applications", 200),
    Endpoint("GET", "/applications/{id}", 200, target="application"),
    Endpoint("GET", "/applications/key", 200),
    Endpoint(
        "PUT",
        "/applications/{id}",
        200,
        lambda: {"name": "renamed", "permissions": ["token:read"]},
        "application",
    ),
    Endpoint(
        "POST",
        "/applications/{id}/regenerate",
        200,
        None,
        "application",
        True,
    ),
    Endpoint("DELETE", "/applications/{id}", 204, None, "application", True),
    # Application Keys (beyond the spec, as the hosted service has them).
    Endpoint("POST", "/applications/{id}/keys", 201, None, "application", True),
    Endpoint("GET", "/applications/{id}/keys", 200, target="application"),
    Endpoint("GET", "/applications/{id}/keys/{keyId}", 200, target="application_key"),
    Endpoint("DELETE", "/applications/{id}/keys/{keyId}", 204, None, "application_key", True),
    # Reactors (issue 35).
    Endpoint("POST", "/reactors", 201, reactor_body),
    Endpoint("GET", "/reactors", 200),
    Endpoint("GET", "/reactors/{id}", 200, target="reactor"),
    Endpoint("PUT", "/reactors/{id}", 200, reactor_body, "reactor"),
    Endpoint("PATCH", "/reactors/{id}", 204, lambda: {"name": "patched"}, "reactor"),
    Endpoint("DELETE", "/reactors/{id}", 204, None, "reactor", True),
    Endpoint("POST", "/reactors/{id}/react", 200, lambda: {"args": {"n": 1}}, "reactor"),
    Endpoint("POST", "/reactors/{id}/react-async", 202, lambda: {"args": {"n": 1}}, "reactor"),
    Endpoint("GET", "/reactors/{id}/results/{requestId}", 200, target="reactor_result"),
    # Audit logs (issue 36).
    Endpoint("GET", "/logs", 200),
    Endpoint("GET", "/logs/entity-types", 200),
    # The tenant's people (issue 36).
    Endpoint("GET", "/tenants/self/members", 200),
    Endpoint("GET", "/tenants/self/members/{id}", 200, target="member"),
    Endpoint("PUT", "/tenants/self/members/{id}", 200, lambda: {"role": "READ_ONLY"}, "member"),
    Endpoint("DELETE", "/tenants/self/members/{id}", 204, None, "member", True),
    Endpoint("POST", "/tenants/self/invitations", 201, invitation_body),
    Endpoint("GET", "/tenants/self/invitations", 200),
    Endpoint("GET", "/tenants/self/invitations/{id}", 200, target="invitation"),
    Endpoint("POST", "/tenants/self/invitations/{id}/resend", 200, None, "invitation"),
    Endpoint("DELETE", "/tenants/self/invitations/{id}", 204, None, "invitation", True),
    Endpoint("GET", "/roles", 200),
    Endpoint("GET", "/tenants/self/owner", 200),
    Endpoint("GET", "/tenants/self/security-contact", 200),
    Endpoint(
        "PUT", "/tenants/self/security-contact", 200, lambda: {"email": "security@example.com"}
    ),
    # The local service's own sample events (issue 37; the webhooks' routes beside it).
    Endpoint("POST", "/webhooks/trigger", 202, lambda: {"type": "reactor.created"}),
]

# An invalid body for every endpoint that takes one: permission is checked before validation.
INVALID_BODIES: dict[str, Any] = {
    "POST /reactor-formulas": {"name": "x" * 500, "type": "nonsense"},
    "PUT /reactor-formulas/{id}": {"code": ""},
    "PUT /tenants/self": {"name": "", "settings": {"fingerprint_tokens": "maybe"}},
    "POST /proxies": {"destination_url": "http://insecure"},
    "PUT /proxies/{id}": {"name": "x" * 500},
    "PATCH /proxies/{id}": {"destination_url": "http://insecure"},
    "POST /applications": {"type": "robot", "permissions": ["nope"]},
    "PUT /applications/{id}": {"type": "public", "permissions": []},
    "POST /reactors": {"name": "", "runtime": {"image": "cobol"}},
    "PUT /reactors/{id}": {"code": ""},
    "PATCH /reactors/{id}": {"name": None, "runtime": {"timeout": 99}},
    "POST /reactors/{id}/react": ["not", "an", "object"],
    "POST /reactors/{id}/react-async": "args",
    "PUT /tenants/self/members/{id}": {"role": "OWNER"},
    "POST /tenants/self/invitations": {"email": "not an email", "role": "OWNER"},
    "PUT /tenants/self/security-contact": {"email": ""},
    "POST /webhooks/trigger": {"type": "no.such-event"},
}

CREATE_PATHS = {
    "formula": ("/reactor-formulas", formula_body),
    "proxy": ("/proxies", proxy_body),
    # A private application: the object under test is never the caller's own identity.
    "application": ("/applications", private_application_body),
    "reactor": ("/reactors", reactor_body),
    "invitation": ("/tenants/self/invitations", invitation_body),
}


def served_endpoints(data_dir: Path) -> set[tuple[str, str]]:
    """(method, path) of every route the service's app documents."""
    store = Store(data_dir)
    try:
        routes = create_app(store).state.api_routes
    finally:
        store.close()
    return {(method, route.path) for route in routes for method in route.methods}


def test_matrix_covers_every_endpoint(tmp_path: Path) -> None:
    # the spec's, Reactors', PATCH /proxies, the logs', the tenant's people, webhooks' trigger
    assert len({e.label for e in ENDPOINTS}) == 26 + 9 + 1 + 2 + 13 + 1
    served = served_endpoints(tmp_path)
    assert {(e.method, e.path) for e in ENDPOINTS} == served
    # Every route served has its permission in the contract table, and every one there is served.
    assert served == set(permission_by_endpoint())
    with_body = {e.label for e in ENDPOINTS if e.body is not None}
    assert set(INVALID_BODIES) == with_body


class Keys:
    """A tenant for the matrix, with cached keys per permission set."""

    def __init__(self, service, client: httpx.Client) -> None:
        self.service = service
        self.client = client
        # With an owner, so that GET /tenants/self/owner has one to answer.
        self.tenant = service.new_tenant("Authorization matrix", owner=email("owner"))
        self.owner = Caller(client, self.tenant.key)
        self._cache: dict[tuple[str, ...], str] = {}

    def key(self, permissions: list[str], tenant_key: str | None = None) -> str:
        wanted = tuple(sorted(permissions))
        if tenant_key is not None:
            return self.service.new_key(list(wanted), tenant_key=tenant_key)
        if wanted not in self._cache:
            self._cache[wanted] = self.service.new_key(list(wanted), tenant_key=self.tenant.key)
        return self._cache[wanted]

    def target(self, kind: str) -> str:
        if kind == "member":  # members are made by accepting an invitation, not by the API
            return new_member(self.service, self.owner)["id"]
        path, body = CREATE_PATHS[kind]
        return self.owner.created(path, body())["id"]


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def keys(service, client) -> Keys:
    return Keys(service, client)


@pytest.fixture(scope="module")
def shared_targets(keys: Keys) -> dict[str, str]:
    """Objects that non-destructive cases may share."""
    return {kind: keys.target(kind) for kind in (*CREATE_PATHS, "member")}


def lacking(permission: str | None) -> list[str]:
    """Every management permission but this one: the key can do all else."""
    return [p for p in MANAGEMENT_PERMISSIONS if p != permission]


def has(permission: str | None) -> list[str]:
    # GET /permissions needs no permission: any valid key, here one with an unrelated grant.
    return [permission or "log:read"]


CREDENTIALS = ["no key", "unknown key", "lacking", "with"]


def case_id(endpoint: Endpoint, credential: str) -> str:
    if endpoint.permission is None and credential == "lacking":
        return f"{endpoint.label} any valid key (every management permission)"
    if endpoint.permission is None and credential == "with":
        return f"{endpoint.label} any valid key (log:read only)"
    if credential in ("lacking", "with"):
        return f"{endpoint.label} {credential} {endpoint.permission}"
    return f"{endpoint.label} {credential}"


MATRIX = [
    pytest.param(endpoint, credential, id=case_id(endpoint, credential))
    for endpoint in ENDPOINTS
    for credential in CREDENTIALS
]


def finished_react(owner: Caller, reactor_id: str) -> str:
    """The request id of an asynchronous react of the reactor, once it has ended."""
    response = owner.post(f"/reactors/{reactor_id}/react-async", json={"args": {"n": 1}})
    assert response.status_code == 202, describe(response)
    request_id = response.json()["asyncReactorRequestId"]
    deadline = time.monotonic() + 30
    while owner.get(f"/reactors/{reactor_id}/results/{request_id}").status_code == 202:
        assert time.monotonic() < deadline, "the asynchronous react never ended"
        time.sleep(0.05)  # polling with a deadline, not synchronising
    return request_id


def prepare(
    endpoint: Endpoint, credential: str, keys: Keys, shared: dict[str, str]
) -> tuple[str | None, str]:
    """The key to send and the concrete path, with fresh objects where the call destroys."""
    tenant_key: str | None = None
    if endpoint.target == "tenant":
        # Every DELETE /tenants/self case gets its own tenant: a wrongly accepted call
        # must not take the matrix tenant down with it.
        tenant_key = keys.service.new_tenant("Doomed").key
    path = endpoint.path
    if endpoint.target in shared:
        object_id = keys.target(endpoint.target) if endpoint.fresh else shared[endpoint.target]
        path = path.replace("{id}", object_id)
    if endpoint.target == "application_key":
        # An application of its own each time, and the id of its first key.
        application = keys.owner.created("/applications", private_application_body())
        path = path.replace("{id}", application["id"])
        path = path.replace("{keyId}", application["keys"][0]["id"])
    if endpoint.target == "reactor_result":
        # A finished asynchronous react of a reactor of its own.
        reactor_id = keys.target("reactor")
        path = path.replace("{id}", reactor_id)
        path = path.replace("{requestId}", finished_react(keys.owner, reactor_id))
    if credential == "no key":
        return None, path
    if credential == "unknown key":
        return secrets.token_urlsafe(32), path
    permissions = (
        lacking(endpoint.permission) if credential == "lacking" else has(endpoint.permission)
    )
    return keys.key(permissions, tenant_key=tenant_key), path


@pytest.mark.parametrize(("endpoint", "credential"), MATRIX)
def test_authorization(
    endpoint: Endpoint, credential: str, keys: Keys, shared_targets: dict[str, str]
) -> None:
    key, path = prepare(endpoint, credential, keys, shared_targets)
    caller = Caller(keys.client, key)
    body = endpoint.body() if endpoint.body else None
    response = caller.request(endpoint.method, path, json=body)
    if credential in ("no key", "unknown key"):
        assert_problem(response, 401)
    elif credential == "lacking" and endpoint.permission is not None:
        assert_problem(response, 403)
    else:
        assert response.status_code == endpoint.success, describe(response)
        if endpoint.success == 204:
            assert response.content == b"", describe(response)


@pytest.mark.parametrize(
    "endpoint",
    [e for e in ENDPOINTS if e.body is not None],
    ids=lambda e: f"{e.label} lacking {e.permission} with an invalid body",
)
def test_permission_is_checked_before_the_body(
    endpoint: Endpoint, keys: Keys, shared_targets: dict[str, str]
) -> None:
    path = endpoint.path
    if endpoint.target in shared_targets:
        path = path.replace("{id}", shared_targets[endpoint.target])
    caller = Caller(keys.client, keys.key(lacking(endpoint.permission)))
    body = INVALID_BODIES[endpoint.label]
    problem = assert_problem(caller.request(endpoint.method, path, json=body), 403)
    assert "errors" not in problem, problem
    # Nor does a missing key learn anything: 401, even with garbage for a body.
    anonymous = Caller(keys.client, None)
    response = anonymous.request(
        endpoint.method, path, content=b"{not json", headers={"Content-Type": "text/plain"}
    )
    assert_problem(response, 401)


@pytest.mark.parametrize(
    "header",
    [
        pytest.param({"SVC-API-KEY": ""}, id="empty key"),
        pytest.param({"Authorization": "Bearer {key}"}, id="key in Authorization"),
        pytest.param({"X-API-KEY": "{key}"}, id="key under another header"),
    ],
)
def test_key_only_counts_in_its_own_header(keys: Keys, header: dict[str, str]) -> None:
    valid = keys.key(list(MANAGEMENT_PERMISSIONS))
    headers = {name: value.format(key=valid) for name, value in header.items()}
    response = keys.client.get("/tenants/self", headers=headers)
    assert_problem(response, 401)


def test_header_name_is_case_insensitive(keys: Keys) -> None:
    response = keys.client.get("/tenants/self", headers={"svc-api-key": keys.tenant.key})
    assert response.status_code == 200, describe(response)


def test_application_key_reports_the_caller(keys: Keys) -> None:
    key = keys.key(["application:read"])
    response = Caller(keys.client, key).get("/applications/key")
    assert response.status_code == 200, describe(response)
    body = response.json()
    assert body["permissions"] == ["application:read"]
    assert body.get("key") in (None, ""), "GET /applications/key must not echo the key"


def test_lacking_key_can_still_read_permissions_catalogue(keys: Keys) -> None:
    caller = Caller(keys.client, keys.key(["log:read"]))
    response = caller.get("/permissions", params={"application_type": "management"})
    assert response.status_code == 200, describe(response)
    listed = {p["type"] for p in response.json()}
    assert listed == set(MANAGEMENT_PERMISSIONS)


def test_private_application_key_cannot_manage(keys: Keys) -> None:
    """A private application's key is valid but holds no management permission: 403."""
    created = keys.owner.created("/applications", private_application_body())
    caller = Caller(keys.client, created["key"])
    assert_problem(caller.get("/applications"), 403)
    assert_problem(caller.get("/tenants/self"), 403)
    response = caller.get("/permissions")
    assert response.status_code == 200, describe(response)
