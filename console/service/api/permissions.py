"""`/permissions`: the catalogue, readable with any valid key."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from console.kinds import PERMISSIONS
from console.models import Permission
from console.service.api.docs import ServiceRouter, route, tag_of
from console.service.api.query import AcceptedQuery
from console.service.api.serving import serving
from console.service.grants import permissions_for

router = ServiceRouter(tags=[tag_of(PERMISSIONS)])
QUERY = AcceptedQuery("application_type")


@router.get(
    PERMISSIONS.path,
    **route(
        200,
        list[Permission],
        query=QUERY,
        errors=(401, 429),
        summary="List the permissions, optionally those an application type may hold",
    ),
)
def list_permissions(request: Request) -> JSONResponse:
    with serving(request, query=QUERY) as served:
        chosen = permissions_for(served.query.application_type)
    return JSONResponse([p.model_dump(mode="json") for p in chosen])
