"""The tenant's people: members (users with a role), invitations, roles, the owner and the
security contact, as the hosted service has them (`/tenants/self/members`,
`/tenants/self/invitations`, `/roles`, `/tenants/self/owner`,
`/tenants/self/security-contact`). The vendor's SDKs name them `TenantMemberResponse`,
`User`, `TenantInvitationResponse`, `Role` and `SecurityContactEmailResponse`.

Read leniently (a role or status this project does not know is kept); what a person types
(an email, a role) is checked strictly.
"""

from __future__ import annotations

import re
from typing import Annotated, Literal
from uuid import UUID

from pydantic import AfterValidator, Field, TypeAdapter, ValidationError

from console.models.common import RequestModel, ResponseModel, UtcDateTime

Role = Literal["OWNER", "ADMIN", "READ_ONLY"]
ROLES: tuple[str, ...] = ("OWNER", "ADMIN", "READ_ONLY")
"""`OWNER`: the tenant's owner, one, never removed; `ADMIN`: full access (an invitation's
default); `READ_ONLY`: reads only."""
ASSIGNABLE_ROLES: tuple[str, ...] = ("ADMIN", "READ_ONLY")
"""What an invitation or a role change may give: ownership is never given this way."""

InvitationStatus = Literal["PENDING", "EXPIRED"]
INVITATION_STATUSES: tuple[str, ...] = ("PENDING", "EXPIRED")
INVITATION_LIFETIME_SECONDS = 72 * 3600
"""A pending invitation expires 72 hours after it was sent (or last resent)."""

EMAIL_MAX = 254
_ADDRESS_CHARACTER = r"[^@\s\u0000-\u001f\u007f-\u009f]"
EMAIL_PATTERN = rf"^{_ADDRESS_CHARACTER}+@{_ADDRESS_CHARACTER}+\.{_ADDRESS_CHARACTER}+$"
"""An email's shape, for the validator and the OpenAPI document alike (regex syntax Python
and ECMA-262 read alike): one `@`, a dot after it, no spaces or control characters."""
_EMAIL = re.compile(EMAIL_PATTERN[1:-1])


def _an_email(value: str) -> str:
    """A well-formed address (the hosted service asks RFC 5322; this is its common shape):
    one `@`, a dot in the domain, no spaces or control characters."""
    if not _EMAIL.fullmatch(value):
        raise ValueError("Enter an e-mail address such as ada@example.com.")
    return value


Email = Annotated[
    str,
    Field(min_length=3, max_length=EMAIL_MAX, json_schema_extra={"pattern": EMAIL_PATTERN}),
    AfterValidator(_an_email),
]


def is_email(text: str) -> bool:
    """Whether `text` is an Email as the models take it (its length and shape): what a
    command line or a configuration file is refused for before anything is sent."""
    try:
        TypeAdapter(Email).validate_python(text)
    except ValidationError:
        return False
    return True


class User(ResponseModel):
    """A person with a login; `mfa_enrolled` False is what an access review flags."""

    id: str | None = None
    email: str | None = None
    provider: str | None = None
    mfa_enrolled: bool | None = None
    first_name: str | None = None
    last_name: str | None = None
    picture: str | None = None

    @property
    def full_name(self) -> str:
        return " ".join(p for p in (self.first_name, self.last_name) if p)


class Member(ResponseModel):
    """A user's membership of the tenant, with its role."""

    id: UUID
    tenant_id: UUID | None = None
    user: User = Field(default_factory=User)
    role: str | None = None
    created_by: str | None = None
    created_at: UtcDateTime | None = None
    created_date: UtcDateTime | None = None
    """The SDK's name for `created_at` (the docs say `created_at`): read either."""
    modified_by: str | None = None
    modified_at: UtcDateTime | None = None

    @property
    def email(self) -> str:
        return self.user.email or ""

    @property
    def is_owner(self) -> bool:
        return self.role == "OWNER"


class MemberUpdate(RequestModel):
    """`PUT /tenants/self/members/{id}`: a member's new role (never OWNER)."""

    role: Literal["ADMIN", "READ_ONLY"]


class Invitation(ResponseModel):
    """An invitation to join the tenant. `status` is as the service says (`PENDING` until
    `expires_at`, then `EXPIRED`); an accepted invitation is gone (its member exists)."""

    id: UUID
    tenant_id: UUID | None = None
    email: str | None = None
    role: str | None = None
    status: str | None = None
    expires_at: UtcDateTime | None = None
    created_by: str | None = None
    created_at: UtcDateTime | None = None
    modified_by: str | None = None
    modified_at: UtcDateTime | None = None


class InvitationCreate(RequestModel):
    """`POST /tenants/self/invitations`: who, and the role once accepted (ADMIN if none)."""

    email: Email
    role: Literal["ADMIN", "READ_ONLY"] = "ADMIN"


class RoleItem(ResponseModel):
    """One role of `GET /roles` (the SDK's `Role`)."""

    name: str


class SecurityContact(ResponseModel):
    """`GET /tenants/self/security-contact`: who the service writes to about security."""

    email: str | None = None


class SecurityContactUpdate(RequestModel):
    """`PUT /tenants/self/security-contact`."""

    email: Email
