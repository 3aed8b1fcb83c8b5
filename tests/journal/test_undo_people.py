"""The tenant's people in the journal and their undo, through `tenant-console undo`: a role
set back, a removed member invited again (they must accept), an invitation revoked or sent
again; a resend has nothing to undo."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from people_tenant import PeopleTenant

from console.cli import main
from console.client import AdminClient
from console.journal.store import ChangeJournal
from console.journal.undo import CannotUndo, plan_undo


@pytest.fixture
def people(service: Any, add_profile: Any) -> PeopleTenant:
    tenant = PeopleTenant.make(service, "Journal people")
    add_profile("people", service.base_url, tenant.key)
    return tenant


@pytest.fixture
async def people_client(
    service: Any, people: PeopleTenant, journal: ChangeJournal
) -> AsyncIterator[AdminClient]:
    """A client on profile people whose changes go in the journal, as the console's do."""
    async with AdminClient(service.base_url, people.key) as c:
        c.record_changes(journal, profile="people", origin="console")
        yield c


async def cli(*argv: str) -> int:
    return await asyncio.to_thread(main, list(argv))


async def test_a_role_change_is_recorded_by_email_and_undone(
    people, people_client, journal, capsys
) -> None:
    ada = people.member("ada@example.com", "ADMIN")
    await people_client.members.set_role(ada.member_id, "READ_ONLY")
    (change,) = journal.list()
    assert (change.kind, change.action, change.name) == ("members", "update", ada.email)
    assert change.object_id == ada.member_id
    assert change.before is not None and change.before["role"] == "ADMIN"
    assert change.request == {"role": "READ_ONLY"}
    plan = plan_undo(change)
    assert (plan.action, plan.payload, plan.permission) == (
        "update",
        {"role": "ADMIN"},
        "tenant:member:update",
    )
    assert await cli("undo", str(change.id), "--yes") == 0
    assert people.role_of(ada.email) == "ADMIN"
    undone = journal.list()[0]
    assert (undone.kind, undone.action, undone.undoes) == ("members", "update", change.id)
    assert "role: READ_ONLY -> ADMIN" in capsys.readouterr().out


async def test_a_removed_member_is_invited_again_and_must_accept(
    people, people_client, journal, capsys
) -> None:
    ada = people.member("ada@example.com", "READ_ONLY")
    await people_client.members.delete(ada.member_id)
    (removed,) = journal.list()
    assert (removed.kind, removed.action, removed.name) == ("members", "delete", ada.email)
    plan = plan_undo(removed)
    assert (plan.kind, plan.action, plan.permission) == (
        "invitations",
        "create",
        "tenant:invitation:create",
    )
    assert plan.payload == {"email": ada.email, "role": "READ_ONLY"}
    assert plan.summary == "Send an invitation to ada@example.com as READ_ONLY"
    assert any("only once they accept it" in note for note in plan.notes)
    assert await cli("undo", str(removed.id), "--yes") == 0
    out = capsys.readouterr().out
    assert "Send an invitation to ada@example.com as READ_ONLY." in out
    assert "only once they accept it" in out
    (invited,) = people.invitations()
    assert (invited["email"], invited["role"], invited["status"]) == (
        ada.email,
        "READ_ONLY",
        "PENDING",
    )
    assert people.role_of(ada.email) is None  # not a member until they accept
    undone = journal.list()[0]
    assert (undone.kind, undone.action, undone.undoes) == ("invitations", "create", removed.id)
    again = people.accept(invited["id"])
    assert again.role == "READ_ONLY" and again.member_id != ada.member_id


async def test_an_invitation_sent_is_revoked_by_undo(people, people_client, journal) -> None:
    sent = await people_client.invitations.invite("grace@example.com", "ADMIN")
    (change,) = journal.list()
    assert (change.kind, change.action, change.name) == (
        "invitations",
        "create",
        "grace@example.com",
    )
    plan = plan_undo(change)
    assert plan.summary.startswith('Revoke invitation "grace@example.com"')
    assert (plan.action, plan.target_id) == ("delete", str(sent.id))
    assert await cli("undo", str(change.id), "--yes") == 0
    assert people.invitations() == []


async def test_a_revoked_invitation_is_sent_again_by_undo(people, people_client, journal) -> None:
    made = people.invite("grace@example.com", "READ_ONLY")
    await people_client.invitations.delete(made["id"])
    (revoked,) = journal.list()
    assert (revoked.action, revoked.name) == ("delete", "grace@example.com")
    plan = plan_undo(revoked)
    assert plan.payload == {"email": "grace@example.com", "role": "READ_ONLY"}
    assert any("new invitation" in note for note in plan.notes)
    assert await cli("undo", str(revoked.id), "--yes") == 0
    (again,) = people.invitations()
    assert again["id"] != made["id"]
    assert (again["email"], again["role"], again["status"]) == (
        "grace@example.com",
        "READ_ONLY",
        "PENDING",
    )


async def test_a_resend_is_recorded_with_nothing_to_undo(people, people_client, journal) -> None:
    made = people.invite("grace@example.com")
    await people_client.invitations.resend(made["id"])
    (resent,) = journal.list()
    assert (resent.kind, resent.action, resent.outcome) == ("invitations", "resend", "ok")
    assert resent.name == "grace@example.com"
    with pytest.raises(CannotUndo, match="nothing to take back"):
        plan_undo(resent)
    assert await cli("undo", str(resent.id), "--yes") == 1


async def test_a_refused_owner_change_is_recorded_as_failed(people, people_client, journal) -> None:
    """The client sends what it is asked (the console refuses the owner before): the
    service's 409 is recorded as a failed change, with nothing to undo."""
    from console.client import ApiError

    with pytest.raises(ApiError):
        await people_client.members.delete(people.owner.member_id)
    (refused,) = journal.list()
    assert refused.outcome == "failed"
    with pytest.raises(CannotUndo, match="failed"):
        plan_undo(refused)
