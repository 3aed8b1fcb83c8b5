"""The access review's people (members without MFA, pending and expired invitations, the owner)
and activity (each application's last activity as an actor, `inactive` past the threshold),
against the real local service, and in the CSV and JSON exports."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from people_tenant import PeopleTenant

from console.client import AdminClient
from console.client.review import INACTIVE, full_review, reactor_grants
from console.client.review_activity import Activity, read_activity
from console.client.review_export import CSV_COLUMNS, to_csv, to_json
from console.client.review_people import (
    INVITATION_EXPIRED,
    INVITATION_PENDING,
    MFA_MISSING,
    OWNER,
    read_invitation,
    read_member,
    read_people,
)
from console.clock import FROZEN_NOW_ENV


def expire(service: Any, invitation_id: str) -> None:
    """The invitation's expiry moved to yesterday, in the service's data (as time would)."""
    from console.service.timestamps import stamp

    store = service._store()
    try:
        with store.write() as conn:
            conn.execute(
                "UPDATE invitations SET expires_at = ? WHERE id = ?",
                (stamp(datetime.now(UTC) - timedelta(days=1)), invitation_id),
            )
    finally:
        store.close()


@pytest.fixture
def people(service: Any) -> PeopleTenant:
    """An owner (MFA), an admin with MFA, a read-only member without, a pending invitation and
    an expired one, and an application made by the bootstrap key that never acts."""
    tenant = PeopleTenant.make(service, "Review people")
    tenant.member("admin@example.com", "ADMIN")
    tenant.member("nomfa@example.com", "READ_ONLY", mfa=False)
    tenant.invite("pending@example.com")
    expire(service, tenant.invite("late@example.com", "READ_ONLY")["id"])
    with tenant.http() as http:
        made = http.post(
            "/applications",
            json={"name": "Idle", "type": "private", "permissions": ["token:read"]},
        )
        assert made.status_code == 201, made.text
    return tenant


async def test_people_are_flagged(service: Any, people: PeopleTenant) -> None:
    async with AdminClient(service.base_url, people.key) as client:
        found = await read_people(client)
    assert found.problem is None
    flags = {row.email: row.flags for row in found.rows}
    assert flags == {
        "owner@example.com": (OWNER,),
        "admin@example.com": (),
        "nomfa@example.com": (MFA_MISSING,),
        "pending@example.com": (INVITATION_PENDING,),
        "late@example.com": (INVITATION_EXPIRED,),
    }
    assert found.rows[0].email == "owner@example.com", "the owner comes first"
    assert [row.kind for row in found.rows] == ["member"] * 3 + ["invitation"] * 2


def test_people_are_read_leniently() -> None:
    assert read_member("not an object").email == "(unreadable item)"
    assert read_member({"id": "m", "user": None, "role": None}).flags == ()
    unknown_mfa = read_member({"id": "m", "user": {"email": "a@b.c"}, "role": "ADMIN"})
    assert unknown_mfa.flags == () and unknown_mfa.mfa_enrolled is None, "not judged"
    now = datetime(2026, 1, 1, tzinfo=UTC)
    past = {"id": "i", "email": "a@b.c", "expires_at": "2025-12-31T00:00:00Z"}
    assert read_invitation(past, now).flags == (INVITATION_EXPIRED,), "judged by its expiry"
    assert read_invitation({**past, "status": "PENDING"}, now).flags == (INVITATION_PENDING,)


async def test_activity_is_each_actors_newest_entry(service: Any, people: PeopleTenant) -> None:
    async with AdminClient(service.base_url, people.key) as client:
        activity = await read_activity(client)
        rows, _catalogue = await full_review(client, activity=read_activity(client))
    assert activity.problem is None and activity.judged
    by_name = {row.name: row for row in rows}
    bootstrap = by_name["Bootstrap management"]
    assert bootstrap.last_activity_at is not None, "it invited and created: it acted"
    assert by_name["Idle"].last_activity_at is None
    assert all(INACTIVE not in row.flags for row in rows), "every application is new"


async def test_an_application_idle_for_91_days_is_flagged_inactive(
    service: Any, people: PeopleTenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project clock moved 91 days on: the bootstrap's last activity (today's writes) and
    Idle's making are 91 days old; at 89 days neither is judged inactive."""
    async with AdminClient(service.base_url, people.key) as client:
        for days, expected in ((89, False), (91, True)):
            later = datetime.now(UTC) + timedelta(days=days)
            monkeypatch.setenv(FROZEN_NOW_ENV, later.isoformat())
            rows, _ = await full_review(client, activity=read_activity(client))
            flagged = {row.name for row in rows if INACTIVE in row.flags}
            names = {"Bootstrap management", "Idle"}
            assert flagged == (names if expected else set()), days
            shorter = await full_review(client, activity=read_activity(client), inactive_days=200)
            assert not any(INACTIVE in row.flags for row in shorter[0]), "--inactive-days 200"


