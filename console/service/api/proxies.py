"""`/proxies`: pre-configured routes to a destination, with optional transforms."""

from __future__ import annotations

import sqlite3
from typing import Any

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse

from console.kinds import PROXIES
from console.models import Page, Proxy, ProxyCreate
from console.models.proxies import CODE_MAX
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import (
    AUTH,
    PATH_ID,
    RequestBody,
    Schema,
    ServiceRouter,
    route,
    tag_of,
)
from console.service.api.problems import invalid
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.store import applications as app_rows
from console.service.store import proxies as rows

_CODE_TRANSFORM = {
    "type": "object",
    "title": "ProxyTransform",
    "properties": {"code": {"type": "string", "minLength": 1, "maxLength": CODE_MAX}},
    "required": ["code"],
}


def _code_transforms_documented(schemas: Schema) -> None:
    if "ProxyTransform" in schemas:
        # The shared model also carries the hosted service's other kinds of transform through
        # the console; this service runs only code transforms.
        schemas["ProxyTransform"] = _CODE_TRANSFORM


BODY = RequestBody(ProxyCreate, tighten_shared=_code_transforms_documented)

ITEM = PROXIES.item_path("{id}")

router = ServiceRouter(tags=[tag_of(PROXIES)], bodies=(BODY,))
LIST_QUERY = AcceptedQuery("id", "name", "page", "size")


def _named(served: Served) -> sqlite3.Row:
    """The proxy the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id, served.clock.text)
    return found_or_404(row, PROXIES.nouns.singular)


def _fields(served: Served) -> dict[str, Any]:
    """A validated proxy payload, its application checked against the caller's tenant."""
    payload = served.payload(ProxyCreate)
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
        app_id = str(payload.application.id)
        app = app_rows.get(served.conn, served.tenant_id, app_id, served.clock.text)
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


@router.post(PROXIES.path, **route(201, Proxy, body=BODY, summary="Create a proxy"))
def create_proxy(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        row = rows.insert(
            served.conn,
            served.tenant_id,
            _fields(served),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        return JSONResponse(rows.view(row), status_code=201)


@router.get(
    PROXIES.path,
    **route(200, Page[Proxy], query=LIST_QUERY, summary="List proxies"),
)
def list_proxies(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        query = served.query
        return JSONResponse(
            rows.page(
                served.conn,
                served.tenant_id,
                query.ids,
                query.name,
                query.paging,
                served.clock.text,
            )
        )


@router.get(
    ITEM,
    **route(200, Proxy, params=(PATH_ID,), errors=(*AUTH, 404), summary="Get a proxy"),
)
def get_proxy(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_named(served)))


@router.put(
    ITEM,
    **route(
        200,
        Proxy,
        body=BODY,
        params=(PATH_ID,),
        errors=(*AUTH, 404),
        summary="Update a proxy",
    ),
)
def update_proxy(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        stored = _named(served)
        row = rows.update(
            served.conn,
            stored["id"],
            _fields(served),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        return JSONResponse(rows.view(row))


@router.delete(
    ITEM,
    **route(204, params=(PATH_ID,), errors=(*AUTH, 404), summary="Delete a proxy"),
)
def delete_proxy(request: Request) -> Response:
    with serving(request, write=True) as served:
        rows.delete(served.conn, _named(served)["id"])
        return Response(status_code=204)
