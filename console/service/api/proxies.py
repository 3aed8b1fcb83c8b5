"""`/proxies`: pre-configured routes to a destination, with optional transforms."""

from __future__ import annotations

import sqlite3
from typing import Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

from console.models import Page, Proxy, ProxyCreate
from console.service.api.common import (
    Clock,
    authenticate,
    found_or_404,
    id_filter,
    json_body,
    name_filter,
    page_request,
    parse,
    path_id,
    raw_body,
    store_of,
    writing,
)
from console.service.api.docs import AUTH, IDS, NAME, PAGE, PATH_ID, SIZE, route
from console.service.api.problems import invalid
from console.service.store import applications as app_rows
from console.service.store import proxies as rows

router = APIRouter(tags=["Proxies"])


def _fields(
    conn: sqlite3.Connection, tenant_id: str, raw_payload: Any, raw: bytes, clock: Clock
) -> dict[str, Any]:
    """A validated proxy payload, its application checked against the caller's tenant."""
    payload = parse(ProxyCreate, raw_payload, raw)
    kinds = {"request_transform": payload.request_transform}
    kinds["response_transform"] = payload.response_transform
    others = {
        f"{field}.type": ["This service runs only code transforms."]
        for field, transform in kinds.items()
        if transform is not None and not transform.is_code
    }
    if others:
        raise invalid(others)
    if payload.application is not None:
        app = app_rows.get(conn, tenant_id, str(payload.application.id), clock.text)
        if app is None:
            raise invalid({"application.id": ["No application with that id exists."]})
        if app["type"] not in ("public", "private"):
            raise invalid(
                {"application.id": ["The application must be of type public or private."]}
            )
    fields = payload.model_dump(mode="json")
    for field, transform in kinds.items():  # stored as the spec has it: the code alone
        fields[field] = None if transform is None else {"code": transform.code}
    return fields


@router.post("/proxies", **route(201, Proxy, body="ProxyCreate", summary="Create a proxy"))
def create_proxy(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "proxy:create")
        fields = _fields(conn, caller.tenant_id, json_body(request, raw), raw, clock)
        row = rows.insert(conn, caller.tenant_id, fields, by=caller.application_id, at=clock.text)
        return JSONResponse(rows.view(row), status_code=201)


@router.get(
    "/proxies",
    **route(
        200,
        Page[Proxy],
        params=(IDS, NAME, PAGE, SIZE),
        errors=(400, *AUTH),
        summary="List proxies",
    ),
)
def list_proxies(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "proxy:read")
        ids = id_filter(request)
        paging = page_request(request)
        return JSONResponse(
            rows.page(conn, caller.tenant_id, ids, name_filter(request), paging, clock.text)
        )


@router.get(
    "/proxies/{id}",
    **route(200, Proxy, params=(PATH_ID,), errors=(*AUTH, 404), summary="Get a proxy"),
)
def get_proxy(request: Request) -> JSONResponse:
    clock = Clock()
    with store_of(request).read() as conn:
        caller = authenticate(conn, request, clock, "proxy:read")
        row = found_or_404(rows.get(conn, caller.tenant_id, path_id(request), clock.text), "proxy")
        return JSONResponse(rows.view(row))


@router.put(
    "/proxies/{id}",
    **route(
        200,
        Proxy,
        body="ProxyCreate",
        params=(PATH_ID,),
        errors=(*AUTH, 404),
        summary="Update a proxy",
    ),
)
def update_proxy(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "proxy:update")
        stored = found_or_404(
            rows.get(conn, caller.tenant_id, path_id(request), clock.text), "proxy"
        )
        fields = _fields(conn, caller.tenant_id, json_body(request, raw), raw, clock)
        row = rows.update(conn, stored["id"], fields, by=caller.application_id, at=clock.text)
        return JSONResponse(rows.view(row))


@router.delete(
    "/proxies/{id}",
    **route(204, params=(PATH_ID,), errors=(*AUTH, 404), summary="Delete a proxy"),
)
def delete_proxy(request: Request) -> Response:
    with writing(request) as (conn, clock):
        caller = authenticate(conn, request, clock, "proxy:delete")
        stored = found_or_404(
            rows.get(conn, caller.tenant_id, path_id(request), clock.text), "proxy"
        )
        rows.delete(conn, stored["id"])
        return Response(status_code=204)
