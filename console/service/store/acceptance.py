"""Accepting an invitation, which the local service does for its operator
(`tenant-console accept-invitation`): the hosted service does it when the person signs in.

The user is made (or found, by email), becomes a member with the invitation's role, and the
invitation is gone; both are logged as done by that user.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import console.service.store.invitations as invitations
import console.service.store.members as members
import console.service.store.users as users
from console.kinds import INVITATIONS, MEMBERS
from console.service import event_subjects as subjects
from console.service.changes import ACTOR_USER, Actor, Change, record


class InvitationRefused(ValueError):
    """The invitation cannot be accepted; the message says why, for a person."""


class InvitationNotFound(InvitationRefused):
    pass


@dataclass(frozen=True)
class Accepted:
    """What accepting made: the member (its id, its tenant) and its user."""

    tenant_id: str
    member_id: str
    user_id: str
    email: str
    role: str


def accept_invitation(
    conn: sqlite3.Connection,
    invitation_id: str,
    *,
    at: str,
    first_name: str | None = None,
    last_name: str | None = None,
    mfa_enrolled: bool = True,
) -> Accepted:
    """Accepts the invitation at `at` (stored time text): refuses an unknown or expired one,
    and one whose email is already a member of its tenant."""
    invitation = invitations.by_id(conn, invitation_id)
    if invitation is None:
        raise InvitationNotFound(f"no invitation {invitation_id} exists.")
    if invitations.status_of(invitation, at) == invitations.EXPIRED:
        raise InvitationRefused(
            f"the invitation {invitation_id} expired at {invitation['expires_at']}; "
            "resend it to accept it."
        )
    tenant_id, email, role = invitation["tenant_id"], invitation["email"], invitation["role"]
    if members.with_email(conn, tenant_id, email) is not None:
        raise InvitationRefused(f"{email} is already a member of the tenant.")
    user = users.ensure(
        conn, email, first_name=first_name, last_name=last_name, mfa_enrolled=mfa_enrolled
    )
    member = members.insert(conn, tenant_id, user["id"], role, by=user["id"], at=at)
    invitations.delete(conn, tenant_id, invitation_id)
    actor = Actor(user["id"], ACTOR_USER)
    message = f"Member created: {email} accepted an invitation as {role}"
    member_entity = MEMBERS.log_entity or MEMBERS.key
    invitation_entity = INVITATIONS.log_entity or INVITATIONS.key
    made = Change(
        tenant_id,
        member_entity,
        member["id"],
        "create",
        message,
        actor,
        at,
        subject=subjects.member(member),
    )
    record(conn, made)
    accepted = Change(
        tenant_id,
        invitation_entity,
        invitation_id,
        "delete",
        "Invitation accepted",
        actor,
        at,
        event="tenant.invitation.accepted",
        subject=subjects.invitation(invitation),
    )
    record(conn, accepted)
    return Accepted(tenant_id, member["id"], user["id"], user["email"], role)
