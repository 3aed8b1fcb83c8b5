"""The tenant's people through the vendor's Python SDK (`basistheoryclient`): members,
invitations, the owner, the roles and the security contact, each answer parsed into the SDK's
own models (`TenantMemberResponse`, `TenantInvitationResponse`, `Role`,
`SecurityContactEmailResponse`)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from basis_theory.core.api_error import ApiError
from basis_theory.errors import BadRequestError, NotFoundError
from basis_theory.types import (
    Role,
    SecurityContactEmailResponse,
    TenantInvitationResponse,
    TenantMemberResponse,
    User,
)
from local_service import RunningService, TenantInfo
from sdk_clients import python_client


def _email(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


@pytest.fixture(scope="module")
def owned(sdk_service: RunningService) -> TenantInfo:
    return sdk_service.new_tenant("SDK people (Python)", owner=_email("owner"))


@pytest.fixture(scope="module")
def bt(sdk_service: RunningService, owned: TenantInfo) -> Any:
    return python_client(sdk_service.base_url, owned.key)


def _member(sdk_service: RunningService, bt: Any, role: str = "ADMIN") -> TenantMemberResponse:
    invitation = bt.tenants.invitations.create(email=_email("member"), role=role)
    accepted = sdk_service.accept_invitation(str(invitation.id), first_name="Ada")
    (member,) = [m for m in bt.tenants.members.list(size=100) if m.id == accepted.member_id]
    return member


def test_the_owner_and_the_members_parse_into_the_sdk_s_models(
    sdk_service: RunningService, bt: Any, owned: TenantInfo
) -> None:
    owner = bt.tenants.owner.get()
    assert isinstance(owner, TenantMemberResponse) and isinstance(owner.user, User)
    assert owner.role == "OWNER" and owner.tenant_id == owned.tenant_id
    assert owner.user.mfa_enrolled is True and owner.user.email.startswith("owner-")
    assert owner.created_date is not None and owner.created_date.utcoffset() == timedelta(0)
    member = _member(sdk_service, bt, "READ_ONLY")
    assert isinstance(member, TenantMemberResponse)
    assert member.role == "READ_ONLY" and member.user.first_name == "Ada"
    listed = list(bt.tenants.members.list(user_id=[owner.user.id, member.user.id]))
    assert [m.id for m in listed] == [owner.id, member.id]
    assert all(isinstance(m, TenantMemberResponse) for m in listed)


def test_a_member_s_role_changes_and_the_member_is_removed(
    sdk_service: RunningService, bt: Any
) -> None:
    member = _member(sdk_service, bt)
    changed = bt.tenants.members.update(member.id, role="READ_ONLY")  # json-patch+json
    assert isinstance(changed, TenantMemberResponse) and changed.role == "READ_ONLY"
    assert changed.modified_at is not None and changed.user == member.user
    bt.tenants.members.delete(member.id)
    assert member.id not in [m.id for m in bt.tenants.members.list(size=100)]
    with pytest.raises(NotFoundError):
        bt.tenants.members.update(member.id, role="ADMIN")


def test_a_bad_role_is_a_bad_request_at_its_field(sdk_service: RunningService, bt: Any) -> None:
    member = _member(sdk_service, bt)
    with pytest.raises(ApiError) as raised:  # the SDK's update names no 400: its ApiError
        bt.tenants.members.update(member.id, role="OWNER")
    assert raised.value.status_code == 400
    assert "role" in raised.value.body["errors"]


def test_invitations_are_sent_read_listed_resent_and_revoked(bt: Any) -> None:
    address = _email("invitee")
    made = bt.tenants.invitations.create(email=address, role="READ_ONLY")
    assert isinstance(made, TenantInvitationResponse)
    assert made.status == "PENDING" and made.email == address and made.role == "READ_ONLY"
    assert made.expires_at - made.created_at == timedelta(hours=72)
    assert bt.tenants.invitations.get(made.id) == made
    pending = list(bt.tenants.invitations.list(status="PENDING", size=100))
    assert made.id in [i.id for i in pending]
    assert all(isinstance(i, TenantInvitationResponse) for i in pending)
    assert list(bt.tenants.invitations.list(status="EXPIRED")) == []
    resent = bt.tenants.invitations.resend(made.id)
    assert isinstance(resent, TenantInvitationResponse) and resent.status == "PENDING"
    assert resent.expires_at >= made.expires_at
    bt.tenants.invitations.delete(made.id)
    with pytest.raises(NotFoundError):
        bt.tenants.invitations.get(made.id)


def test_a_malformed_invitation_is_a_bad_request(bt: Any) -> None:
    with pytest.raises(BadRequestError) as raised:
        bt.tenants.invitations.create(email="not an email")
    assert "email" in raised.value.body.errors


def test_the_roles_and_the_security_contact(bt: Any) -> None:
    roles = bt.roles.list()
    assert all(isinstance(r, Role) for r in roles)
    assert [r.name for r in roles] == ["OWNER", "ADMIN", "READ_ONLY"]
    address = _email("security")
    updated = bt.tenants.security_contact.update(email=address)
    assert isinstance(updated, SecurityContactEmailResponse) and updated.email == address
    read = bt.tenants.security_contact.get()
    assert isinstance(read, SecurityContactEmailResponse) and read.email == address
