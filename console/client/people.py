"""The members the console must not lose by accident: the tenant's owner, and the console's
own user (the member whose user made the application whose key this console sends).

As deleting a key the console lives on needs its name typed, removing or demoting either of
these needs the member's email typed (the TUI's dialog, `members remove --confirm EMAIL`).
The owner is refused outright before anything is sent: the service refuses any change to
its membership (409), so asking would only lead to that refusal.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from console.client.errors import ApiError

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models.people import Member

log = logging.getLogger(__name__)

MemberAction = Literal["remove", "set-role"]

OWNER_CANNOT_BE_REMOVED = "The tenant's owner cannot be removed."
OWNER_KEEPS_ROLE = "The tenant's owner keeps the OWNER role."
"""The service's own sentences for the 409 it answers (the console says them first)."""

ROLE_RANK = {"OWNER": 3, "ADMIN": 2, "READ_ONLY": 1}
"""Higher can do more: a change to a lower rank is a demotion."""


async def own_user_id(client: AdminClient) -> str | None:
    """The user id of the console's own user: the `created_by` of the application whose key
    `client` sends (`GET /applications/key`); None when it names nobody. An ApiError when it
    cannot be read (a key without `application:read`)."""
    application = await client.applications.current()
    made_by = application.created_by
    return str(made_by) if made_by is not None else None


def demotes(member: Member, role: str) -> bool:
    """Whether giving `member` the role `role` leaves it fewer rights than it has (an
    unknown current role counts as the highest: it may be)."""
    current = ROLE_RANK.get(str(member.role or "").upper(), max(ROLE_RANK.values()))
    return ROLE_RANK.get(str(role).upper(), 0) < current


@dataclass(frozen=True)
class MemberStakes:
    """What a member is to this console."""

    owner: bool = False
    """The tenant's owner: never removed, its role never changed (the service refuses)."""
    own_user: bool = False
    """The console's own user: removed or demoted, the console's maker loses access."""
    unchecked: str = ""
    """Why the console's own user could not be told (then every member is guarded as if it
    were); "" when it was."""

    @property
    def guarded(self) -> bool:
        """Whether removing or demoting it needs its email typed."""
        return self.owner or self.own_user or bool(self.unchecked)

    def refusal(self, action: MemberAction) -> str | None:
        """Why the console will not send the change at all (the owner), or None."""
        if not self.owner:
            return None
        return OWNER_CANNOT_BE_REMOVED if action == "remove" else OWNER_KEEPS_ROLE

    def losses(self, action: MemberAction) -> str:
        """What is lost, in a sentence, for the confirmation of a guarded change."""
        verb = "Removing" if action == "remove" else "Demoting"
        if self.owner:
            return self.refusal(action) or ""
        if self.own_user:
            return (
                f"{verb} this member takes access from the user who made this console's "
                "application (its key keeps working)."
            )
        if self.unchecked:
            return (
                "Whether this member is the user who made this console's application could "
                f"not be checked ({self.unchecked.rstrip('.')})."
            )
        return ""


def member_stakes(member: Member, own_user: str | None, *, unchecked: str = "") -> MemberStakes:
    """The stakes of `member`, given the console's own user id (`own_user_id`)."""
    user_id = str(member.user.id or "")
    return MemberStakes(
        owner=member.is_owner,
        own_user=bool(own_user) and user_id == own_user,
        unchecked=unchecked,
    )


def is_guarded(member: Member, own_user: str | None) -> bool:
    """Whether removing or demoting `member` needs its email typed: the owner, or the
    console's own user (`own_user`, from `own_user_id`)."""
    return member_stakes(member, own_user).guarded


async def stakes_of(client: AdminClient, member: Member) -> MemberStakes:
    """`member_stakes` with the console's own user read now; a failure to read it guards the
    member as if it were that user (and is logged)."""
    try:
        own = await own_user_id(client)
    except ApiError as error:
        log.warning("Could not read which user made this console's application: %s", error)
        return member_stakes(member, None, unchecked=str(error))
    return member_stakes(member, own)


def needs_typed_email(
    stakes: MemberStakes, member: Member, action: MemberAction, role: str = ""
) -> bool:
    """Whether this change of `member` needs its email typed: a guarded member removed, or
    given a lower role."""
    if not stakes.guarded:
        return False
    return action == "remove" or demotes(member, role)


__all__ = [
    "OWNER_CANNOT_BE_REMOVED",
    "OWNER_KEEPS_ROLE",
    "MemberStakes",
    "demotes",
    "is_guarded",
    "member_stakes",
    "needs_typed_email",
    "own_user_id",
    "stakes_of",
]
