"""`/applications`: the identities that hold API keys."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from console.models import Application, ApplicationCreate, ApplicationUpdate, Page
from console.service.api.common import (
    Clock,
    authenticate,
    found_or_404,
    id_filter,
    json_body,
    page_request,
    parse,
    path_id,
    raw_body,
    store_of,
    writing,
)
from console.service.api.docs import AUTH, IDS, PAGE, PATH_ID, SIZE, route
from console.service.api.problems import Problem
from console.service.store import applications as rows
from console.service.timestamps import stamp

router = APIRouter(tags=["Applications"])


def _rules(payload: ApplicationCreate | ApplicationUpdate) -> list[dict]:
    return [rule.model_dump(mode="json", exclude_none=True) for rule in payload.rules]


@router.post(
    "/applications",
    **route(201, Application, body="ApplicationCreate", summary="Create an application"),
)
def create_application(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "application:create")
        payload = parse(ApplicationCreate, json_body(request, raw), raw, now=clock.moment)
        row, key = rows.insert(
            conn,
            tenant_id=caller.tenant_id,
            name=payload.name,
            type=payload.type,
            permissions=payload.permissions,
            rules=_rules(payload),
            expires_at=stamp(payload.expires_at) if payload.expires_at else None,
            by=caller.application_id,
            at=clock.text,
        )
        return JSONResponse(rows.view(row, key=key), status_code=201)


@router.get(
    "/applications",
    **route(
        200,
        Page[Application],
        params=(IDS, PAGE, SIZE),
        errors=(400, *AUTH),
        summary="List applications",
    ),
)
def list_applications(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "application:read")
        ids = id_filter(request)
        paging = page_request(request)
        return JSONResponse(rows.page(conn, caller.tenant_id, ids, paging, clock.text))


@router.get(
    "/applications/key",
    **route(200, Application, summary="The application that owns the request's key"),
)
def current_application(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "application:read")
        row = rows.get(conn, caller.tenant_id, caller.application_id, clock.text)
        return JSONResponse(rows.view(row))  # type: ignore[arg-type]


@router.api_route(
    "/applications/key",
    methods=["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"],
    include_in_schema=False,
)
def current_application_other_methods(request: Request) -> None:
    """`/applications/key` only reads: without this, `PUT` would reach `/applications/{id}`."""
    raise Problem(
        405, f"The method {request.method} is not allowed on this path.", headers={"Allow": "GET"}
    )


@router.get(
    "/applications/{id}",
    **route(200, Application, params=(PATH_ID,), errors=(*AUTH, 404), summary="Get an application"),
)
def get_application(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "application:read")
        row = found_or_404(
            rows.get(conn, caller.tenant_id, path_id(request), clock.text), "application"
        )
        return JSONResponse(rows.view(row))


@router.put(
    "/applications/{id}",
    **route(
        200,
        Application,
        body="ApplicationUpdate",
        params=(PATH_ID,),
        errors=(*AUTH, 404),
        summary="Update an application",
    ),
)
def update_application(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "application:update")
        stored = found_or_404(
            rows.get(conn, caller.tenant_id, path_id(request), clock.text), "application"
        )
        payload = parse(
            ApplicationUpdate, json_body(request, raw), raw, application_type=stored["type"]
        )
        row = rows.update(
            conn,
            stored["id"],
            name=payload.name,
            permissions=payload.permissions,
            rules=_rules(payload),
            by=caller.application_id,
            at=clock.text,
        )
        return JSONResponse(rows.view(row))


@router.post(
    "/applications/{id}/regenerate",
    **route(
        200,
        Application,
        params=(PATH_ID,),
        errors=(*AUTH, 404),
        summary="Regenerate an application's key",
    ),
)
def regenerate_key(request: Request) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "application:update")
        stored = found_or_404(
            rows.get(conn, caller.tenant_id, path_id(request), clock.text), "application"
        )
        row, key = rows.regenerate(conn, stored["id"], by=caller.application_id, at=clock.text)
        return JSONResponse(rows.view(row, key=key))


@router.delete(
    "/applications/{id}",
    **route(204, params=(PATH_ID,), errors=(*AUTH, 404), summary="Delete an application"),
)
def delete_application(request: Request) -> Response:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "application:delete")
        stored = found_or_404(
            rows.get(conn, caller.tenant_id, path_id(request), clock.text), "application"
        )
        rows.delete(conn, stored["id"])
        return Response(status_code=204)
