"""The client's people against the local service: members (list, set_role, delete),
invitations (invite, resend, revoke), the owner, the security contact, the roles; what is
refused before anything is sent; and the guard (the owner, the console's own user)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from client_helpers import FAST_RETRY, CountingTransport
from client_stub import Drop, Respond, problem
from people_tenant import OWNER_EMAIL, PeopleTenant

from console.client import AdminClient, ApiError, UnsafePath
from console.client.people import (
    OWNER_CANNOT_BE_REMOVED,
    OWNER_KEEPS_ROLE,
    demotes,
    is_guarded,
    member_stakes,
    needs_typed_email,
    own_user_id,
    stakes_of,
)
from console.models.errors import PayloadInvalid


@pytest.fixture
def people(service: Any) -> PeopleTenant:
    return PeopleTenant.make(service, "Client people")


@pytest.fixture
async def people_client(
    service: Any, people: PeopleTenant, counting: CountingTransport
) -> AsyncIterator[AdminClient]:
    async with AdminClient(service.base_url, people.key, transport=counting, retry=FAST_RETRY) as c:
        yield c


async def test_members_are_listed_with_their_users(people, people_client) -> None:
    # A user is one across tenants (by email): this test's own, without MFA.
    ada = people.member("no-mfa.client@example.com", "READ_ONLY", mfa=False)
    members = [m async for m in people_client.members.iterate()]
    by_email = {m.email: m for m in members}
    assert set(by_email) == {OWNER_EMAIL, ada.email}
    assert by_email[OWNER_EMAIL].is_owner and by_email[OWNER_EMAIL].user.mfa_enrolled is True
    assert str(by_email[ada.email].id) == ada.member_id
    assert by_email[ada.email].role == "READ_ONLY"
    assert by_email[ada.email].user.mfa_enrolled is False
    owner = await people_client.tenant.owner()
    assert str(owner.id) == people.owner.member_id and owner.email == OWNER_EMAIL


async def test_set_role_puts_the_role_and_refuses_others_before_sending(
    people, people_client, counting
) -> None:
    ada = people.member("ada@example.com", "ADMIN")
    changed = await people_client.members.set_role(ada.member_id, "read_only")
    assert changed.role == "READ_ONLY" and people.role_of("ada@example.com") == "READ_ONLY"
    sent = counting.total
    for role in ("OWNER", "SUPERUSER", ""):
        with pytest.raises(ValueError, match="ADMIN or READ_ONLY"):
            await people_client.members.set_role(ada.member_id, role)
    with pytest.raises(UnsafePath):
        await people_client.members.set_role("../../self", "ADMIN")
    assert counting.total == sent  # nothing of those was sent


async def test_the_service_refuses_the_owner_and_the_guard_says_so_first(
    people, people_client
) -> None:
    owner = await people_client.tenant.owner()
    stakes = member_stakes(owner, None)
    assert stakes.guarded and stakes.refusal("remove") == OWNER_CANNOT_BE_REMOVED
    assert stakes.refusal("set-role") == OWNER_KEEPS_ROLE
    with pytest.raises(ApiError, match="keeps the OWNER role") as refused:
        await people_client.members.set_role(owner.id, "ADMIN")
    assert refused.value.status == 409
    with pytest.raises(ApiError, match="cannot be removed") as refused:
        await people_client.members.delete(owner.id)
    assert refused.value.status == 409
    assert people.role_of(OWNER_EMAIL) == "OWNER"


async def test_delete_removes_a_member(people, people_client) -> None:
    ada = people.member("ada@example.com")
    await people_client.members.delete(ada.member_id)
    assert people.role_of("ada@example.com") is None


async def test_invitations_invite_resend_revoke(people, people_client, counting) -> None:
    sent = await people_client.invitations.invite("grace@example.com", "READ_ONLY")
    assert (sent.email, sent.role, sent.status) == ("grace@example.com", "READ_ONLY", "PENDING")
    assert sent.expires_at is not None
    again = await people_client.invitations.resend(sent.id)
    assert again.id == sent.id and again.status == "PENDING"
    assert again.expires_at is not None and again.expires_at >= sent.expires_at
    listed = [i async for i in people_client.invitations.iterate()]
    assert [i.id for i in listed] == [sent.id]
    with pytest.raises(ApiError, match="pending invitation") as refused:  # one an email
        await people_client.invitations.invite("grace@example.com")
    assert refused.value.status == 409
    await people_client.invitations.delete(sent.id)
    assert people.invitations() == []
    before = counting.total
    with pytest.raises(PayloadInvalid, match="email"):
        await people_client.invitations.invite("not an email")
    with pytest.raises(ValueError, match="ADMIN or READ_ONLY"):
        await people_client.invitations.invite("ada@example.com", "OWNER")
    with pytest.raises(UnsafePath):
        await people_client.invitations.resend("a/b")
    assert counting.total == before


@pytest.mark.parametrize("call", ["invite", "resend"])
async def test_an_invitation_is_never_sent_twice(stub, call) -> None:
    """A POST is never retried: a 503 or a dropped connection is raised, not repeated."""
    for first in (Respond(503, problem(503, "Unavailable", "Busy.")), Drop()):
        server = await stub(first, Respond(201, {}))
        async with AdminClient(server.base_url, "k" * 32, retry=FAST_RETRY) as client:
            with pytest.raises(ApiError):
                if call == "invite":
                    await client.invitations.invite("grace@example.com")
                else:
                    await client.invitations.resend(uuid.uuid4())
        assert server.count() == 1


async def test_security_contact_and_roles(people_client) -> None:
    assert (await people_client.tenant.security_contact()).email is None
    made = await people_client.tenant.set_security_contact("security@example.com")
    assert made.email == "security@example.com"
    assert (await people_client.tenant.security_contact()).email == "security@example.com"
    with pytest.raises(PayloadInvalid, match="email"):
        await people_client.tenant.set_security_contact("nobody")
    assert [r.name for r in await people_client.roles()] == ["OWNER", "ADMIN", "READ_ONLY"]


async def test_own_user_is_the_maker_of_the_consoles_application(
    service, people, people_client
) -> None:
    assert await own_user_id(people_client) == people.owner.user_id
    ada = people.member("ada@example.com", "ADMIN")
    grace = people.member("grace@example.com", "ADMIN")
    async with AdminClient(service.base_url, people.key_made_by(ada.user_id)) as as_ada:
        assert await own_user_id(as_ada) == ada.user_id
        members = {m.email: m async for m in as_ada.members.iterate()}
        assert is_guarded(members["ada@example.com"], ada.user_id)
        assert is_guarded(members[OWNER_EMAIL], ada.user_id)
        assert not is_guarded(members["grace@example.com"], ada.user_id)
        stakes = await stakes_of(as_ada, members["ada@example.com"])
        assert stakes.own_user and not stakes.owner and stakes.refusal("remove") is None
        assert needs_typed_email(stakes, members["ada@example.com"], "remove")
        assert needs_typed_email(stakes, members["ada@example.com"], "set-role", "READ_ONLY")
        other = await stakes_of(as_ada, members[grace.email])
        assert not other.guarded and not needs_typed_email(other, members[grace.email], "remove")


async def test_a_key_that_cannot_read_its_application_guards_every_member(service, people) -> None:
    ada = people.member("ada@example.com", "ADMIN")
    key = service.new_key(["tenant:member:read"], tenant_key=people.key)
    async with AdminClient(service.base_url, key, retry=FAST_RETRY) as reader:
        members = {m.email: m async for m in reader.members.iterate()}
        stakes = await stakes_of(reader, members[ada.email])
    assert stakes.guarded and stakes.unchecked and not stakes.own_user
    assert "could not be checked" in stakes.losses("remove")


def test_demotes_reads_the_ranks() -> None:
    from console.models.people import Member, User

    admin = Member(id="3f2c6a1e-0000-4000-8000-000000000001", user=User(), role="ADMIN")
    assert demotes(admin, "READ_ONLY") and not demotes(admin, "ADMIN")
    reader = admin.model_copy(update={"role": "READ_ONLY"})
    assert not demotes(reader, "ADMIN")
    unknown = admin.model_copy(update={"role": "AUDITOR"})
    assert demotes(unknown, "ADMIN")  # an unknown role may be more: guarded as a demotion
