"""`/reactor-formulas`: the official catalogue (read-only) and the tenant's private formulas."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from console.models import Page, ReactorFormula, ReactorFormulaCreate
from console.service.api.common import (
    Clock,
    authenticate,
    found_or_404,
    json_body,
    name_filter,
    page_request,
    parse,
    path_id,
    raw_body,
    store_of,
    writing,
)
from console.service.api.docs import AUTH, NAME, PAGE, PATH_ID, SIZE, route
from console.service.api.problems import Problem
from console.service.store import formulas as rows

router = APIRouter(tags=["Reactor formulas"])

_OFFICIAL_READ_ONLY = "Official formulas belong to the service operator and are read-only."


def _refuse_official(body: Any) -> None:
    """Tenants may not create official formulas, nor turn theirs into one (403)."""
    if isinstance(body, dict) and body.get("type") == "official":
        raise Problem(403, "Only the service operator can publish official formulas.")


@router.post(
    "/reactor-formulas",
    **route(201, ReactorFormula, body="ReactorFormulaCreate", summary="Create a private formula"),
)
def create_formula(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "reactor:create")
        body = json_body(request, raw)
        _refuse_official(body)
        payload = parse(ReactorFormulaCreate, body, raw)
        row = rows.insert(
            conn,
            caller.tenant_id,
            payload.model_dump(mode="json"),
            by=caller.application_id,
            at=clock.text,
        )
        return JSONResponse(rows.view(row), status_code=201)


@router.get(
    "/reactor-formulas",
    **route(
        200,
        Page[ReactorFormula],
        params=(NAME, PAGE, SIZE),
        errors=(400, *AUTH),
        summary="List official and private formulas",
    ),
)
def list_formulas(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "reactor:read")
        paging = page_request(request)
        return JSONResponse(rows.page(conn, caller.tenant_id, name_filter(request), paging))


@router.get(
    "/reactor-formulas/{id}",
    **route(200, ReactorFormula, params=(PATH_ID,), errors=(*AUTH, 404), summary="Get a formula"),
)
def get_formula(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "reactor:read")
        row = found_or_404(rows.get(conn, caller.tenant_id, path_id(request)), "reactor formula")
        return JSONResponse(rows.view(row))


@router.put(
    "/reactor-formulas/{id}",
    **route(
        200,
        ReactorFormula,
        body="ReactorFormulaCreate",
        params=(PATH_ID,),
        errors=(*AUTH, 404),
        summary="Update a private formula",
    ),
)
def update_formula(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "reactor:update")
        stored = found_or_404(rows.get(conn, caller.tenant_id, path_id(request)), "reactor formula")
        if stored["tenant_id"] is None:
            raise Problem(403, _OFFICIAL_READ_ONLY)
        body = json_body(request, raw)
        _refuse_official(body)
        payload = parse(ReactorFormulaCreate, body, raw)
        row = rows.update(
            conn,
            stored["id"],
            payload.model_dump(mode="json"),
            by=caller.application_id,
            at=clock.text,
        )
        return JSONResponse(rows.view(row))


@router.delete(
    "/reactor-formulas/{id}",
    **route(204, params=(PATH_ID,), errors=(*AUTH, 404), summary="Delete a private formula"),
)
def delete_formula(request: Request) -> Response:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "reactor:delete")
        stored = found_or_404(rows.get(conn, caller.tenant_id, path_id(request)), "reactor formula")
        if stored["tenant_id"] is None:
            raise Problem(403, _OFFICIAL_READ_ONLY)
        rows.delete(conn, stored["id"])
        return Response(status_code=204)
