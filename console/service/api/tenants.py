"""`/tenants/self`: the tenant that owns the request's key, and its usage report."""

from __future__ import annotations

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse

from console.kinds import TENANT
from console.models import Tenant, TenantUpdate, UsageReport
from console.models.tenants import (
    NAMED_SETTINGS,
    OTHER_SETTINGS_MAX,
    SETTING_NAME_MAX,
    SETTING_VALUE_MAX,
)
from console.service import event_subjects as subjects
from console.service.api.common import raw_body
from console.service.api.docs import RequestBody, Schema, ServiceRouter, route, tag_of
from console.service.api.serving import serving
from console.service.store import tenants as rows

_BOOL_STRING = {"type": "string", "enum": ["true", "false"]}
_SETTINGS = {
    "type": "object",
    "properties": {"fingerprint_tokens": _BOOL_STRING, "deduplicate_tokens": _BOOL_STRING},
    "additionalProperties": {"type": "string", "maxLength": SETTING_VALUE_MAX},
    "propertyNames": {"minLength": 1, "maxLength": SETTING_NAME_MAX},
    "maxProperties": OTHER_SETTINGS_MAX + len(NAMED_SETTINGS),
}


def _settings_documented(properties: Schema) -> None:
    properties["settings"] = {"anyOf": [_SETTINGS, {"type": "null"}], "title": "Settings"}


BODY = RequestBody(TenantUpdate, _settings_documented)

router = ServiceRouter(tags=[tag_of(TENANT)], bodies=(BODY,))


@router.get(TENANT.path, **route(200, Tenant, summary="Get the caller's tenant"))
def get_tenant(request: Request) -> JSONResponse:
    with serving(request) as served:
        tenant = rows.get(served.conn, served.tenant_id)
        return JSONResponse(rows.view(tenant))  # type: ignore[arg-type]


@router.put(TENANT.path, **route(200, Tenant, body=BODY, summary="Update the tenant"))
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
        served.changed(
            TENANT, served.tenant_id, "update", "Tenant updated", subject=subjects.tenant(row)
        )
        return JSONResponse(rows.view(row))


@router.delete(TENANT.path, **route(204, summary="Delete the tenant and everything it owns"))
def delete_tenant(request: Request) -> Response:
    with serving(request, write=True) as served:
        # Its webhooks go with it (foreign keys cascade): no subscriber is left to hear
        # `tenant.deleted` on the local service.
        rows.delete(served.conn, served.tenant_id)
        served.changed(TENANT, served.tenant_id, "delete", "Tenant deleted")
        return Response(status_code=204)


@router.get(
    TENANT.path + "/reports/usage",
    **route(200, UsageReport, summary="The tenant's token usage report"),
)
def usage_report(request: Request) -> JSONResponse:
    with serving(request) as served:
        tenant = rows.get(served.conn, served.tenant_id)
        report = rows.usage_report(served.conn, tenant, served.clock.moment)  # type: ignore[arg-type]
        return JSONResponse(report)
