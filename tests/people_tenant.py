"""A tenant with people, written into a running local service's data dir (as
`tenant-console new-tenant --owner` and `accept-invitation` do): its owner, members who
accepted invitations, and a key whose application a member made (the console's own user).

    people = PeopleTenant.make(service, "People")
    ada = people.member("ada@example.com", "READ_ONLY")   # invited over HTTP, accepted
    key = people.key_made_by(ada.user_id)                 # a console whose own user is Ada
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

OWNER_EMAIL = "owner@example.com"


@dataclass(frozen=True)
class Person:
    """A member as the test made it."""

    member_id: str
    user_id: str
    email: str
    role: str


@dataclass
class PeopleTenant:
    service: Any
    tenant_id: str
    key: str
    """The bootstrap key: its application was made by the owner."""
    owner: Person

    @classmethod
    def make(
        cls, service: Any, name: str = "People", owner_email: str = OWNER_EMAIL
    ) -> PeopleTenant:
        store = service._store()
        try:
            info = store.create_tenant(name, owner_email=owner_email)
        finally:
            store.close()
        owner = Person(info.owner_member_id, info.owner_id, owner_email, "OWNER")
        return cls(service, info.tenant_id, info.key, owner)

    def http(self, key: str | None = None) -> httpx.Client:
        return httpx.Client(
            base_url=self.service.base_url,
            headers={self.service.key_header: key or self.key},
            timeout=30.0,
        )

    def invite(self, email: str, role: str = "ADMIN") -> dict[str, Any]:
        with self.http() as http:
            made = http.post("/tenants/self/invitations", json={"email": email, "role": role})
        assert made.status_code == 201, made.text
        return made.json()

    def accept(self, invitation_id: str, *, mfa: bool = True) -> Person:
        store = self.service._store()
        try:
            accepted = store.accept_invitation(invitation_id, mfa_enrolled=mfa)
        finally:
            store.close()
        return Person(accepted.member_id, accepted.user_id, accepted.email, accepted.role)

    def member(self, email: str, role: str = "ADMIN", *, mfa: bool = True) -> Person:
        """A member made the way a person becomes one: invited, then accepted."""
        return self.accept(self.invite(email, role)["id"], mfa=mfa)

    def key_made_by(self, user_id: str, name: str = "Made by a member") -> str:
        """The key of a new management application (every management grant) whose
        `created_by` is `user_id`: a console on it has that user as its own."""
        from console.service.grants import management_grants
        from console.service.store import applications
        from console.service.timestamps import now_stamp

        store = self.service._store()
        try:
            with store.write() as conn:
                _row, key = applications.insert(
                    conn,
                    tenant_id=self.tenant_id,
                    name=name,
                    type="management",
                    permissions=management_grants(),
                    rules=[],
                    expires_at=None,
                    by=user_id,
                    at=now_stamp(),
                )
        finally:
            store.close()
        assert key is not None
        return key

    def members(self) -> list[dict[str, Any]]:
        with self.http() as http:
            return http.get("/tenants/self/members", params={"size": 100}).json()["data"]

    def invitations(self) -> list[dict[str, Any]]:
        with self.http() as http:
            return http.get("/tenants/self/invitations", params={"size": 100}).json()["data"]

    def role_of(self, email: str) -> str | None:
        found = [m for m in self.members() if m["user"]["email"] == email]
        return found[0]["role"] if found else None
