"""`/applications`: the identities that hold API keys."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator

from fastapi import Depends, FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from console.kinds import APPLICATIONS
from console.models import TRANSFORMS, Application, ApplicationCreate, ApplicationUpdate, Page
from console.service import event_subjects as subjects
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import RequestBody, Schema, ServiceRouter, item_route, route, tag_of
from console.service.api.problems import Problem
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.grants import catalogue, catalogue_types
from console.service.store import Store, application_keys
from console.service.store import applications as rows
from console.service.timestamps import stamp

log = logging.getLogger("console.service")

SWEEP_INTERVAL_SECONDS = 30.0


async def _sweep_forever(store: Store, interval: float, log_retention: int) -> None:
    """Deletes expired applications, and audit log entries past the log retention, now and
    then (both are hidden at once regardless)."""
    while True:
        try:
            removed = await run_in_threadpool(store.sweep_expired)
            if removed:
                log.info("Deleted %d expired application(s).", removed)
        except Exception:  # a failed sweep must not stop the service; the next one retries
            log.exception("The expiry sweep failed.")
        try:
            removed = await run_in_threadpool(store.sweep_logs, log_retention)
            if removed:
                log.info("Deleted %d audit log entries past the retention.", removed)
        except Exception:
            log.exception("The audit log sweep failed.")
        await asyncio.sleep(interval)


@contextlib.asynccontextmanager
async def _sweeping(app: FastAPI) -> AsyncIterator[None]:
    """The expiry sweep, for as long as the app serves (`create_app(sweep_interval=)`)."""
    state = app.state
    sweeper = asyncio.create_task(
        _sweep_forever(state.store, state.sweep_interval, state.log_retention)
    )
    try:
        yield
    finally:
        sweeper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sweeper


def _grants_documented(properties: Schema) -> None:
    properties["permissions"]["items"] = {
        "type": "string",
        "enum": [permission.type for permission in catalogue()],
    }


def _update_documented(properties: Schema) -> None:
    properties.pop("type", None)  # declared only to be refused: a type never changes
    _grants_documented(properties)


def _rules_documented(schemas: Schema) -> None:
    rule = schemas.get("AccessRule")
    if rule:  # the model lets the console send back a service's own value; this has three
        rule["properties"]["transform"]["enum"] = list(TRANSFORMS)


CREATE = RequestBody(ApplicationCreate, _grants_documented, _rules_documented)
UPDATE = RequestBody(ApplicationUpdate, _update_documented, _rules_documented)

ITEM = APPLICATIONS.item_path("{id}")
OWN = APPLICATIONS.path + "/key"
"""The application that owns the request's key (not an `{id}`)."""

router = ServiceRouter(tags=[tag_of(APPLICATIONS)], lifespan=_sweeping, bodies=(CREATE, UPDATE))


LIST_QUERY = AcceptedQuery("id", "type", "page", "start", "size")


def _rules(payload: ApplicationCreate | ApplicationUpdate) -> list[dict]:
    return [rule.model_dump(mode="json", exclude_none=True) for rule in payload.rules]


def _named(served: Served) -> sqlite3.Row:
    """The application the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id, served.clock.text)
    return found_or_404(row, APPLICATIONS.nouns.singular)


@router.post(
    APPLICATIONS.path,
    **route(201, Application, body=CREATE, summary="Create an application"),
)
def create_application(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        payload = served.payload(
            ApplicationCreate, now=served.clock.moment, catalogue=catalogue_types()
        )
        row, key = rows.insert(
            served.conn,
            tenant_id=served.tenant_id,
            name=payload.name,
            type=payload.type,
            permissions=payload.permissions,
            rules=_rules(payload),
            expires_at=stamp(payload.expires_at) if payload.expires_at else None,
            by=served.caller.application_id,
            at=served.clock.text,
            create_key=payload.create_key is not False,
        )
        served.changed(
            APPLICATIONS,
            row["id"],
            "create",
            "Application created",
            subject=subjects.application(row),
        )
        return JSONResponse(rows.shown_with_keys(served.conn, row, key=key), status_code=201)


@router.get(
    APPLICATIONS.path,
    **route(200, Page[Application], query=LIST_QUERY, summary="List applications"),
)
def list_applications(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        query = served.query
        page = rows.page(
            served.conn,
            served.tenant_id,
            query.ids,
            query.paging,
            served.clock.text,
            types=query.types,
        )
        return JSONResponse(page)


@router.get(
    OWN,
    **route(200, Application, summary="The application that owns the request's key"),
)
def current_application(request: Request) -> JSONResponse:
    with serving(request) as served:
        caller = served.caller
        row = rows.get(served.conn, caller.tenant_id, caller.application_id, served.clock.text)
        return JSONResponse(rows.shown_with_keys(served.conn, row))  # type: ignore[arg-type]


@router.api_route(
    OWN,
    methods=["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"],
    include_in_schema=False,
)
def current_application_other_methods(request: Request) -> None:
    """`/applications/key` only reads: without this, `PUT` would reach `/applications/{id}`."""
    raise Problem(
        405, f"The method {request.method} is not allowed on this path.", headers={"Allow": "GET"}
    )


@router.get(
    ITEM,
    **item_route(200, Application, summary="Get an application"),
)
def get_application(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.shown_with_keys(served.conn, _named(served)))


@router.put(
    ITEM,
    **item_route(
        200,
        Application,
        body=UPDATE,
        summary="Update an application",
    ),
)
def update_application(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        stored = _named(served)
        payload = served.payload(
            ApplicationUpdate, application_type=stored["type"], catalogue=catalogue_types()
        )
        row = rows.update(
            served.conn,
            stored["id"],
            name=payload.name,
            permissions=payload.permissions,
            rules=_rules(payload),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        served.changed(
            APPLICATIONS,
            row["id"],
            "update",
            "Application updated",
            subject=subjects.application(row),
        )
        return JSONResponse(rows.shown_with_keys(served.conn, row))


@router.post(
    f"{ITEM}/regenerate",
    **item_route(
        200,
        Application,
        summary="Regenerate an application's key",
    ),
)
def regenerate_key(request: Request) -> JSONResponse:
    with serving(request, write=True) as served:
        stored = _named(served)
        row, key = rows.regenerate(
            served.conn, stored["id"], by=served.caller.application_id, at=served.clock.text
        )
        # One new key replaces them all: subscribers hear of the key made (its id and
        # version, never its material), as a key created through /keys is announced.
        (new_key,) = application_keys.of_application(served.conn, row["id"])
        served.changed(
            APPLICATIONS,
            row["id"],
            "update",
            "Application key regenerated",
            event="application.key.created",
            subject=subjects.application_key(new_key),
        )
        return JSONResponse(rows.shown_with_keys(served.conn, row, key=key))


@router.delete(
    ITEM,
    **item_route(204, summary="Delete an application"),
)
def delete_application(request: Request) -> Response:
    with serving(request, write=True) as served:
        stored = _named(served)
        rows.delete(served.conn, stored["id"])
        served.changed(
            APPLICATIONS,
            stored["id"],
            "delete",
            "Application deleted",
            subject=subjects.application(stored),
        )
        return Response(status_code=204)
