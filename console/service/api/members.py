"""`/tenants/self/members`: the tenant's members, listed, read, given another role, removed.

Members are never created here: a user becomes one by accepting an invitation (on the local
service, the operator's `accept-invitation`). The owner keeps the OWNER role and cannot be
removed (409): ownership is not given or taken by these routes.
"""

from __future__ import annotations

import sqlite3

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse

from console.kinds import MEMBERS
from console.models import Page
from console.models.people import Member, MemberUpdate
from console.service import event_subjects as subjects
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import RequestBody, ServiceRouter, item_route, route, tag_of
from console.service.api.problems import Problem
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.store import members as rows

BODY = RequestBody(MemberUpdate)
ITEM = MEMBERS.item_path("{id}")
LIST_QUERY = AcceptedQuery("user_id", "page", "start", "size")

OWNER_KEEPS_ROLE = "The tenant's owner keeps the OWNER role."
OWNER_STAYS = "The tenant's owner cannot be removed."

router = ServiceRouter(tags=[tag_of(MEMBERS)], bodies=(BODY,))


def _member(served: Served) -> sqlite3.Row:
    """The member the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id)
    return found_or_404(row, MEMBERS.nouns.singular)


@router.get(
    MEMBERS.path,
    **route(200, Page[Member], query=LIST_QUERY, summary="List the tenant's members"),
)
def list_members(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        query = served.query
        return JSONResponse(rows.page(served.conn, served.tenant_id, query.user_ids, query.paging))


@router.get(
    ITEM,
    **item_route(200, Member, summary="Get a member"),
)
def get_member(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_member(served)))


@router.put(
    ITEM,
    **item_route(
        200,
        Member,
        body=BODY,
        more_errors=(409,),
        summary="Change a member's role (ADMIN or READ_ONLY; never the owner's)",
    ),
)
def update_member(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        stored = _member(served)
        payload = served.payload(MemberUpdate)
        if stored["role"] == rows.OWNER:
            raise Problem(409, OWNER_KEEPS_ROLE)
        row = rows.set_role(
            served.conn,
            served.tenant_id,
            stored["id"],
            payload.role,
            by=served.caller.application_id,
            at=served.clock.text,
        )
        before, after = stored["role"], payload.role
        message = (
            f"Member role changed from {before} to {after}"
            if before != after
            else f"Member updated: the role stays {after}"
        )
        served.changed(MEMBERS, stored["id"], "update", message)
        return JSONResponse(rows.view(row))


@router.delete(
    ITEM,
    **item_route(
        204,
        more_errors=(409,),
        summary="Remove a member from the tenant (never the owner)",
    ),
)
def delete_member(request: Request) -> Response:
    with serving(request, write=True) as served:
        stored = _member(served)
        if stored["role"] == rows.OWNER:
            raise Problem(409, OWNER_STAYS)
        rows.delete(served.conn, served.tenant_id, stored["id"])
        served.changed(
            MEMBERS,
            stored["id"],
            "delete",
            f"Member deleted: {stored['email']}",
            subject=subjects.member(stored),
        )
        return Response(status_code=204)
