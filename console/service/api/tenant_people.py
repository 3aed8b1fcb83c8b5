"""`/tenants/self/owner` and `/tenants/self/security-contact`: who owns the tenant, and
whom the service writes to about its security. Permissions are the tenant's own
(tenant:read, tenant:update), as the contract table says (console.kinds.builtin)."""

from __future__ import annotations

from fastapi import Depends, Request
from fastapi.responses import JSONResponse

from console.kinds import TENANT
from console.models.people import Member, SecurityContact, SecurityContactUpdate
from console.service import event_subjects as subjects
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import AUTH, RequestBody, ServiceRouter, route, tag_of
from console.service.api.serving import serving
from console.service.store import members, security_contacts, tenants

BODY = RequestBody(SecurityContactUpdate)
OWNER = TENANT.path + "/owner"
SECURITY_CONTACT = TENANT.path + "/security-contact"

router = ServiceRouter(tags=[tag_of(TENANT)], bodies=(BODY,))


@router.get(
    OWNER,
    **route(200, Member, errors=(*AUTH, 404), summary="The tenant's owner, as a member"),
)
def get_owner(request: Request) -> JSONResponse:
    with serving(request) as served:
        row = members.owner(served.conn, served.tenant_id)
        return JSONResponse(members.view(found_or_404(row, "owner of this tenant")))


@router.get(
    SECURITY_CONTACT,
    **route(200, SecurityContact, summary="The tenant's security contact (email null if none)"),
)
def get_security_contact(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse({"email": security_contacts.get(served.conn, served.tenant_id)})


@router.put(
    SECURITY_CONTACT,
    **route(200, SecurityContact, body=BODY, summary="Set the tenant's security contact"),
)
def set_security_contact(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        payload = served.payload(SecurityContactUpdate)
        security_contacts.set_email(served.conn, served.tenant_id, payload.email)
        tenant = tenants.get(served.conn, served.tenant_id)
        served.changed(
            TENANT,
            served.tenant_id,
            "update",
            f"Security contact set to {payload.email}",
            subject=subjects.tenant(tenant),  # type: ignore[arg-type]
        )
        return JSONResponse({"email": payload.email})
