"""`/tenants/self/invitations`: invitations to join the tenant, sent, listed, resent, revoked.

An invitation's status is computed when it is read: PENDING until `expires_at` (72 hours
after it was sent or last resent), EXPIRED from then on. Accepting one happens outside this
API (on the local service, the operator's `tenant-console accept-invitation`).
"""

from __future__ import annotations

import sqlite3

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse

from console.kinds import INVITATIONS
from console.models import Page
from console.models.people import Invitation, InvitationCreate
from console.service import event_subjects as subjects
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import AUTH, RequestBody, ServiceRouter, item_route, route, tag_of
from console.service.api.problems import Problem
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.store import invitations as rows
from console.service.store import members

BODY = RequestBody(InvitationCreate)
ITEM = INVITATIONS.item_path("{id}")
LIST_QUERY = AcceptedQuery("status", "page", "start", "size")

router = ServiceRouter(tags=[tag_of(INVITATIONS)], bodies=(BODY,))


def _invitation(served: Served) -> sqlite3.Row:
    """The invitation the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id)
    return found_or_404(row, INVITATIONS.nouns.singular)


@router.post(
    INVITATIONS.path,
    **route(
        201,
        Invitation,
        body=BODY,
        errors=(*AUTH, 409),
        summary="Invite someone to the tenant (pending for 72 hours)",
    ),
)
def create_invitation(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        payload = served.payload(InvitationCreate)
        conn, tenant_id, now = served.conn, served.tenant_id, served.clock.text
        if members.with_email(conn, tenant_id, payload.email) is not None:
            raise Problem(409, f"{payload.email} is already a member of the tenant.")
        if rows.pending_for(conn, tenant_id, payload.email, now):
            raise Problem(409, f"{payload.email} already has a pending invitation.")
        row = rows.insert(
            conn,
            tenant_id,
            payload.email,
            payload.role,
            expires_at=rows.expiry_from(served.clock.moment),
            by=served.caller.application_id,
            at=now,
        )
        message = f"Invitation created for {payload.email} as {payload.role}"
        served.changed(INVITATIONS, row["id"], "create", message, subject=subjects.invitation(row))
        return JSONResponse(rows.view(row, now), status_code=201)


@router.get(
    INVITATIONS.path,
    **route(200, Page[Invitation], query=LIST_QUERY, summary="List the tenant's invitations"),
)
def list_invitations(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        query = served.query
        page = rows.page(
            served.conn, served.tenant_id, query.status, query.paging, served.clock.text
        )
        return JSONResponse(page)


@router.get(
    ITEM,
    **item_route(200, Invitation, summary="Get an invitation"),
)
def get_invitation(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_invitation(served), served.clock.text))


@router.post(
    ITEM + "/resend",
    **item_route(
        200,
        Invitation,
        summary="Send an invitation again: pending for another 72 hours from now",
    ),
)
def resend_invitation(request: Request) -> JSONResponse:
    """No body is read: the vendor's SDKs send none."""
    with serving(request, write=True) as served:
        stored = _invitation(served)
        row = rows.extend(
            served.conn,
            served.tenant_id,
            stored["id"],
            expires_at=rows.expiry_from(served.clock.moment),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        served.changed(
            INVITATIONS,
            stored["id"],
            "update",
            "Invitation resent",
            event="tenant.invitation.resent",
            subject=subjects.invitation(row),
        )
        return JSONResponse(rows.view(row, served.clock.text))


@router.delete(
    ITEM,
    **item_route(204, summary="Revoke an invitation"),
)
def delete_invitation(request: Request) -> Response:
    with serving(request, write=True) as served:
        stored = _invitation(served)
        rows.delete(served.conn, served.tenant_id, stored["id"])
        served.changed(
            INVITATIONS,
            stored["id"],
            "delete",
            "Invitation deleted",
            subject=subjects.invitation(stored),
        )
        return Response(status_code=204)
