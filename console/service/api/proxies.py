"""`/proxies`: pre-configured routes to a destination, with optional transforms."""

from __future__ import annotations

import sqlite3
from typing import Any

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse

from console.kinds import PROXIES
from console.models import Page, Proxy, ProxyCreate, ProxyPatch
from console.models.proxies import DESTINATION_URL_PATTERN
from console.service import event_subjects as subjects
from console.service.api import proxy_steps
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import RequestBody, Schema, ServiceRouter, item_route, route, tag_of
from console.service.api.problems import invalid
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.store import applications as app_rows
from console.service.store import proxies as rows


def _create_documented(schemas: Schema) -> None:
    proxy_steps.shared_documented(schemas)
    proxy_steps.one_of_each_side(schemas[BODY.name])


def _patch_documented(properties: Schema) -> None:
    """Null removes a member (RFC 7396): a required one (name, destination URL) cannot be
    removed (a boolean removed takes its default); a step is as in a create."""
    for name in ("name", "destination_url"):
        (kept,) = [b for b in properties[name].pop("anyOf") if b != {"type": "null"}]
        properties[name].update(kept)
        properties[name].pop("default", None)
    properties["destination_url"]["pattern"] = DESTINATION_URL_PATTERN
    proxy_steps.steps_documented(properties)


def _patch_shared(schemas: Schema) -> None:
    proxy_steps.one_of_each_side(schemas[PATCH_BODY.name])


BODY = RequestBody(
    ProxyCreate, tighten=proxy_steps.steps_documented, tighten_shared=_create_documented
)
PATCH_BODY = RequestBody(ProxyPatch, tighten=_patch_documented, tighten_shared=_patch_shared)

ITEM = PROXIES.item_path("{id}")

router = ServiceRouter(tags=[tag_of(PROXIES)], bodies=(BODY, PATCH_BODY))
LIST_QUERY = AcceptedQuery("id", "name", "page", "start", "size")

_SIDES = ("request", "response")


def _named(served: Served) -> sqlite3.Row:
    """The proxy the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id, served.clock.text)
    return found_or_404(row, PROXIES.nouns.singular)


def _checked(served: Served, payload: ProxyCreate) -> dict[str, Any]:
    """A validated proxy payload's stored fields, its application checked against the
    caller's tenant. A single code transform is kept as the specification has it (the code
    alone); a pipeline's steps as given."""
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
    for side in _SIDES:
        single = fields.get(f"{side}_transform")
        if isinstance(single, dict) and single.get("type") == "code":
            del single["type"]
    return fields


def _fields(served: Served) -> dict[str, Any]:
    """The body of a create or a full update, validated (steps of known types only)."""
    return _checked(served, served.payload(ProxyCreate, known_steps_only=True))


_UPDATABLE = (  # what a full update sets, bar the application
    "name",
    "destination_url",
    "request_transforms",
    "response_transforms",
    "configuration",
    "require_auth",
    "disable_detokenization",
    "timeout",
)


def _as_body(view: dict[str, Any]) -> dict[str, Any]:
    """A stored proxy as a full update's body: what a merge-patch applies to."""
    body = {name: view[name] for name in _UPDATABLE}
    body["application"] = {"id": view["application_id"]} if view["application_id"] else None
    return body


def merge_patch(target: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """`patch` applied to a proxy's body (RFC 7396): a member given replaces the stored one
    and null removes it (a required one is then missing; the others take their defaults);
    `configuration` merges key by key (null removes a key); a pipeline is replaced whole;
    a single transform given replaces its side's pipeline (null: no steps)."""
    merged = dict(target)
    for name, value in patch.items():
        if name == "configuration" and isinstance(value, dict):
            configuration = dict(merged.get("configuration") or {})
            for key, item in value.items():
                if item is None:
                    configuration.pop(key, None)
                else:
                    configuration[key] = item
            merged[name] = configuration
        elif value is None:
            merged.pop(name, None)
        else:
            merged[name] = value
    for side in _SIDES:
        if f"{side}_transform" in patch and f"{side}_transforms" not in patch:
            merged.pop(f"{side}_transforms", None)
    return merged


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
        served.changed(PROXIES, row["id"], "create", "Proxy created", subject=subjects.proxy(row))
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
    **item_route(200, Proxy, summary="Get a proxy"),
)
def get_proxy(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_named(served)))


@router.put(
    ITEM,
    **item_route(
        200,
        Proxy,
        body=BODY,
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
        served.changed(PROXIES, row["id"], "update", "Proxy updated", subject=subjects.proxy(row))
        return JSONResponse(rows.view(row))


@router.patch(
    ITEM,
    **item_route(
        204,
        body=PATCH_BODY,
        summary="Change a proxy (JSON merge-patch)",
    ),
)
def patch_proxy(request: Request, raw: bytes = Depends(raw_body)) -> Response:
    """`application/merge-patch+json` as the vendor's SDKs send it (plain JSON too): the
    stored proxy with the patch applied must be a valid full update. 204, no body."""
    with serving(request, write=True, raw=raw) as served:
        stored = _named(served)
        patch = served.body
        if not isinstance(patch, dict):
            raise invalid({"": ["The body must be a JSON object."]})
        merged = merge_patch(_as_body(rows.view(stored)), patch)
        payload = served.payload_of(
            ProxyCreate,
            merged,
            known_steps_only=True,
            kept_destination_url=stored["destination_url"],
        )
        row = rows.update(
            served.conn,
            stored["id"],
            _checked(served, payload),
            by=served.caller.application_id,
            at=served.clock.text,
        )
        served.changed(
            PROXIES, stored["id"], "update", "Proxy updated", subject=subjects.proxy(row)
        )
        return Response(status_code=204)


@router.delete(
    ITEM,
    **item_route(204, summary="Delete a proxy"),
)
def delete_proxy(request: Request) -> Response:
    with serving(request, write=True) as served:
        stored = _named(served)
        rows.delete(served.conn, stored["id"])
        served.changed(
            PROXIES, stored["id"], "delete", "Proxy deleted", subject=subjects.proxy(stored)
        )
        return Response(status_code=204)
