"""How the tenant's people look in the console: its members (the MEMBERS kind, whose section
is titled "People") and the invitations to join it (INVITATIONS), listed in the same section
below the members (console.tui.widgets.people_view), never a section of their own.

A member without MFA is marked in the error colour, the owner is marked, and the member the
console itself acts for (the user who made the key's application) is marked "you"; an
expired invitation is dimmed and red, each expiry also said in relative time.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from rich.text import Text

from console.clock import now
from console.kinds import field_of
from console.kinds.builtin import INVITATIONS as INVITATIONS_KIND
from console.kinds.builtin import MEMBERS as MEMBERS_KIND
from console.terminal_text import printable
from console.tui.base import formatting as fmt
from console.tui.base.columns import Column, Labels, Renderable
from console.tui.browse.looks import LOOKS, Fetched, ListLook

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models.people import Invitation, Member
    from console.tui.base.shown import JsonObject, Query, Shown

log = logging.getLogger("console.tui")

OWN_USER = "own-user"
"""The labels' entry holding the user id of the console's own user (no object id is this)."""

OWNER_ROLE = "OWNER"
EXPIRED = "EXPIRED"

INVITE_PERMISSION = "invite"
"""The action name `i` asks its permission for (Look.change_permission)."""
RESEND_PERMISSION = "resend"
"""The action name the resend key asks its permission for."""


def _text(value: object) -> str:
    return printable(str(value)) if value is not None else ""


def _user(member: JsonObject) -> JsonObject:
    user = member.get("user")
    return user if isinstance(user, dict) else {}


def own_user_id(labels: Labels | None) -> str | None:
    """The console's own user's id, when the list learnt it (None: not known, or no member)."""
    return (labels or {}).get(OWN_USER) or None


def is_own_member(member: Shown, labels: Labels | None) -> bool:
    """Whether `member` is the user the console's key was made by."""
    own = own_user_id(labels)
    user_id = field_of(member, "user.id")
    return own is not None and user_id is not None and str(user_id) == own


def _email_cell(member: JsonObject, labels: Labels) -> Renderable:
    text = Text(_text(_user(member).get("email")) or "(no email)")
    if is_own_member(member, labels):
        text.append("  ● you", style="bold cyan")
    return text


def _name_cell(member: JsonObject) -> Renderable:
    user = _user(member)
    name = " ".join(_text(user.get(p)) for p in ("first_name", "last_name") if user.get(p))
    return name or Text("—", style="dim")


def role_text(role: object) -> Renderable:
    """A role: the owner's marked (★, in bold), one the console does not know as sent."""
    if not role:
        return Text("—", style="dim")
    word = _text(role)
    if word == OWNER_ROLE:
        return Text(f"★ {word}", style="bold magenta")
    if word == "READ_ONLY":
        return Text(word, style="italic")
    return word


def mfa_text(enrolled: object) -> Renderable:
    """MFA enrolled or not: not is the error colour (an access review's finding)."""
    if enrolled is True:
        return Text("✓ yes", style="green")
    if enrolled is False:
        return Text("✗ NO", style="bold red")
    return Text("?", style="dim")


def status_text(status: object, expires_at: object = None) -> Renderable:
    """An invitation's status: an expired one dimmed and red."""
    if not status:
        return Text("—", style="dim")
    word = _text(status)
    if word == EXPIRED:
        return Text(word, style="bold red")
    if word == "PENDING":
        return Text(word, style="yellow")
    return word


def expiry_text(value: object) -> Renderable:
    """`in 2 days` or `3 hours ago` (past in dim red): relative to now."""
    moment = fmt.wire_time(value) if isinstance(value, str) else None
    if moment is None:
        return Text("—", style="dim")
    words = fmt.relative(moment)
    if moment <= now():
        return Text(f"expired {words}", style="red")
    return Text(words, style=fmt.expiry_style(moment))


def _date_cell(value: object) -> str:
    return fmt.short_date(fmt.wire_time(value)) if isinstance(value, str) else "—"


def _invitation_email_cell(invitation: JsonObject) -> Renderable:
    """The invitee; dimmed once the invitation expired (it can no longer be accepted)."""
    email = _text(invitation.get("email"))
    return Text(email, style="dim") if invitation.get("status") == EXPIRED else email


