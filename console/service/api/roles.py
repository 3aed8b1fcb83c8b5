"""`/roles`: the roles a member may have, readable with any valid key."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse

from console.kinds import ROLES
from console.models.people import ROLES as ROLE_NAMES
from console.models.people import RoleItem
from console.service.api.docs import ServiceRouter, route, tag_of
from console.service.api.serving import serving

router = ServiceRouter(tags=[tag_of(ROLES)])


@router.get(
    ROLES.path,
    **route(200, list[RoleItem], errors=(401, 429), summary="List the roles a member may have"),
)
def list_roles(request: Request) -> JSONResponse:
    with serving(request):
        return JSONResponse([{"name": name} for name in ROLE_NAMES])
