"""The tenant's members on the local service: listed (paged, by cursor, by user), read,
given another role, removed; the owner keeps the OWNER role and stays; every change logged."""

from __future__ import annotations

import pytest
from people_http import MEMBERS, OWNER, logged, new_member, tenant_fixtures
from service_http import (
    Caller,
    assert_invalid,
    assert_problem,
    describe,
)

UNKNOWN = "3f0c5a52-8d1e-4b7a-9c2d-6e5f4a3b2c1d"
"""An id no object has (fixed: test ids must be the same in every xdist worker)."""


client, tenant, owner = tenant_fixtures("Members")


def _owner_member(owner: Caller) -> dict:
    response = owner.get(OWNER)
    assert response.status_code == 200, describe(response)
    return response.json()


def test_the_owner_is_a_member_with_the_owner_role(owner: Caller, tenant) -> None:
    listed = owner.get(MEMBERS)
    assert listed.status_code == 200, describe(listed)
    body = listed.json()
    assert set(body["pagination"]) == {"total_items", "page_number", "page_size", "total_pages"}
    first = _owner_member(owner)
    assert first in body["data"]
    assert first["role"] == "OWNER" and first["tenant_id"] == tenant.tenant_id
    user = first["user"]
    assert set(user) == {
        "id",
        "email",
        "first_name",
        "last_name",
        "mfa_enrolled",
        "provider",
        "picture",
    }
    assert user["mfa_enrolled"] is True and user["email"].startswith("owner-")
    assert first["created_at"] == first["created_date"]  # the SDKs read the second name
    tenant_row = owner.get("/tenants/self").json()
    assert tenant_row["owner_id"] == user["id"]
    # The tenant's bootstrap application was created by its owner.
    assert owner.get("/applications/key").json()["created_by"] == user["id"]


def test_a_member_is_read_filtered_by_user_and_paged(service, owner: Caller) -> None:
    made = [new_member(service, owner, "READ_ONLY") for _ in range(3)]
    read = owner.get(f"{MEMBERS}/{made[0]['id']}")
    assert read.status_code == 200 and read.json() == made[0], describe(read)
    assert made[0]["role"] == "READ_ONLY" and made[0]["user"]["mfa_enrolled"] is True

    wanted = [made[0]["user"]["id"], made[2]["user"]["id"].upper()]  # any spelling of a UUID
    by_user = owner.get(MEMBERS, params={"user_id": wanted})
    assert by_user.status_code == 200, describe(by_user)
    assert [m["id"] for m in by_user.json()["data"]] == [made[0]["id"], made[2]["id"]]
    assert_invalid(owner.get(MEMBERS, params={"user_id": "someone"}), "user_id[0]")

    seen: list[str] = []
    start = ""
    while True:  # by cursor, a page of one each time
        page = owner.get(MEMBERS, params={"start": start, "size": 1})
        assert page.status_code == 200, describe(page)
        seen += [m["id"] for m in page.json()["data"]]
        start = page.json()["pagination"]["after"]
        if start is None:
            break
    everyone = [m["id"] for m in owner.get(MEMBERS, params={"size": 100}).json()["data"]]
    assert seen == everyone and set(m["id"] for m in made) <= set(seen)


def test_a_member_s_role_changes_and_the_change_is_logged(service, owner: Caller, tenant) -> None:
    member = new_member(service, owner, "ADMIN")
    # The vendor's SDK sends the role as application/json-patch+json.
    changed = owner.put(
        f"{MEMBERS}/{member['id']}",
        content=b'{"role": "READ_ONLY"}',
        headers={"Content-Type": "application/json-patch+json"},
    )
    assert changed.status_code == 200, describe(changed)
    body = changed.json()
    assert body["role"] == "READ_ONLY" and body["modified_by"] == tenant.application_id
    assert body["user"] == member["user"] and body["created_at"] == member["created_at"]
    assert owner.get(f"{MEMBERS}/{member['id']}").json()["role"] == "READ_ONLY"
    entries = logged(service, member["id"])
    assert [(e["operation"], e["actor_type"]) for e in entries] == [
        ("create", "user"),
        ("update", "application"),
    ]
    update = entries[-1]
    assert update["message"] == "Member role changed from ADMIN to READ_ONLY"
    assert update["entity_type"] == "tenant_member" and update["actor_id"] == tenant.application_id
    assert update["tenant_id"] == tenant.tenant_id


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"role": "OWNER"}, id="ownership is never given"),
        pytest.param({"role": "admin"}, id="letter case"),
        pytest.param({"role": None}, id="null"),
        pytest.param({}, id="missing"),
    ],
)
def test_a_role_must_be_admin_or_read_only(service, owner: Caller, body: dict) -> None:
    member = new_member(service, owner)
    assert_invalid(owner.put(f"{MEMBERS}/{member['id']}", json=body), "role")
    assert owner.get(f"{MEMBERS}/{member['id']}").json()["role"] == "ADMIN"


def test_the_owner_keeps_the_owner_role_and_cannot_be_removed(service, owner: Caller) -> None:
    first = _owner_member(owner)
    changed = assert_problem(owner.put(f"{MEMBERS}/{first['id']}", json={"role": "ADMIN"}), 409)
    assert changed["detail"] == "The tenant's owner keeps the OWNER role."
    removed = assert_problem(owner.delete(f"{MEMBERS}/{first['id']}"), 409)
    assert removed["detail"] == "The tenant's owner cannot be removed."
    assert _owner_member(owner) == first
    assert [e["operation"] for e in logged(service, first["id"])] == []  # nothing happened


def test_a_removed_member_is_gone_and_logged(service, owner: Caller) -> None:
    member = new_member(service, owner, "READ_ONLY")
    response = owner.delete(f"{MEMBERS}/{member['id']}")
    assert response.status_code == 204 and response.content == b"", describe(response)
    assert_problem(owner.get(f"{MEMBERS}/{member['id']}"), 404)
    assert_problem(owner.delete(f"{MEMBERS}/{member['id']}"), 404)
    last = logged(service, member["id"])[-1]
    assert (last["operation"], last["message"]) == (
        "delete",
        f"Member deleted: {member['user']['email']}",
    )


@pytest.mark.parametrize("member_id", [UNKNOWN, "not-a-uuid"])
def test_an_unknown_member_is_not_found(owner: Caller, member_id: str) -> None:
    assert_problem(owner.get(f"{MEMBERS}/{member_id}"), 404)
    assert_problem(owner.put(f"{MEMBERS}/{member_id}", json={"role": "ADMIN"}), 404)
    assert_problem(owner.delete(f"{MEMBERS}/{member_id}"), 404)


def test_another_tenant_s_members_are_not_found(service, client, owner: Caller) -> None:
    member = new_member(service, owner)
    other = Caller(client, service.new_tenant("Members elsewhere").key)
    assert other.get(MEMBERS).json()["data"] == []
    assert_problem(other.get(OWNER), 404)  # a tenant made without an owner has none
    assert_problem(other.get(f"{MEMBERS}/{member['id']}"), 404)
    assert_problem(other.put(f"{MEMBERS}/{member['id']}", json={"role": "READ_ONLY"}), 404)
    assert_problem(other.delete(f"{MEMBERS}/{member['id']}"), 404)
    assert owner.get(f"{MEMBERS}/{member['id']}").json() == member
