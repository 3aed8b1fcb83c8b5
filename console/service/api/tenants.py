"""`/tenants/self`: the tenant that owns the request's key, and its usage report."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from console.models import Tenant, TenantUpdate, UsageReport
from console.service.api.common import (
    Clock,
    authenticate,
    json_body,
    parse,
    raw_body,
    store_of,
    writing,
)
from console.service.api.docs import route
from console.service.store import tenants as rows

router = APIRouter(tags=["Tenants"])


@router.get("/tenants/self", **route(200, Tenant, summary="Get the caller's tenant"))
def get_tenant(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "tenant:read")
        return JSONResponse(rows.view(rows.get(conn, caller.tenant_id)))  # type: ignore[arg-type]


@router.put("/tenants/self", **route(200, Tenant, body="TenantUpdate", summary="Update the tenant"))
def update_tenant(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "tenant:update")
        payload = parse(TenantUpdate, json_body(request, raw), raw)
        settings = payload.settings
        row = rows.update(
            conn,
            caller.tenant_id,
            name=payload.name,
            settings=settings,
            by=caller.application_id,
            at=clock.text,
        )
        return JSONResponse(rows.view(row))


@router.delete("/tenants/self", **route(204, summary="Delete the tenant and everything it owns"))
def delete_tenant(request: Request) -> Response:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "tenant:delete")
        rows.delete(conn, caller.tenant_id)
        return Response(status_code=204)


@router.get(
    "/tenants/self/reports/usage",
    **route(200, UsageReport, summary="The tenant's token usage report"),
)
def usage_report(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "report:read")
        tenant = rows.get(conn, caller.tenant_id)
        return JSONResponse(rows.usage_report(conn, tenant))  # type: ignore[arg-type]