async def test_the_archives_activity_counts_and_unread_logs_judge_nothing(
    service: Any, people: PeopleTenant, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = datetime.now(UTC) + timedelta(days=91)
    monkeypatch.setenv(FROZEN_NOW_ENV, later.isoformat())
    async with AdminClient(service.base_url, people.key) as client:
        ids = {row.name: row.id for row in (await full_review(client))[0]}
        archived = {ids["Idle"]: later - timedelta(days=3)}

        async def with_archive() -> Activity:
            read = await read_activity(client)
            return Activity(
                read.last, lookup=lambda wanted: {i: archived[i] for i in wanted if i in archived}
            )

        rows, _ = await full_review(client, activity=with_archive())
        idle = next(row for row in rows if row.name == "Idle")
        assert INACTIVE not in idle.flags
        assert idle.last_activity_at == archived[ids["Idle"]].isoformat()

        async def unread() -> Activity:
            return Activity(problem="The audit logs could not be read (403).")

        rows, _ = await full_review(client, activity=unread())
        assert not any(INACTIVE in row.flags for row in rows), "not judged without logs"


async def test_exports_hold_people_and_activity(service: Any, people: PeopleTenant) -> None:
    async with AdminClient(service.base_url, people.key) as client:
        activity = await read_activity(client)

        async def known() -> Activity:
            return activity

        rows, catalogue = await full_review(client, activity=known())
        reactors = await reactor_grants(client)
        found = await read_people(client)
    document = json.loads(
        to_json(rows, reactors=reactors, catalogue=catalogue, people=found, activity=activity)
    )
    assert document["people_problem"] is None
    assert document["activity"]["problem"] is None and document["activity"]["inactive_days"] == 90
    by_email = {person["email"]: person for person in document["people"]}
    assert by_email["nomfa@example.com"]["flags"] == [MFA_MISSING]
    assert by_email["nomfa@example.com"]["mfa_enrolled"] is False
    assert by_email["pending@example.com"]["flags"] == [INVITATION_PENDING]
    assert by_email["late@example.com"]["flags"] == [INVITATION_EXPIRED]
    assert by_email["owner@example.com"]["flags"] == [OWNER]
    keys = {flag["flag"] for flag in document["flags"]}
    assert {INACTIVE, MFA_MISSING, INVITATION_PENDING, INVITATION_EXPIRED, OWNER} <= keys
    apps = {app["name"]: app for app in document["applications"]}
    assert apps["Bootstrap management"]["last_activity_at"] is not None
    assert apps["Idle"]["last_activity_at"] is None

    table = list(csv.DictReader(io.StringIO(to_csv(rows, reactors, found))))
    assert tuple(table[0]) == CSV_COLUMNS
    by_name = {row["name"]: row for row in table}
    assert by_name["nomfa@example.com"]["type"] == "member"
    assert by_name["nomfa@example.com"]["flags"] == MFA_MISSING
    assert by_name["nomfa@example.com"]["role"] == "READ_ONLY"
    assert by_name["late@example.com"]["type"] == "invitation"
    assert by_name["late@example.com"]["flags"] == INVITATION_EXPIRED
    assert by_name["pending@example.com"]["expires_at"]
    assert by_name["Bootstrap management"]["last_activity_at"]
    text = json.dumps(document) + to_csv(rows, reactors, found)
    assert people.key not in text, "no key in an export"
