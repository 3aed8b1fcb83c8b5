"""`/tenants/self`: the tenant that owns the request's key, and its usage report."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from console.models import Tenant, TenantUpdate, UsageReport
from console.service.api.common import raw_body
from console.service.api.docs import route
from console.service.api.serving import serving
from console.service.store import tenants as rows

router = APIRouter(tags=["Tenants"])


@router.get("/tenants/self", **route(200, Tenant, summary="Get the caller's tenant"))
def get_tenant(request: Request) -> JSONResponse:
    with serving(request) as served:
        tenant = rows.get(served.conn, served.tenant_id)
        return JSONResponse(rows.view(tenant))  # type: ignore[arg-type]


@router.put("/tenants/self", **route(200, Tenant, body="TenantUpdate", summary="Update the tenant"))
def update_tenant(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        payload = served.payload(TenantUpdate)
        row = rows.update(
            served.conn,
            served.tenant_id,
            name=payload.name,
            settings=payload.settings,
            by=served.caller.application_id,
            at=served.clock.text,
        )
        return JSONResponse(rows.view(row))


@router.delete("/tenants/self", **route(204, summary="Delete the tenant and everything it owns"))
def delete_tenant(request: Request) -> Response:
    with serving(request, write=True) as served:
        rows.delete(served.conn, served.tenant_id)
        return Response(status_code=204)


@router.get(
    "/tenants/self/reports/usage",
    **route(200, UsageReport, summary="The tenant's token usage report"),
)
def usage_report(request: Request) -> JSONResponse:
    with serving(request) as served:
        tenant = rows.get(served.conn, served.tenant_id)
        report = rows.usage_report(served.conn, tenant, served.clock.moment)  # type: ignore[arg-type]
        return JSONResponse(report)
