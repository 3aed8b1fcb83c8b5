"""The console's People section against the real local service: members (MFA, the owner and
the console's own user marked) and invitations (status, expiry) in one section; invite (the
email checked at its field), resend, revoke, change a role, remove a member — the owner
refused, the console's own user only with its email typed — each recorded in the journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from console_support import make_app, notifications, settle
from form_host import SIZE, screen_is, wait_until
from people_tenant import PeopleTenant
from textual.widgets import Input, Select

from console.client import AdminClient
from console.tui.browse.sections import SECTIONS_BY_KEY
from console.tui.modals import ConfirmModal, TypeToConfirmModal
from console.tui.modals.people import InviteModal, RoleModal
from console.tui.screens.console import ConsoleScreen
from console.tui.widgets.people_view import PeopleView

OWNER = "owner@example.com"
ADMIN = "bob@example.com"
NO_MFA = "carol@example.com"
PENDING = "dave@example.com"
EXPIRED = "eve@example.com"
PAST = "2026-01-01T00:00:00.000000Z"


class People:
    """A tenant with its owner (the bootstrap key's maker: the console's own user), an
    ADMIN with MFA, a READ_ONLY member without, a pending and an expired invitation
    (tests/people_tenant.py makes the members as a person becomes one)."""

    def __init__(self, service: Any) -> None:
        self.service = service
        self.tenant = PeopleTenant.make(service, "People tenant", owner_email=OWNER)
        self.key = self.tenant.key
        self.admin = self.tenant.member(ADMIN, "ADMIN")
        self.tenant.member(NO_MFA, "READ_ONLY", mfa=False)
        self.tenant.invite(PENDING, "READ_ONLY")
        expired = self.tenant.invite(EXPIRED, "ADMIN")
        service.write_store(
            "UPDATE invitations SET expires_at = ? WHERE id = ?", (PAST, expired["id"])
        )


@pytest.fixture
def people(service: Any, private_data_dir: Path) -> People:
    return People(service)


async def open_people(pilot: Any) -> PeopleView:
    await settle(pilot)
    await pilot.press(str(SECTIONS_BY_KEY["members"].number))
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(_view(app), PeopleView), what="the section")
    view = _view(app)
    await wait_until(
        pilot,
        lambda: view.members.loaded and view.invitations.loaded,
        what="members and invitations",
    )
    await settle(pilot)
    return view


def _view(app: Any) -> Any:
    screen = app.screen
    return screen.find_section("members") if isinstance(screen, ConsoleScreen) else None


def emails(listing: Any) -> list[str]:
    return [str(item.get("email") or item["user"]["email"]) for item in listing.shown_items]


def row_text(listing: Any, email: str) -> str:
    index = emails(listing).index(email)
    return " | ".join(
        str(cell) for cell in listing.rows[listing.items.index(listing.shown_items[index])]
    )


async def move_to(pilot: Any, listing: Any, email: str) -> None:
    listing.table.move_cursor(row=emails(listing).index(email))
    await pilot.pause()


# ----- what it shows -----------------------------------------------------------------------


async def test_people_lists_members_with_mfa_owner_and_you_and_the_invitations(people):
    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        assert sorted(emails(view.members)) == sorted([OWNER, ADMIN, NO_MFA])
        owner = row_text(view.members, OWNER)
        assert "★ OWNER" in owner and "● you" in owner
        assert "✗ NO" in row_text(view.members, NO_MFA)
        assert "✓ yes" in row_text(view.members, ADMIN)
        assert "you" not in row_text(view.members, ADMIN)
        assert sorted(emails(view.invitations)) == sorted([PENDING, EXPIRED])
        assert "EXPIRED" in row_text(view.invitations, EXPIRED)
        assert "expired" in row_text(view.invitations, EXPIRED)
        pending = row_text(view.invitations, PENDING)
        assert "PENDING" in pending and "in 2 days" in pending
        # The footer's line says the list in use; tab goes to the other.
        assert view.status_text.startswith("3 of 3")
        await pilot.press("tab")
        await pilot.pause()
        assert app.screen.current_list is view.invitations
        assert view.status_text.startswith("2 of 2")


# ----- invite --------------------------------------------------------------------------------


async def test_invite_checks_the_email_at_its_field_then_shows_the_new_invitation(people):
    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await pilot.press("i")
        await wait_until(pilot, screen_is(app, InviteModal), what="the invite dialog")
        modal = app.screen
        modal.query_one("#email", Input).value = "not an email"
        await pilot.press("enter")
        await pilot.pause()
        assert "e-mail address" in modal.email_error
        assert isinstance(app.screen, InviteModal)  # nothing sent
        modal.query_one("#email", Input).value = ADMIN  # a member already: the service says 409
        await pilot.press("enter")
        await wait_until(pilot, lambda: bool(modal.problem), what="the refusal")
        assert isinstance(app.screen, InviteModal)
        modal.query_one("#email", Input).value = "frank@example.com"
        modal.query_one("#role", Select).value = "READ_ONLY"
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, ConsoleScreen), what="sent")
        await wait_until(
            pilot, lambda: "frank@example.com" in emails(view.invitations), what="the new row"
        )
        await settle(pilot)
        assert app.screen.current_list is view.invitations  # invited from the members
        assert view.invitations.current_row["email"] == "frank@example.com"
        assert "READ_ONLY" in row_text(view.invitations, "frank@example.com")
    from console.journal.store import open_journal

    changes = [(c.kind, c.action, c.outcome) for c in open_journal().list()]
    assert ("invitations", "create", "ok") in changes  # and the refused one, failed
    assert len([c for c in changes if c[2] == "ok"]) == 1


# ----- resend and revoke ---------------------------------------------------------------------


async def test_resend_renews_an_expired_invitation_and_keeps_the_cursor_on_it(people):
    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await pilot.press("tab")
        await move_to(pilot, view.invitations, EXPIRED)
        await pilot.press("I")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the confirmation")
        assert EXPIRED in app.screen.title_text
        await pilot.press("y")
        await wait_until(
            pilot, lambda: "PENDING" in row_text(view.invitations, EXPIRED), what="renewed"
        )
        await settle(pilot)
        assert view.invitations.current_row["email"] == EXPIRED
        assert any("Resent" in n for n in notifications(app))


async def test_revoke_asks_naming_who_then_the_invitation_is_gone(people):
    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await pilot.press("tab")
        await move_to(pilot, view.invitations, PENDING)
        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the confirmation")
        assert f'Revoke the invitation to "{PENDING}"?' == app.screen.title_text
        await pilot.press("y")
        await wait_until(pilot, lambda: PENDING not in emails(view.invitations), what="gone")
    async with AdminClient(people.service.base_url, people.key) as client:
        left = [i.email async for i in client.invitations.iterate()]
    assert left == [EXPIRED]


# ----- members: role and removal ---------------------------------------------------------------


async def test_change_role_demotes_an_admin_and_the_cursor_stays(people):
    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await move_to(pilot, view.members, ADMIN)
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, RoleModal), what="the role dialog")
        assert app.screen.chosen == "READ_ONLY"
        app.screen.query_one("#confirm").press()
        await wait_until(
            pilot, lambda: "READ_ONLY" in row_text(view.members, ADMIN), what="demoted"
        )
        await settle(pilot)
        assert view.members.current_row["user"]["email"] == ADMIN
    from console.journal.store import open_journal

    (change,) = open_journal().list()
    assert (change.kind, change.action) == ("members", "update")


async def test_the_owner_is_never_removed_nor_given_another_role(people):
    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await move_to(pilot, view.members, OWNER)
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)  # no dialog
        assert any("The tenant's owner cannot be removed." in n for n in notifications(app))
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
        assert any("keeps the OWNER role" in n for n in notifications(app))
        assert len(emails(view.members)) == 3


async def test_removing_a_member_asks_naming_them(people):
    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await move_to(pilot, view.members, NO_MFA)
        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the confirmation")
        assert NO_MFA in app.screen.title_text
        await pilot.press("y")
        await wait_until(pilot, lambda: NO_MFA not in emails(view.members), what="removed")
        await settle(pilot)
        assert view.members.current_row is not None  # on its neighbour


async def test_removing_or_demoting_the_consoles_own_user_needs_the_email_typed(people):
    key = people.tenant.key_made_by(people.admin.user_id)  # the console's own user: Bob
    app = make_app(people.service.base_url, key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        assert "● you" in row_text(view.members, ADMIN)
        await move_to(pilot, view.members, ADMIN)
        await pilot.press("d")
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="typed confirmation")
        modal = app.screen
        assert modal.expected == ADMIN
        modal.query_one("#typed", Input).value = "bob@example.org"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is modal  # a wrong email confirms nothing
        await pilot.press("escape")
        await wait_until(pilot, screen_is(app, ConsoleScreen))
        # Demoting: the role chosen, then the email typed.
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, RoleModal), what="the role dialog")
        app.screen.query_one("#confirm").press()
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="typed confirmation")
        app.screen.query_one("#typed", Input).value = ADMIN
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: "READ_ONLY" in row_text(view.members, ADMIN), what="demoted"
        )
        assert sorted(emails(view.members)) == sorted([OWNER, ADMIN, NO_MFA])


# ----- permissions ---------------------------------------------------------------------------


async def test_a_key_without_the_people_permissions_sees_the_keys_dimmed_and_told_why(people):
    key = people.service.new_key(
        ["tenant:member:read", "tenant:invitation:read", "application:read"], people.key
    )
    app = make_app(people.service.base_url, key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await move_to(pilot, view.members, ADMIN)
        screen = app.screen
        await wait_until(pilot, lambda: screen.check_action("delete", ()) is None, what="dimmed")
        assert screen.check_action("edit", ()) is None
        assert screen.check_action("invite", ()) is None
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
        assert any("tenant:invitation:create" in n for n in notifications(app))


# ----- detail and history ----------------------------------------------------------------------


async def test_enter_opens_a_member_and_an_invitation(people):
    from console.tui.screens.detail import DetailScreen

    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await move_to(pilot, view.members, NO_MFA)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen), what="the member's detail")
        await settle(pilot)
        fields = app.screen.fields_view
        assert fields.value_of("Email") == NO_MFA
        assert "NO" in fields.value_of("MFA")
        await pilot.press("escape")
        await wait_until(pilot, screen_is(app, ConsoleScreen))
        await pilot.press("tab")
        await move_to(pilot, view.invitations, EXPIRED)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen), what="the invitation's detail")
        await settle(pilot)
        assert app.screen.fields_view.value_of("Status") == "EXPIRED"


async def test_a_role_changed_in_the_console_is_set_back_from_history(people):
    from console.journal.store import open_journal
    from console.tui.screens.history import HistoryScreen, UndoDialog

    app = make_app(people.service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        view = await open_people(pilot)
        await move_to(pilot, view.members, ADMIN)
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, RoleModal), what="the role dialog")
        app.screen.query_one("#confirm").press()
        await wait_until(pilot, lambda: "READ_ONLY" in row_text(view.members, ADMIN))
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        await pilot.press("u")
        await wait_until(pilot, screen_is(app, UndoDialog), what="the undo dialog")
        await pilot.press("y")
        await wait_until(
            pilot,
            lambda: (
                [c.outcome for c in open_journal().list()][:1] == ["ok"]
                and len(open_journal().list()) == 2
            ),
            what="the undo recorded and answered",
        )
    async with AdminClient(people.service.base_url, people.key) as client:
        roles = {m.email: m.role async for m in client.members.iterate()}
    assert roles[ADMIN] == "ADMIN"


async def test_invitations_the_key_may_not_read_say_so_in_place_and_members_still_show(people):
    key = people.service.new_key(["tenant:member:read"], people.key)
    app = make_app(people.service.base_url, key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(str(SECTIONS_BY_KEY["members"].number))
        await wait_until(pilot, lambda: isinstance(_view(app), PeopleView), what="the section")
        view = _view(app)
        await wait_until(
            pilot,
            lambda: view.members.loaded and view.invitations.problem is not None,
            what="members, and the invitations' failure",
        )
        assert sorted(emails(view.members)) == sorted([OWNER, ADMIN, NO_MFA])
        assert "tenant:invitation:read" in str(view.invitations.problem)
        # Nobody is "you": the key may not read its own application (application:read).
        assert all("you" not in row_text(view.members, e) for e in emails(view.members))
