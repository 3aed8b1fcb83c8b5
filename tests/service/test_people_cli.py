"""The local service's operator commands for people: `new-tenant --owner EMAIL` and
`accept-invitation ID` (local only), called in-process on a data dir a service serves."""

from __future__ import annotations

import json
from datetime import timedelta

import httpx
import pytest
from people_http import INVITATIONS, MEMBERS, OWNER, email, invitation_body, logged
from service_http import Caller, assert_problem, http_client

from console.cli import main
from console.clock import FROZEN_NOW_ENV, now


@pytest.fixture(scope="module")
def client(service) -> httpx.Client:
    with http_client(service.base_url) as c:
        yield c


@pytest.fixture(scope="module")
def owner(service, client) -> Caller:
    return Caller(client, service.new_tenant("Accepting", owner=email("owner")).key)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_new_tenant_with_an_owner(service, client, capsys) -> None:
    address = email("founder")
    code, out, err = _run(
        capsys, "new-tenant", "--data-dir", str(service.data_dir), "--owner", address, "Owned"
    )
    assert code == 0, err
    made = json.loads(out)
    assert set(made) == {"tenant_id", "application_id", "key", "owner_id", "owner_member_id"}
    caller = Caller(client, made["key"])
    owner = caller.get(OWNER).json()
    assert owner["id"] == made["owner_member_id"] and owner["role"] == "OWNER"
    assert owner["user"]["id"] == made["owner_id"] and owner["user"]["email"] == address
    assert owner["user"]["mfa_enrolled"] is True
    assert caller.get("/tenants/self").json()["owner_id"] == made["owner_id"]
    application = caller.get(f"/applications/{made['application_id']}").json()
    assert application["created_by"] == made["owner_id"]
    assert [m["id"] for m in caller.get(MEMBERS).json()["data"]] == [owner["id"]]


def test_the_same_owner_owns_a_second_tenant_as_the_same_user(service, capsys) -> None:
    address = email("serial-founder")
    argv = ["new-tenant", "--data-dir", str(service.data_dir), "--owner", address]
    first = json.loads(_run(capsys, *argv, "First")[1])
    second = json.loads(_run(capsys, *argv, "Second")[1])
    assert first["owner_id"] == second["owner_id"]
    assert first["owner_member_id"] != second["owner_member_id"]


@pytest.mark.parametrize("address", ["not-an-email", "a@b", "tab\t@example.com"])
def test_new_tenant_refuses_a_malformed_owner(tmp_path, capsys, address: str) -> None:
    code, out, err = _run(
        capsys, "new-tenant", "--data-dir", str(tmp_path / "data"), "--owner", address, "T"
    )
    assert (code, out) == (1, "")
    assert err.startswith("tenant-console new-tenant: --owner: ") and "\t" not in err
    assert not (tmp_path / "data").exists()


def test_accepting_makes_the_member_and_is_logged_as_the_user(
    service, owner: Caller, capsys
) -> None:
    invitation = owner.created(INVITATIONS, invitation_body(role="READ_ONLY"))
    code, out, err = _run(
        capsys,
        "accept-invitation",
        invitation["id"],
        "--data-dir",
        str(service.data_dir),
        "--first-name",
        "Ada",
        "--last-name",
        "Lovelace",
        "--no-mfa",
    )
    assert code == 0, err
    accepted = json.loads(out)
    member = owner.get(f"{MEMBERS}/{accepted['member_id']}").json()
    assert member["role"] == "READ_ONLY" == accepted["role"]
    assert member["user"] | {"id": None} == {
        "id": None,
        "email": invitation["email"],
        "first_name": "Ada",
        "last_name": "Lovelace",
        "mfa_enrolled": False,
        "provider": "local",
        "picture": None,
    }
    assert member["user"]["id"] == accepted["user_id"] == member["created_by"]
    assert_problem(owner.get(f"{INVITATIONS}/{invitation['id']}"), 404)  # gone once accepted
    (created,) = logged(service, member["id"])
    assert (created["operation"], created["actor_type"], created["actor_id"]) == (
        "create",
        "user",
        accepted["user_id"],
    )
    assert created["entity_type"] == "tenant_member"
    assert created["message"] == (
        f"Member created: {invitation['email']} accepted an invitation as READ_ONLY"
    )
    ended = logged(service, invitation["id"])[-1]
    assert (ended["operation"], ended["actor_type"], ended["message"]) == (
        "delete",
        "user",
        "Invitation accepted",
    )
    # Accepted once: a second time there is no such invitation.
    code, out, err = _run(
        capsys, "accept-invitation", invitation["id"], "--data-dir", str(service.data_dir)
    )
    assert (code, out) == (3, "") and "no invitation" in err


