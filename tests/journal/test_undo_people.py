"""The tenant's people in the journal and their undo, through `tenant-console undo`: a role
set back, a removed member invited again (they must accept), an invitation revoked or sent
again; a resend has nothing to undo."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
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


async def test_pending_people_changes_are_settled_by_email_and_role(
    service, people, people_client, journal
) -> None:
    """Left pending by a console that stopped: an invitation sent is found by its email, one
    never sent is failed, a role change that reached the service is done."""
    from test_settle import left_pending

    from console.journal.settle import settle_pending
    from console.journal.store import FAILED, OK

    people.invite("grace@example.com", "READ_ONLY")
    sent = left_pending(
        journal,
        service,
        "POST",
        "/tenants/self/invitations",
        "invitations",
        "create",
        name="grace@example.com",
        request={"email": "grace@example.com", "role": "READ_ONLY"},
        tenant="Journal people",
    )
    never = left_pending(
        journal,
        service,
        "POST",
        "/tenants/self/invitations",
        "invitations",
        "create",
        name="lin@example.com",
        request={"email": "lin@example.com", "role": "ADMIN"},
        tenant="Journal people",
    )
    ada = people.member("ada@example.com", "ADMIN")
    (before,) = [m for m in people.members() if m["id"] == ada.member_id]
    with people.http() as http:
        assert http.put(
            f"/tenants/self/members/{ada.member_id}", json={"role": "READ_ONLY"}
        ).is_success
    changed = left_pending(
        journal,
        service,
        "PUT",
        f"/tenants/self/members/{ada.member_id}",
        "members",
        "update",
        object_id=ada.member_id,
        name=ada.email,
        before=before,
        request={"role": "READ_ONLY"},
        tenant="Journal people",
    )
    await settle_pending(people_client, journal, profile="prod")
    outcomes = {c.id: c.outcome for c in journal.list()}
    assert outcomes[sent] == OK and outcomes[never] == FAILED and outcomes[changed] == OK


class ListsMembersOnly(httpx.AsyncBaseTransport):
    """The hosted service's members: listed, changed and removed, never read by id (404)."""

    def __init__(self) -> None:
        self._inner = httpx.AsyncHTTPTransport()
        self.refused = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        parts = request.url.path.strip("/").split("/")
        if (
            request.method == "GET"
            and parts[:3] == ["tenants", "self", "members"]
            and len(parts) == 4
        ):
            self.refused += 1
            return httpx.Response(
                404, json={"title": "Not Found", "status": 404, "detail": "No such route"}
            )
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


async def test_a_member_is_found_in_the_list_where_it_cannot_be_read_by_id(
    service, people, journal
) -> None:
    """Before the change (for the journal) and before its undo (has it changed since?), a
    member is read from the list when the service does not read members by id."""
    from console.journal.undo import check_now, run_undo

    ada = people.member("ada@example.com", "ADMIN")
    hosted = ListsMembersOnly()
    async with AdminClient(service.base_url, people.key, transport=hosted) as client:
        client.record_changes(journal, profile="people", origin="console")
        await client.members.set_role(ada.member_id, "READ_ONLY")  # never read before
        (change,) = journal.list()
        assert change.before is not None and change.before["role"] == "ADMIN"
        plan = await check_now(client, plan_undo(change))
        assert not plan.changed_since
        await run_undo(client, plan)
    assert hosted.refused >= 2
    assert people.role_of(ada.email) == "ADMIN"