class MembersLook(ListLook):
    """The tenant's members: email (owner and "you" marked), name, role, MFA."""

    short_title = "People"
    filter_placeholder = "any column or column:value"
    delete_consequences = (
        "They lose access to the tenant at once; inviting them again brings them back."
    )
    columns = (
        # Wide enough for an address and "● you": on 80 columns the date goes first.
        Column("email", "Email", _email_cell, uses_labels=True, min_width=32, grow=True),
        Column("name", "Name", _name_cell, 20, min_width=10, drop_order=2, grow=True),
        Column("role", "Role", lambda m: role_text(m.get("role")), 11),
        Column("mfa", "MFA", lambda m: mfa_text(_user(m).get("mfa_enrolled")), 5),
        Column(
            "joined",
            "Joined",
            lambda m: _date_cell(m.get("created_at") or m.get("created_date")),
            16,
            drop_order=1,
        ),
    )

    @property
    def title(self) -> str:
        return "People"

    def item_name(self, item: Shown) -> str:
        return _text(field_of(item, "user.email")) or self.item_id(item) or "(unnamed)"

    def change_permission(self, action: str) -> str | None:
        """`i` in the People section invites (an invitation's permission) wherever it is."""
        if action == INVITE_PERMISSION:
            return INVITATIONS_KIND.permission_for("create")
        return super().change_permission(action)

    def is_read_only(self, obj: Shown | None) -> bool:
        """The owner is never removed (`d` refuses, saying so) nor given another role (`e`
        says so: console.tui.actions.people_flows)."""
        return obj is not None and field_of(obj, "role") == OWNER_ROLE

    def read_only_reason(self, obj: Shown) -> str:
        return "The tenant's owner cannot be removed."

    async def fetch(self, client: AdminClient, page: int, size: int, query: Query) -> Fetched:
        fetched = await super().fetch(client, page, size, query)
        if page == 1:
            own = await own_user(client)
            if own is not None:
                fetched.labels[OWN_USER] = own
        return fetched

    def fields(self, item: Member, labels: Labels | None = None) -> list[tuple[str, Renderable]]:
        user = item.user
        marks = []
        if item.is_owner:
            marks.append("the tenant's owner")
        if is_own_member(item, labels):
            marks.append("you: the user this console's key was made by")
        return [
            ("Id", str(item.id)),
            ("Email", printable(item.email) or Text("—", style="dim")),
            ("Name", printable(user.full_name) or Text("—", style="dim")),
            ("Role", role_text(item.role)),
            ("MFA", mfa_text(user.mfa_enrolled)),
            ("Who", ", ".join(marks) or Text("—", style="dim")),
            ("User id", _text(user.id) or Text("—", style="dim")),
            ("Provider", _text(user.provider) or Text("—", style="dim")),
            ("Joined", fmt.when(item.created_at or item.created_date)),
            ("Created by", _text(item.created_by) or Text("—", style="dim")),
            ("Modified", fmt.when(item.modified_at)),
            ("Modified by", _text(item.modified_by) or Text("—", style="dim")),
        ]

    def empty_message(self, filter_text: str) -> str:
        if filter_text:
            return f"No members match “{filter_text}”. Press escape to clear."
        return "This tenant has no members the key may see."


class InvitationsLook(ListLook):
    """Invitations to join the tenant: email, role, status, expiry (relative)."""

    filter_placeholder = "any column or column:value"
    delete_consequences = "The invitation stops working: its link can no longer be accepted."
    columns = (
        Column("email", "Email", _invitation_email_cell, min_width=20, grow=True),
        Column("role", "Role", lambda i: role_text(i.get("role")), 11),
        Column("status", "Status", lambda i: status_text(i.get("status")), 9),
        Column("expires", "Expires", lambda i: expiry_text(i.get("expires_at")), 20),
        Column("sent", "Sent", lambda i: _date_cell(i.get("created_at")), 16, drop_order=1),
    )

    @property
    def creatable(self) -> bool:
        """Invited with `i` (from anywhere in the People section), not `n`."""
        return False

    def item_name(self, item: Shown) -> str:
        return _text(field_of(item, "email")) or self.item_id(item) or "(unnamed)"

    def change_permission(self, action: str) -> str | None:
        if action == INVITE_PERMISSION:
            return self.declaration.permission_for("create")
        if action == RESEND_PERMISSION:
            return self.declaration.permission_for("update")
        return super().change_permission(action)

    def fields(
        self, item: Invitation, labels: Labels | None = None
    ) -> list[tuple[str, Renderable]]:
        expires: Renderable = Text("—", style="dim")
        if item.expires_at is not None:
            expires = Text.assemble(
                fmt.local_time(item.expires_at), " (", expiry_text(item.expires_at.isoformat()), ")"
            )
        return [
            ("Id", str(item.id)),
            ("Email", _text(item.email) or Text("—", style="dim")),
            ("Role", role_text(item.role)),
            ("Status", status_text(item.status)),
            ("Expires", expires),
            ("Sent", fmt.when(item.created_at)),
            ("Sent by", _text(item.created_by) or Text("—", style="dim")),
            ("Modified", fmt.when(item.modified_at)),
        ]

    def empty_message(self, filter_text: str) -> str:
        if filter_text:
            return f"No invitations match “{filter_text}”. Press escape to clear."
        return "No invitations: press i to invite someone."


async def own_user(client: AdminClient) -> str | None:
    """The user id of the console's own user (console.client.people.own_user_id); None when
    the service will not say (a key without application:read: nobody is marked "you")."""
    from console.client.people import own_user_id

    try:
        return await own_user_id(client)
    except Exception:
        log.info("GET /applications/key failed: the console's own user is not known", exc_info=True)
        return None


MEMBERS = MembersLook(MEMBERS_KIND)
INVITATIONS = InvitationsLook(INVITATIONS_KIND)
LOOKS.register(MEMBERS)
LOOKS.register(INVITATIONS, within=MEMBERS)
