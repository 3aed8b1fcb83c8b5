"""The roles, the owner and the security contact on the local service, and the permission
each people route requires (from the contract table, console.kinds)."""

from __future__ import annotations

import pytest
from people_http import (
    INVITATIONS,
    MEMBERS,
    OWNER,
    SECURITY_CONTACT,
    email,
    invitation_body,
    logged,
    new_member,
    tenant_fixtures,
)
from service_http import Caller, assert_invalid, assert_problem, describe

from console.kinds.endpoints import required_permission
from console.models import MANAGEMENT_PERMISSIONS

client, tenant, owner = tenant_fixtures("People routes")


def test_roles_are_listed_for_any_valid_key(service, client, tenant) -> None:
    caller = Caller(client, service.new_key(["log:read"], tenant_key=tenant.key))
    response = caller.get("/roles")
    assert response.status_code == 200, describe(response)
    assert response.json() == [{"name": "OWNER"}, {"name": "ADMIN"}, {"name": "READ_ONLY"}]
    assert_problem(Caller(client, None).get("/roles"), 401)


def test_the_security_contact_is_none_then_set_and_logged(service, client, tenant) -> None:
    caller = Caller(client, service.new_tenant("Security contact").key)
    assert caller.get(SECURITY_CONTACT).json() == {"email": None}
    address = email("security")
    response = caller.put(SECURITY_CONTACT, json={"email": address})
    assert response.status_code == 200, describe(response)
    assert response.json() == {"email": address}
    assert caller.get(SECURITY_CONTACT).json() == {"email": address}
    other = email("security")
    assert caller.put(SECURITY_CONTACT, json={"email": other}).json() == {"email": other}
    tenant_id = caller.get("/tenants/self").json()["id"]
    entries = logged(service, tenant_id)
    assert [(e["entity_type"], e["operation"], e["message"]) for e in entries][-2:] == [
        ("tenant", "update", f"Security contact set to {address}"),
        ("tenant", "update", f"Security contact set to {other}"),
    ]


@pytest.mark.parametrize(
    "body",
    [{"email": ""}, {"email": "security"}, {"email": None}, {}, {"email": ["a@b.c"]}],
    ids=["empty", "malformed", "null", "missing", "a list"],
)
def test_a_bad_security_contact_is_refused_at_its_field(owner: Caller, body: dict) -> None:
    before = owner.get(SECURITY_CONTACT).json()
    assert_invalid(owner.put(SECURITY_CONTACT, json=body), "email")
    assert owner.get(SECURITY_CONTACT).json() == before


def test_the_owner_is_read_as_a_member(owner: Caller, tenant) -> None:
    response = owner.get(OWNER)
    assert response.status_code == 200, describe(response)
    member = response.json()
    assert member["role"] == "OWNER"
    assert member["user"]["id"] == owner.get("/tenants/self").json()["owner_id"]


def test_a_tenant_without_an_owner_has_none(service, client) -> None:
    caller = Caller(client, service.new_tenant("Ownerless").key)
    assert_problem(caller.get(OWNER), 404)


# Every people route, with a request that succeeds given its permission.
ROUTES = [
    ("GET", MEMBERS, 200),
    ("GET", MEMBERS + "/{member}", 200),
    ("PUT", MEMBERS + "/{member}", 200),
    ("DELETE", MEMBERS + "/{member}", 204),
    ("POST", INVITATIONS, 201),
    ("GET", INVITATIONS, 200),
    ("GET", INVITATIONS + "/{invitation}", 200),
    ("POST", INVITATIONS + "/{invitation}/resend", 200),
    ("DELETE", INVITATIONS + "/{invitation}", 204),
    ("GET", OWNER, 200),
    ("GET", SECURITY_CONTACT, 200),
    ("PUT", SECURITY_CONTACT, 200),
]


def _template(path: str) -> str:
    return path.replace("{member}", "{id}").replace("{invitation}", "{id}")


def _body(method: str, path: str) -> dict | None:
    if method == "PUT" and path.startswith(MEMBERS):
        return {"role": "READ_ONLY"}
    if method == "POST" and path == INVITATIONS:
        return invitation_body()
    if path == SECURITY_CONTACT and method == "PUT":
        return {"email": email("security")}
    return None


@pytest.mark.parametrize(
    ("method", "path", "success"),
    ROUTES,
    ids=[f"{m} {p}" for m, p, _ in ROUTES],
)
def test_each_route_needs_its_permission(
    service, client, owner: Caller, tenant, method: str, path: str, success: int
) -> None:
    permission = required_permission(method, _template(path))
    assert permission is not None, "a people route that any key may call"
    member = new_member(service, owner) if "{member}" in path else None
    invitation = owner.created(INVITATIONS, invitation_body()) if "{invitation}" in path else None
    concrete = path.replace("{member}", member["id"] if member else "")
    concrete = concrete.replace("{invitation}", invitation["id"] if invitation else "")
    lacking = [p for p in MANAGEMENT_PERMISSIONS if p != permission]
    without = Caller(client, service.new_key(lacking, tenant_key=tenant.key))
    problem = assert_problem(without.request(method, concrete, json=_body(method, path)), 403)
    assert permission in problem["detail"] and "errors" not in problem
    with_it = Caller(client, service.new_key([permission], tenant_key=tenant.key))
    response = with_it.request(method, concrete, json=_body(method, path))
    assert response.status_code == success, describe(response)


def test_a_data_dir_of_the_release_before_is_brought_forward(tmp_path) -> None:
    """Schema v7 to v8: the people's tables are added; a tenant made before keeps its
    made-up owner_id and has no member until one is added."""
    import sqlite3

    from console.service.db import DB_FILE
    from console.service.schema import SCHEMA_VERSION
    from console.service.store import Store, members

    store = Store(tmp_path)
    tenant = store.create_tenant("Before people")
    store.close()
    conn = sqlite3.connect(tmp_path / DB_FILE)
    conn.executescript(
        "DROP TABLE webhook_deliveries; DROP TABLE webhook_events; DROP TABLE webhooks;"
        " DROP VIEW member_rows; DROP TABLE members; DROP TABLE invitations;"
        " DROP TABLE security_contacts; DROP TABLE users; PRAGMA user_version = 7;"
    )
    conn.close()
    store = Store(tmp_path)
    try:
        with store.read() as read:
            assert read.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            assert members.owner(read, tenant.tenant_id) is None
            owner_id = read.execute(
                "SELECT owner_id FROM tenants WHERE id = ?", (tenant.tenant_id,)
            ).fetchone()[0]
        assert owner_id  # kept as it was
        again = store.create_tenant("After people", owner_email=email("owner"))
        with store.read() as read:
            assert members.owner(read, again.tenant_id)["role"] == "OWNER"
    finally:
        store.close()
