"""`/widgets` on the real local service: the routes a new kind adds, built from its declaration.

Served the way the built-in kinds are (console.service.api): `serving` checks the key, the
permission, the query; the paths, the permissions (console.kinds.endpoints derives them from
the registered declaration) and the 404's noun come from WIDGETS. The table is made when the
app starts (the router's lifespan).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator

from fastapi import Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse

from console.models import Page
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import RequestBody, ServiceRouter, item_route, route, tag_of
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from proof_kind import store as rows
from proof_kind.kind import WIDGETS
from proof_kind.model import Widget, WidgetCreate


@contextlib.asynccontextmanager
async def _with_table(app: FastAPI) -> AsyncIterator[None]:
    """The widgets' table, in the service's own data dir, before the first request."""
    with app.state.store.write() as conn:
        rows.create_table(conn)
    yield


BODY = RequestBody(WidgetCreate)
router = ServiceRouter(tags=[tag_of(WIDGETS)], lifespan=_with_table, bodies=(BODY,))
LIST_QUERY = AcceptedQuery("name", "page", "size")
ITEM = WIDGETS.item_path("{id}")


def _named(served: Served) -> sqlite3.Row:
    """The widget the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id)
    return found_or_404(row, WIDGETS.nouns.singular)


def _fields(served: Served) -> dict[str, object]:
    return served.payload(WidgetCreate).model_dump(mode="json")


@router.post(WIDGETS.path, **route(201, Widget, body=BODY, summary="Create a widget"))
def create_widget(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        row = rows.insert(
            served.conn,
            served.tenant_id,
            _fields(served),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        return JSONResponse(rows.view(row), status_code=201)


@router.get(WIDGETS.path, **route(200, Page[Widget], query=LIST_QUERY, summary="List widgets"))
def list_widgets(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        query = served.query
        return JSONResponse(rows.page(served.conn, served.tenant_id, query.name, query.paging))


@router.get(ITEM, **item_route(200, Widget, summary="Get a widget"))
def get_widget(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_named(served)))


@router.put(
    ITEM,
    **item_route(
        200,
        Widget,
        body=BODY,
        summary="Update a widget",
    ),
)
def update_widget(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
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


@router.delete(ITEM, **item_route(204, summary="Delete a widget"))
def delete_widget(request: Request) -> Response:
    with serving(request, write=True) as served:
        rows.delete(served.conn, _named(served)["id"])
        return Response(status_code=204)
