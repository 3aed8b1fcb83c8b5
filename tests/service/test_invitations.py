"""Invitations on the local service: sent (pending for 72 hours), listed by status, read,
resent (a new expiry), revoked; their status computed when read, as the project clock moves;
duplicates refused; every change logged."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from people_http import (
    INVITATIONS,
    MEMBERS,
    email,
    invitation_body,
    logged,
    new_member,
    tenant_fixtures,
)
from service_http import (
    Caller,
    assert_invalid,
    assert_problem,
    describe,
    http_client,
)

LIFETIME = timedelta(hours=72)


UNKNOWN = "3f0c5a52-8d1e-4b7a-9c2d-6e5f4a3b2c1d"
"""An id no object has (fixed: test ids must be the same in every xdist worker)."""


client, tenant, owner = tenant_fixtures("Invitations")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def test_an_invitation_is_pending_for_72_hours_and_logged(service, owner: Caller, tenant) -> None:
    address = email("ada")
    made = owner.created(INVITATIONS, {"email": address})
    assert made["role"] == "ADMIN"  # the default
    assert made["status"] == "PENDING" and made["email"] == address
    assert made["tenant_id"] == tenant.tenant_id and made["created_by"] == tenant.application_id
    assert _time(made["expires_at"]) - _time(made["created_at"]) == LIFETIME
    assert owner.get(f"{INVITATIONS}/{made['id']}").json() == made
    (entry,) = logged(service, made["id"])
    assert entry["entity_type"] == "tenant_invitation" and entry["operation"] == "create"
    assert entry["message"] == f"Invitation created for {address} as ADMIN"
    assert (entry["actor_id"], entry["actor_type"]) == (tenant.application_id, "application")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        pytest.param({"email": "not an email"}, "email", id="malformed email"),
        pytest.param({"email": "ada@example"}, "email", id="no dot in the domain"),
        pytest.param({"role": "ADMIN"}, "email", id="no email"),
        pytest.param({"email": "a@b.c", "role": "OWNER"}, "role", id="ownership is never given"),
        pytest.param({"email": "a@b.c", "role": "GUEST"}, "role", id="unknown role"),
        pytest.param({"email": 42}, "email", id="not a string"),
    ],
)
def test_a_bad_invitation_is_refused_at_its_field(owner: Caller, body: dict, field: str) -> None:
    assert_invalid(owner.post(INVITATIONS, json=body), field)


def test_a_member_or_a_pending_invitation_cannot_be_invited_again(service, owner: Caller) -> None:
    address = email("twice")
    owner.created(INVITATIONS, {"email": address})
    again = assert_problem(owner.post(INVITATIONS, json={"email": address.upper()}), 409)
    assert "pending invitation" in again["detail"]
    member = new_member(service, owner)
    taken = owner.post(INVITATIONS, json={"email": member["user"]["email"]})
    assert "already a member" in assert_problem(taken, 409)["detail"]


def test_invitations_are_listed_by_status_and_by_cursor(owner: Caller) -> None:
    made = [owner.created(INVITATIONS, invitation_body()) for _ in range(3)]
    pending = owner.get(INVITATIONS, params={"status": "PENDING", "size": 100})
    assert pending.status_code == 200, describe(pending)
    assert {i["id"] for i in made} <= {i["id"] for i in pending.json()["data"]}
    expired = owner.get(INVITATIONS, params={"status": "EXPIRED"})
    assert expired.json()["data"] == []
    assert_invalid(owner.get(INVITATIONS, params={"status": "ACCEPTED"}), "status")
    first = owner.get(INVITATIONS, params={"start": "", "size": 2}).json()
    assert set(first["pagination"]) == {"page_size", "after"} and len(first["data"]) == 2
    rest = owner.get(INVITATIONS, params={"start": first["pagination"]["after"], "size": 100})
    every = [i["id"] for i in first["data"] + rest.json()["data"]]
    assert len(every) == len(set(every)) and {i["id"] for i in made} <= set(every)


def test_an_invitation_is_revoked_and_logged(service, owner: Caller) -> None:
    made = owner.created(INVITATIONS, invitation_body(role="READ_ONLY"))
    response = owner.delete(f"{INVITATIONS}/{made['id']}")
    assert response.status_code == 204 and response.content == b"", describe(response)
    assert_problem(owner.get(f"{INVITATIONS}/{made['id']}"), 404)
    assert_problem(owner.post(f"{INVITATIONS}/{made['id']}/resend"), 404)
    assert [(e["operation"], e["message"]) for e in logged(service, made["id"])][-1] == (
        "delete",
        "Invitation deleted",
    )
    # Revoked, the address may be invited again.
    owner.created(INVITATIONS, {"email": made["email"]})


@pytest.mark.parametrize("invitation_id", [UNKNOWN, "not-a-uuid"])
def test_an_unknown_invitation_is_not_found(owner: Caller, invitation_id: str) -> None:
    assert_problem(owner.get(f"{INVITATIONS}/{invitation_id}"), 404)
    assert_problem(owner.post(f"{INVITATIONS}/{invitation_id}/resend"), 404)
    assert_problem(owner.delete(f"{INVITATIONS}/{invitation_id}"), 404)


def test_another_tenant_s_invitations_are_not_found(service, client, owner: Caller) -> None:
    made = owner.created(INVITATIONS, invitation_body())
    other = Caller(client, service.new_tenant("Invitations elsewhere").key)
    assert other.get(INVITATIONS).json()["data"] == []
    assert_problem(other.get(f"{INVITATIONS}/{made['id']}"), 404)
    assert_problem(other.post(f"{INVITATIONS}/{made['id']}/resend"), 404)
    assert_problem(other.delete(f"{INVITATIONS}/{made['id']}"), 404)
    # An invitation is the tenant's own: another tenant may invite the same address.
    assert (
        Caller(client, other.key).post(INVITATIONS, json={"email": made["email"]}).status_code
        == 201
    )


FROZEN = datetime.fromisoformat("2026-11-22T10:00:00+00:00")


@pytest.mark.slow  # services of their own, restarted
def test_an_invitation_expires_as_the_clock_moves_and_a_resend_renews_it(
    start_service, client
) -> None:
    """The service's clock is the project's (console.clock): frozen, then moved past the
    invitation's expiry by restarting the service with a later time. No sleeping. The logs
    are kept a week here, so that the invitation's creation is still answered 72 hours on."""
    running = start_service(frozen_now=FROZEN.isoformat(), log_retention=7 * 86_400)
    with http_client(running.base_url) as http:
        caller = Caller(http, running.key)
        made = caller.created(INVITATIONS, invitation_body())
        assert _time(made["expires_at"]) == FROZEN + LIFETIME
    running.stop()
    running.frozen_now = (FROZEN + LIFETIME - timedelta(seconds=1)).isoformat()
    running.start()
    with http_client(running.base_url) as http:
        caller = Caller(http, running.key)
        assert caller.get(f"{INVITATIONS}/{made['id']}").json()["status"] == "PENDING"
    running.stop()
    running.frozen_now = (FROZEN + LIFETIME).isoformat()  # expires_at <= now: expired
    running.start()
    with http_client(running.base_url) as http:
        caller = Caller(http, running.key)
        read = caller.get(f"{INVITATIONS}/{made['id']}").json()
        assert read["status"] == "EXPIRED" and read["expires_at"] == made["expires_at"]
        expired = caller.get(INVITATIONS, params={"status": "EXPIRED"}).json()["data"]
        assert [i["id"] for i in expired] == [made["id"]]
        assert caller.get(INVITATIONS, params={"status": "PENDING"}).json()["data"] == []

        resent = caller.post(f"{INVITATIONS}/{made['id']}/resend")
        assert resent.status_code == 200, describe(resent)
        body = resent.json()
        assert body["status"] == "PENDING"
        assert _time(body["expires_at"]) == FROZEN + 2 * LIFETIME
        assert _time(body["modified_at"]) == FROZEN + LIFETIME
        assert caller.get(f"{INVITATIONS}/{made['id']}").json() == body
        # A resent invitation blocks another for the same address again.
        assert_problem(caller.post(INVITATIONS, json={"email": made["email"]}), 409)
    entries = logged(running, made["id"])
    assert [(e["operation"], e["message"]) for e in entries] == [
        ("create", f"Invitation created for {made['email']} as ADMIN"),
        ("update", "Invitation resent"),
    ]


@pytest.mark.slow  # services of their own, restarted
def test_an_expired_invitation_does_not_block_a_new_one(start_service) -> None:
    running = start_service(frozen_now=FROZEN.isoformat())
    with http_client(running.base_url) as http:
        made = Caller(http, running.key).created(INVITATIONS, invitation_body())
    running.stop()
    running.frozen_now = (FROZEN + 2 * LIFETIME).isoformat()
    running.start()
    with http_client(running.base_url) as http:
        caller = Caller(http, running.key)
        again = caller.created(INVITATIONS, {"email": made["email"]})
        statuses = {i["id"]: i["status"] for i in caller.get(INVITATIONS).json()["data"]}
    assert statuses == {made["id"]: "EXPIRED", again["id"]: "PENDING"}


def test_members_list_is_unaffected_by_invitations(owner: Caller) -> None:
    before = owner.get(MEMBERS).json()["pagination"]["total_items"]
    owner.created(INVITATIONS, invitation_body())
    assert owner.get(MEMBERS).json()["pagination"]["total_items"] == before
