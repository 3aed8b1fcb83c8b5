"""The access review's People part and last-activity column in the console (Pilot), on a
tenant with an owner, a member without MFA, a pending and an expired invitation; the export
from the view holds them."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from console_support import SIZE, make_app, settle
from local_service import RunningService
from people_tenant import PeopleTenant
from textual.pilot import Pilot
from textual.widgets import Static

from console.tui.screens.review import ReviewScreen


def expire(service: RunningService, invitation_id: str) -> None:
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


@pytest.fixture(scope="module")
def people(service: RunningService) -> PeopleTenant:
    tenant = PeopleTenant.make(service, "Review people (console)")
    tenant.member("nomfa@example.com", "READ_ONLY", mfa=False)
    tenant.invite("pending@example.com")
    expire(service, tenant.invite("late@example.com")["id"])
    with tenant.http() as http:
        made = http.post(
            "/applications", json={"name": "Idle", "type": "private", "permissions": ["token:read"]}
        )
        assert made.status_code == 201, made.text
    return tenant


async def until(pilot: Pilot[Any], condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 20
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await pilot.pause(0.01)


async def open_review(pilot: Pilot[Any]) -> ReviewScreen:
    await settle(pilot)
    await pilot.press("A")
    await until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the review")
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await until(
        pilot,
        lambda: screen.complete and screen.people is not None and screen.activity is not None,
        "the review, its people and its activity",
    )
    await pilot.pause()
    return screen


async def test_the_people_part_and_the_last_activity_column(
    service: RunningService, people: PeopleTenant, tmp_path: Path
) -> None:
    app = make_app(service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        part = str(screen.query_one("#review-people", Static).content)
        assert "owner 1 (owner@example.com)" in part
        assert "no MFA 1 (nomfa@example.com)" in part
        assert "pending 1 (pending@example.com)" in part
        assert "expired 1 (late@example.com)" in part
        assert "2 members" in part

        names = [row.name for row in screen.shown]
        columns = [column.key for column in screen.columns]
        active = columns.index("active")
        bootstrap = screen.table.row(names.index("Bootstrap management"))
        assert str(bootstrap[active]) not in ("none", "?"), "it acted: a day"
        assert str(screen.table.row(names.index("Idle"))[active]) == "none"

        target = tmp_path / "review.json"
        screen._export_to(target)
        await until(pilot, target.exists, "the export")
        document = json.loads(target.read_text())
        flags = {person["email"]: person["flags"] for person in document["people"]}
        assert flags["nomfa@example.com"] == ["mfa-missing"]
        assert flags["late@example.com"] == ["invitation-expired"]
        assert document["activity"]["problem"] is None
        assert people.key not in target.read_text()


async def test_activity_known_after_the_rows_flags_them_and_keeps_the_cursor(
    service: RunningService, people: PeopleTenant
) -> None:
    """The first page never waits for the logs: activity that comes later flags the rows
    already shown, and the cursor stays on its application."""
    from console.client.review import INACTIVE
    from console.client.review_activity import Activity

    app = make_app(service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_review(pilot)
        names = [row.name for row in screen.shown]
        screen.table.move_cursor(row=names.index("Idle"))
        await pilot.pause()
        screen._inactive_before = datetime.now(UTC) + timedelta(days=1)  # all made before
        screen._activity_known(Activity({}, lookup=lambda ids: {}))
        await pilot.pause()
        assert all(INACTIVE in row.flags for row in screen.rows)
        assert screen.counts["inactive"] == len(screen.rows)
        assert screen.current is not None and screen.current.name == "Idle"
        assert "inactive " + str(len(screen.rows)) in str(
            screen.query_one("#review-flags", Static).content
        )
