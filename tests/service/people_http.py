"""The tenant's people as the service tests make them: unique emails, invitations sent over
HTTP and accepted in the data dir (the local service's operator does that, not the API)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from service_http import Caller, http_client

MEMBERS = "/tenants/self/members"
INVITATIONS = "/tenants/self/invitations"
OWNER = "/tenants/self/owner"
SECURITY_CONTACT = "/tenants/self/security-contact"


def email(prefix: str = "person") -> str:
    """An address no other test uses."""
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def tenant_fixtures(name: str) -> tuple[Any, Any, Any]:
    """A test module's `client`, `tenant` (named `name`, its owner a unique email) and
    `owner` (a Caller with the tenant's key), each made once for the module: the people
    tests each need a tenant of their own, so what one changes (roles, members) is not
    another's. Used as `client, tenant, owner = tenant_fixtures("Members")`."""

    @pytest.fixture(scope="module")
    def client(service: Any) -> Iterator[httpx.Client]:
        with http_client(service.base_url) as c:
            yield c

    @pytest.fixture(scope="module")
    def tenant(service: Any) -> Any:
        return service.new_tenant(name, owner=email("owner"))

    @pytest.fixture(scope="module")
    def owner(client: httpx.Client, tenant: Any) -> Caller:
        return Caller(client, tenant.key)

    return client, tenant, owner


def invitation_body(**overrides: Any) -> dict[str, Any]:
    return {"email": email("invitee"), "role": "ADMIN", **overrides}


def new_member(service: Any, owner: Caller, role: str = "ADMIN", **details: Any) -> dict[str, Any]:
    """A member of the caller's tenant: invited over HTTP, accepted in the data dir; the
    member as `GET /tenants/self/members/{id}` answers it."""
    invitation = owner.created(INVITATIONS, invitation_body(role=role))
    accepted = service.accept_invitation(invitation["id"], **details)
    response = owner.get(f"{MEMBERS}/{accepted.member_id}")
    assert response.status_code == 200, response.text
    return response.json()


def logged(service: Any, entity_id: str) -> list[dict[str, Any]]:
    """The audit log entries of one object, oldest first, read from the data dir (the logs'
    own route is another part's; this reads what was recorded)."""
    from console.service.store import Store

    store = Store(service.data_dir)
    try:
        with store.read() as conn:
            rows = conn.execute(
                "SELECT * FROM logs WHERE entity_id = ? ORDER BY created_at, seq", (entity_id,)
            ).fetchall()
    finally:
        store.close()
    return [dict(row) for row in rows]
