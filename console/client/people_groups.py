"""The tenant's people as resource groups: `c.members` and `c.invitations` (Collections of
their kinds, with the routes special to them), and the role catalogue (`c.roles()`).

A member is never created here (a person accepts an invitation); its role changes (PUT
`{role}`) and it is removed (DELETE). An invitation is sent (POST), resent (a new expiry) and
revoked (DELETE). Every id goes into a path through console.client.paths; a POST is never
retried (console.client._http).
"""

from __future__ import annotations

import builtins
from typing import Any

from console.client._http import HttpSession
from console.client.errors import UnexpectedResponse
from console.client.resources import Collection, Id, _Resource, _segment, parse_response
from console.kinds import INVITATIONS, MEMBERS, ROLES
from console.models.people import (
    ASSIGNABLE_ROLES,
    Invitation,
    InvitationCreate,
    Member,
    MemberUpdate,
    RoleItem,
)


def assignable_role(role: str) -> str:
    """`role` as a role change or an invitation may give it (ADMIN or READ_ONLY, any case);
    ValueError naming the choices otherwise (OWNER is never given this way)."""
    wanted = str(role).strip().upper().replace("-", "_")
    if wanted not in ASSIGNABLE_ROLES:
        raise ValueError(
            f"A member's role is {' or '.join(ASSIGNABLE_ROLES)}, not {str(role)[:40]!r}"
            + (" (the tenant's owner is never made this way)." if wanted == "OWNER" else ".")
        )
    return wanted


class Members(Collection[Member, Any, MemberUpdate]):
    """`client.members`: list, get, `set_role`, `delete` (removes the member)."""

    def __init__(self, session: HttpSession) -> None:
        super().__init__(session, MEMBERS)

    async def set_role(self, member_id: Id, role: str) -> Member:
        """PUT `{role}`: ADMIN or READ_ONLY (ValueError before anything is sent otherwise).
        The service refuses the owner's (409): ask console.client.people first."""
        body = MemberUpdate.parse({"role": assignable_role(role)})
        return await self.update(member_id, body)


class Invitations(Collection[Invitation, InvitationCreate, Any]):
    """`client.invitations`: list, get, `create` (send), `resend`, `delete` (revoke)."""

    def __init__(self, session: HttpSession) -> None:
        super().__init__(session, INVITATIONS)

    async def invite(self, email: str, role: str = "ADMIN") -> Invitation:
        """Sends an invitation to `email` for `role` (checked before anything is sent:
        ValueError, a PayloadInvalid naming the field). Never retried: a lost answer must
        not invite twice."""
        body = InvitationCreate.parse({"email": email, "role": assignable_role(role)})
        return await self.create(body)

    async def resend(self, invitation_id: Id) -> Invitation:
        """POST `/{id}/resend`: the invitation again, expiring 72 hours from now. Never
        retried (a POST)."""
        path = f"{self.kind.item_path(_segment(invitation_id))}/resend"
        return await self._call("POST", path, Invitation)


class Roles(_Resource):
    """`GET /roles`: the catalogue (any valid key may read it)."""

    async def list(self) -> builtins.list[RoleItem]:
        data = await self._session.request("GET", ROLES.path)
        items = data.get("data") if isinstance(data, dict) else data
        if not isinstance(items, builtins.list):
            raise UnexpectedResponse(
                200,
                "Unexpected answer",
                "The service's list of roles is not a list",
                method="GET",
                path=ROLES.path,
            )
        return [parse_response(RoleItem, item, method="GET", path=ROLES.path) for item in items]


__all__ = ["Invitations", "Members", "Roles", "assignable_role"]
