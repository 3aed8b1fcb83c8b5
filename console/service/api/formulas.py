"""`/reactor-formulas`: the official catalogue (read-only) and the tenant's private formulas."""

from __future__ import annotations

import sqlite3
from typing import Any

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse

from console.kinds import REACTOR_FORMULAS
from console.models import Page, ReactorFormula, ReactorFormulaCreate
from console.models.formulas import VALUE_TYPES
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import RequestBody, Schema, ServiceRouter, item_route, route, tag_of
from console.service.api.problems import Problem
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.store import formulas as rows


def _private_only(properties: Schema) -> None:
    # Official formulas belong to the operator: tenants can only send `private`.
    properties["type"] = {"type": "string", "enum": ["private"], "title": "Type"}


def _value_types_documented(schemas: Schema) -> None:
    for name in ("FormulaConfiguration", "FormulaRequestParameter"):
        if name in schemas:  # as for rule transforms: the console may send back a service's own
            schemas[name]["properties"]["type"]["enum"] = list(VALUE_TYPES)


BODY = RequestBody(ReactorFormulaCreate, _private_only, _value_types_documented)

ITEM = REACTOR_FORMULAS.item_path("{id}")

router = ServiceRouter(tags=[tag_of(REACTOR_FORMULAS)], bodies=(BODY,))
LIST_QUERY = AcceptedQuery("name", "page", "start", "size")

_OFFICIAL_READ_ONLY = "Official formulas belong to the service operator and are read-only."


def _named(served: Served) -> sqlite3.Row:
    """The formula the path names, official or the caller tenant's own (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id)
    return found_or_404(row, REACTOR_FORMULAS.nouns.singular)


def _private(served: Served) -> sqlite3.Row:
    """The formula the path names, if the caller's tenant may change it (else 404 or 403)."""
    stored = _named(served)
    if stored["tenant_id"] is None:
        raise Problem(403, _OFFICIAL_READ_ONLY)
    return stored


def _refuse_official(body: Any) -> None:
    """Tenants may not create official formulas, nor turn theirs into one (403)."""
    if isinstance(body, dict) and body.get("type") == "official":
        raise Problem(403, "Only the service operator can publish official formulas.")


@router.post(
    REACTOR_FORMULAS.path,
    **route(201, ReactorFormula, body=BODY, summary="Create a private formula"),
)
def create_formula(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        _refuse_official(served.body)
        payload = served.payload(ReactorFormulaCreate)
        row = rows.insert(
            served.conn,
            served.tenant_id,
            payload.model_dump(mode="json"),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        served.changed(REACTOR_FORMULAS, row["id"], "create", "Reactor formula created")
        return JSONResponse(rows.view(row), status_code=201)


@router.get(
    REACTOR_FORMULAS.path,
    **route(
        200, Page[ReactorFormula], query=LIST_QUERY, summary="List official and private formulas"
    ),
)
def list_formulas(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        query = served.query
        return JSONResponse(rows.page(served.conn, served.tenant_id, query.name, query.paging))


@router.get(
    ITEM,
    **item_route(200, ReactorFormula, summary="Get a formula"),
)
def get_formula(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_named(served)))


@router.put(
    ITEM,
    **item_route(
        200,
        ReactorFormula,
        body=BODY,
        summary="Update a private formula",
    ),
)
def update_formula(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        stored = _private(served)
        _refuse_official(served.body)
        payload = served.payload(ReactorFormulaCreate)
        row = rows.update(
            served.conn,
            stored["id"],
            payload.model_dump(mode="json"),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        served.changed(REACTOR_FORMULAS, row["id"], "update", "Reactor formula updated")
        return JSONResponse(rows.view(row))


@router.delete(
    ITEM,
    **item_route(204, summary="Delete a private formula"),
)
def delete_formula(request: Request) -> Response:
    with serving(request, write=True) as served:
        formula_id = _private(served)["id"]
        rows.delete(served.conn, formula_id)
        served.changed(REACTOR_FORMULAS, formula_id, "delete", "Reactor formula deleted")
        return Response(status_code=204)
