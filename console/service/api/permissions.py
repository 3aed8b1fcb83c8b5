"""`/permissions`: the catalogue, readable with any valid key."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from console.models import Permission, permissions_for
from console.service.api.common import Clock, application_type_filter, authenticate, store_of
from console.service.api.docs import APPLICATION_TYPE, route

router = APIRouter(tags=["Permissions"])


@router.get(
    "/permissions",
    **route(
        200,
        list[Permission],
        params=(APPLICATION_TYPE,),
        errors=(400, 401, 429),
        summary="List the permissions, optionally those an application type may hold",
    ),
)
def list_permissions(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        authenticate(conn, request, clock, None)
    application_type = application_type_filter(request)
    return JSONResponse([p.model_dump(mode="json") for p in permissions_for(application_type)])