def test_accepting_enrols_mfa_unless_told_not_to(service, owner: Caller, capsys) -> None:
    invitation = owner.created(INVITATIONS, invitation_body())
    code, out, err = _run(
        capsys, "accept-invitation", invitation["id"], "--data-dir", str(service.data_dir)
    )
    assert code == 0, err
    member = owner.get(f"{MEMBERS}/{json.loads(out)['member_id']}").json()
    assert member["role"] == "ADMIN" and member["user"]["mfa_enrolled"] is True
    assert member["user"]["first_name"] is None


def test_an_expired_invitation_is_refused(
    service, owner: Caller, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    invitation = owner.created(INVITATIONS, invitation_body())
    later = now() + timedelta(hours=72, seconds=1)
    monkeypatch.setenv(FROZEN_NOW_ENV, later.isoformat())  # the project clock, this process
    code, out, err = _run(
        capsys, "accept-invitation", invitation["id"], "--data-dir", str(service.data_dir)
    )
    assert (code, out) == (1, "")
    assert "expired" in err and "resend" in err
    monkeypatch.delenv(FROZEN_NOW_ENV)
    assert owner.get(f"{INVITATIONS}/{invitation['id']}").json()["status"] == "PENDING"


@pytest.mark.parametrize(
    ("argv", "code", "words"),
    [
        pytest.param(["not-a-uuid"], 2, "must be a UUID", id="malformed id"),
        pytest.param(["00000000-0000-4000-8000-000000000000"], 3, "no invitation", id="unknown id"),
        pytest.param(
            ["00000000-0000-4000-8000-000000000000", "--first-name", "A\x1bB"],
            1,
            "control characters",
            id="control characters in a name",
        ),
    ],
)
def test_accept_invitation_refusals(
    service, capsys, argv: list[str], code: int, words: str
) -> None:
    got, out, err = _run(capsys, "accept-invitation", *argv, "--data-dir", str(service.data_dir))
    assert (got, out) == (code, "")
    assert err.startswith("tenant-console accept-invitation: ") and words in err, err
    assert "\x1b" not in err


def test_an_invitee_who_is_already_a_member_is_refused(tmp_path, capsys) -> None:
    """The API never has two pending invitations for one address, but an expired one can be
    resent after the address joined by another: accepting it then is refused."""
    from console.service.store import Store, invitations
    from console.service.timestamps import now_stamp

    store = Store(tmp_path / "data")
    try:
        tenant = store.create_tenant("Twice", owner_email=email("owner"))
        address = email("twice")
        with store.write() as conn:
            made = [
                invitations.insert(
                    conn,
                    tenant.tenant_id,
                    address,
                    "ADMIN",
                    expires_at=invitations.expiry_from(now()),
                    by=tenant.application_id,
                    at=now_stamp(),
                )["id"]
                for _ in range(2)
            ]
        first = store.accept_invitation(made[0])
        assert first.email == address and first.role == "ADMIN"
    finally:
        store.close()
    data_dir = str(tmp_path / "data")
    code, out, err = _run(capsys, "accept-invitation", made[1], "--data-dir", data_dir)
    assert (code, out) == (1, "") and "already a member" in err


def test_accepting_in_a_data_dir_that_is_none_makes_nothing(tmp_path, capsys) -> None:
    missing = tmp_path / "nowhere"
    code, out, err = _run(
        capsys,
        "accept-invitation",
        "00000000-0000-4000-8000-000000000000",
        "--data-dir",
        str(missing),
    )
    assert (code, out) == (1, "") and "holds no data" in err
    assert not missing.exists()
