"""The tenant's people through the vendor's Node SDK (`@basis-theory/node-sdk`): members,
invitations, the owner, the roles and the security contact, as the SDK reads the answers
(camelCase models, pages), one Node process a test (tests/sdk/node/calls.mjs)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest
from local_service import RunningService, TenantInfo
from sdk_clients import SDK_HEADER, node_calls, value_of


def _email(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


@pytest.fixture(scope="module")
def owned(sdk_service: RunningService) -> TenantInfo:
    return sdk_service.new_tenant("SDK people (Node)", owner=_email("owner"))


def _accepted_member(sdk_service: RunningService, owned: TenantInfo, role: str) -> str:
    """A member made as the operator makes one (set-up, over plain HTTP and the data dir)."""
    answer = httpx.post(
        f"{sdk_service.base_url}/tenants/self/invitations",
        json={"email": _email("member"), "role": role},
        headers={SDK_HEADER: owned.key},
        timeout=30.0,
    )
    assert answer.status_code == 201, answer.text
    return sdk_service.accept_invitation(answer.json()["id"], first_name="Grace").member_id


def _id(index: int) -> dict[str, Any]:
    return {"$from": [index, "value", "id"]}


def test_members_and_the_owner(sdk_service: RunningService, owned: TenantInfo) -> None:
    member_id = _accepted_member(sdk_service, owned, "ADMIN")
    calls = [
        {"call": "tenants.owner.get", "args": []},  # 0
        {"call": "tenants.members.list", "args": [{"size": 100}]},  # 1
        {"call": "tenants.members.update", "args": [member_id, {"role": "READ_ONLY"}]},  # 2
        {"call": "tenants.members.update", "args": [_id(0), {"role": "ADMIN"}]},  # 3
        {"call": "tenants.members.update", "args": [member_id, {"role": "OWNER"}]},  # 4
        {"call": "tenants.members.delete", "args": [member_id]},  # 5
        {"call": "tenants.members.delete", "args": [member_id]},  # 6
        {
            "call": "tenants.members.list",
            "args": [{"userId": [{"$from": [0, "value", "user", "id"]}]}],
        },  # 7
    ]
    results = node_calls(sdk_service.base_url, owned.key, calls)
    owner = value_of(results[0])
    assert owner["role"] == "OWNER" and owner["tenantId"] == owned.tenant_id
    assert owner["user"]["mfaEnrolled"] is True and owner["user"]["email"].startswith("owner-")
    assert datetime.fromisoformat(owner["createdDate"]).utcoffset() == timedelta(0)
    listed = value_of(results[1])
    assert {m["id"] for m in listed["data"]} == {owner["id"], member_id}
    assert listed["pagination"]["totalItems"] == 2
    changed = value_of(results[2])
    assert changed["role"] == "READ_ONLY" and changed["user"]["firstName"] == "Grace"
    assert (results[3]["status"], results[3]["body"]["detail"]) == (
        409,
        "The tenant's owner keeps the OWNER role.",
    )
    assert results[4]["status"] == 400 and "role" in results[4]["body"]["errors"]
    assert results[5]["ok"] and results[5]["status"] == 204
    assert (results[6]["error"], results[6]["status"]) == ("NotFoundError", 404)
    assert [m["id"] for m in value_of(results[7])["data"]] == [owner["id"]]


def test_invitations(sdk_service: RunningService, owned: TenantInfo) -> None:
    address = _email("invitee")
    calls = [
        {"call": "tenants.invitations.create", "args": [{"email": address}]},  # 0
        {"call": "tenants.invitations.get", "args": [_id(0)]},  # 1
        {"call": "tenants.invitations.list", "args": [{"status": "PENDING"}], "walk": True},  # 2
        {"call": "tenants.invitations.resend", "args": [_id(0)]},  # 3
        {"call": "tenants.invitations.create", "args": [{"email": address.upper()}]},  # 4
        {"call": "tenants.invitations.create", "args": [{"email": "nope"}]},  # 5
        {"call": "tenants.invitations.delete", "args": [_id(0)]},  # 6
        {"call": "tenants.invitations.get", "args": [_id(0)]},  # 7
    ]
    results = node_calls(sdk_service.base_url, owned.key, calls)
    made = value_of(results[0])
    assert results[0]["status"] == 201
    assert made["status"] == "PENDING" and made["role"] == "ADMIN" and made["email"] == address
    expires = datetime.fromisoformat(made["expiresAt"])
    assert expires - datetime.fromisoformat(made["createdAt"]) == timedelta(hours=72)
    assert value_of(results[1]) == made
    assert made["id"] in [i["id"] for i in value_of(results[2])["items"]]
    resent = value_of(results[3])
    assert resent["status"] == "PENDING" and datetime.fromisoformat(resent["expiresAt"]) >= expires
    assert results[4]["status"] == 409
    assert (results[5]["error"], results[5]["status"]) == ("BadRequestError", 400)
    assert "email" in results[5]["body"]["errors"]
    assert results[6]["ok"] and results[6]["status"] == 204
    assert (results[7]["error"], results[7]["status"]) == ("NotFoundError", 404)


def test_roles_and_the_security_contact(sdk_service: RunningService, owned: TenantInfo) -> None:
    address = _email("security")
    calls = [
        {"call": "roles.list", "args": []},  # 0
        {"call": "tenants.securityContact.update", "args": [{"email": address}]},  # 1
        {"call": "tenants.securityContact.get", "args": []},  # 2
    ]
    results = node_calls(sdk_service.base_url, owned.key, calls)
    assert value_of(results[0]) == [{"name": "OWNER"}, {"name": "ADMIN"}, {"name": "READ_ONLY"}]
    assert value_of(results[1]) == {"email": address} == value_of(results[2])
