"""`/reactors`: the tenant's code and the runtime it runs in (create, read, change, delete).

Invoking them (`react`, `react-async`, results) is console.service.api.reactions. How a
change is provisioned is console.service.provisioning; the delay is the app's
`provision_delay` (`serve --provision-delay`).
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from console.kinds.builtin import REACTORS
from console.models import Page
from console.models.errors import field_errors
from console.models.reactors import (
    PACKAGE_NAME_PATTERN,
    Reactor,
    ReactorCreate,
    ReactorPatch,
    ReactorRuntime,
)
from console.service import event_subjects as subjects
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import RequestBody, Schema, ServiceRouter, item_route, route, tag_of
from console.service.api.problems import invalid
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.grants import catalogue, catalogue_types
from console.service.provisioning import Version, provision, wall_now
from console.service.store import applications as app_rows
from console.service.store import reactors as rows

PACKAGES = "NpmPackages"
"""The document's schema of `dependencies` and `resolutions`: npm package names to non-empty
version ranges."""


def _packages() -> Schema:
    return {
        "anyOf": [{"$ref": f"#/components/schemas/{PACKAGES}"}, {"type": "null"}],
        "default": None,
    }


def _runtime_documented(schemas: Schema) -> None:
    """The runtime's rules the model's schema does not state: its `bt` client's permissions
    come from the catalogue, and package names are npm's."""
    runtime = schemas.get("ReactorRuntime")
    if runtime is None:
        return
    properties = runtime["properties"]
    grants = {"type": "string", "enum": [permission.type for permission in catalogue()]}
    properties["permissions"] = {
        "anyOf": [{"type": "array", "items": grants}, {"type": "null"}],
        "default": None,
    }
    properties["dependencies"] = _packages()
    properties["resolutions"] = _packages()
    schemas[PACKAGES] = {
        "type": "object",
        "title": PACKAGES,
        "propertyNames": {"type": "string", "pattern": PACKAGE_NAME_PATTERN},
        "additionalProperties": {"type": "string", "minLength": 1},
    }


def _patch_documented(properties: Schema) -> None:
    """A merge-patch: `name` and `code` may change but not be removed; `runtime` merges key
    by key into a runtime, so it names the runtime's options, each of which a null removes."""
    for field in ("name", "code"):
        (kept,) = [branch for branch in properties[field]["anyOf"] if branch != {"type": "null"}]
        properties[field] = {**kept, "title": properties[field].get("title", field)}
    options: Schema = {}
    for name, option in _runtime_options().items():
        branches = option.get("anyOf", [{k: v for k, v in option.items() if k != "default"}])
        if {"type": "null"} not in branches:
            branches = [*branches, {"type": "null"}]
        options[name] = {"anyOf": branches}
    patch = {"type": "object", "properties": options, "additionalProperties": False}
    properties["runtime"] = {"anyOf": [patch, {"type": "null"}], "default": None}


def _runtime_options() -> Schema:
    """The runtime's options as the document states them (with _runtime_documented's)."""
    schemas: Schema = {"ReactorRuntime": ReactorRuntime.model_json_schema(mode="validation")}
    _runtime_documented(schemas)
    properties: Schema = schemas["ReactorRuntime"]["properties"]
    return properties


BODY = RequestBody(ReactorCreate, tighten_shared=_runtime_documented)
PATCH_BODY = RequestBody(ReactorPatch, _patch_documented, _runtime_documented)

ITEM = REACTORS.item_path("{id}")
MERGE_PATCH = "application/merge-patch+json"

router = ServiceRouter(tags=[tag_of(REACTORS)], bodies=(BODY, PATCH_BODY))
LIST_QUERY = AcceptedQuery("id", "name", "page", "start", "size")


def _named(served: Served) -> sqlite3.Row:
    """The reactor the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id, served.clock.text)
    return found_or_404(row, REACTORS.nouns.singular)


def _application_id(served: Served, application: Any) -> str | None:
    """The id of the application a payload names, checked against the caller's tenant:
    live and of a type whose key a runtime can hold (public or private), as for proxies."""
    if application is None:
        return None
    app_id = str(application.id)
    app = app_rows.get(served.conn, served.tenant_id, app_id, served.clock.text)
    if app is None:
        raise invalid({"application.id": ["No application with that id exists."]})
    if app["type"] not in ("public", "private"):
        raise invalid({"application.id": ["The application must be of type public or private."]})
    return app_id


def _version(payload: ReactorCreate) -> Version:
    """The version a payload asks for; its runtime's permissions checked against the
    catalogue (the runtime's `bt` client may hold only permissions that exist)."""
    runtime = None if payload.runtime is None else payload.runtime.model_dump(mode="json")
    if runtime is not None:
        known = catalogue_types()
        unknown = [p for p in runtime.get("permissions") or () if p not in known]
        if unknown:
            raise invalid(
                {
                    "runtime.permissions": [
                        f"Not a permission of the catalogue: {p}." for p in unknown
                    ]
                }
            )
    return Version(code=payload.code, configuration=dict(payload.configuration), runtime=runtime)


def _save(served: Served, stored: sqlite3.Row | None, payload: ReactorCreate) -> sqlite3.Row:
    """Creates (`stored` None) or changes a reactor to `payload`, provisioning its version."""
    application_id = _application_id(served, payload.application)
    target = _version(payload)
    now = wall_now()
    current = None if stored is None else rows.provisioning_of(stored, now)
    provisioning = provision(
        current, target, delay=served.request.app.state.provision_delay, now=now
    )
    by = served.caller.application_id
    if stored is None:
        return rows.insert(
            served.conn,
            served.tenant_id,
            name=payload.name,
            application_id=application_id,
            provisioning=provisioning,
            by=by,
            at=served.clock.text,
        )
    return rows.update(
        served.conn,
        stored["id"],
        name=payload.name,
        application_id=application_id,
        provisioning=provisioning,
        by=by,
        at=served.clock.text,
    )


@router.post(REACTORS.path, **route(201, Reactor, body=BODY, summary="Create a reactor"))
def create_reactor(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        row = _save(served, None, served.payload(ReactorCreate))
        served.changed(
            REACTORS, row["id"], "create", "Reactor created", subject=subjects.reactor(row)
        )
        return JSONResponse(rows.view(row), status_code=201)


@router.get(
    REACTORS.path,
    **route(200, Page[Reactor], query=LIST_QUERY, summary="List reactors"),
)
def list_reactors(request: Request) -> JSONResponse:
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
    **item_route(200, Reactor, summary="Get a reactor"),
)
def get_reactor(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_named(served)))


@router.put(
    ITEM,
    **item_route(
        200,
        Reactor,
        body=BODY,
        summary="Update a reactor",
    ),
)
def update_reactor(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    with serving(request, write=True, raw=raw) as served:
        stored = _named(served)
        row = _save(served, stored, served.payload(ReactorCreate))
        served.changed(
            REACTORS, row["id"], "update", "Reactor updated", subject=subjects.reactor(row)
        )
        return JSONResponse(rows.view(row))


def _merged(patch: dict[str, Any], current: dict[str, Any]) -> dict[str, Any]:
    """A merge-patch of `configuration` or `runtime`, key by key: a null removes the key,
    anything else replaces its value whole (a runtime's `dependencies` too)."""
    merged = dict(current)
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = value
    return merged


def _patched(served: Served, stored: sqlite3.Row) -> ReactorCreate:
    """The whole reactor a merge-patch asks for, validated as a PUT's body would be.

    It applies to the newest version asked for (one being provisioned, or one that failed),
    so that a patch of one field does not undo the rest of a change still under way."""
    served.payload(ReactorPatch)  # the patch's own fields, strictly typed
    body: dict[str, Any] = served.body
    latest = rows.provisioning_of(stored).latest
    errors: dict[str, list[str]] = {
        field: [f"The {field} cannot be removed."]
        for field in ("name", "code")
        if field in body and body[field] is None
    }
    if errors:
        raise invalid(errors)
    application = {"id": stored["live_application_id"]} if stored["live_application_id"] else None
    whole: dict[str, Any] = {
        "name": body.get("name", stored["name"]),
        "code": body.get("code", latest.code),
        "application": body.get("application", application),
        "configuration": latest.configuration,
        "runtime": latest.runtime,
    }
    if "configuration" in body:
        patch = body["configuration"]
        whole["configuration"] = {} if patch is None else _merged(patch, latest.configuration)
    if "runtime" in body:
        patch = body["runtime"]
        whole["runtime"] = None if patch is None else _merged(patch, latest.runtime or {})
    if whole["application"] is None:
        del whole["application"]
    if whole["runtime"] is None:
        del whole["runtime"]
    try:  # strictly, as a PUT's body is read (console.service.api.common.parse)
        payload = ReactorCreate.model_validate_json(json.dumps(whole), strict=True)
    except ValidationError as exc:
        raise invalid(field_errors(exc)) from None
    errors = payload.rule_errors()
    if errors:
        raise invalid(errors)
    return payload


_PATCH_ROUTE = item_route(
    204,
    body=PATCH_BODY,
    summary="Change some of a reactor (JSON merge patch)",
)
_PATCH_ROUTE["openapi_extra"]["requestBody"]["content"][MERGE_PATCH] = {
    "schema": {"$ref": f"#/components/schemas/{PATCH_BODY.name}"}
}


@router.patch(ITEM, **_PATCH_ROUTE)
def patch_reactor(request: Request, raw: bytes = Depends(raw_body)) -> Response:
    with serving(request, write=True, raw=raw) as served:
        stored = _named(served)
        row = _save(served, stored, _patched(served, stored))
        served.changed(
            REACTORS, stored["id"], "update", "Reactor updated", subject=subjects.reactor(row)
        )
        return Response(status_code=204)


@router.delete(
    ITEM,
    **item_route(204, summary="Delete a reactor"),
)
def delete_reactor(request: Request) -> Response:
    with serving(request, write=True) as served:
        stored = _named(served)
        rows.delete(served.conn, stored["id"])
        served.changed(
            REACTORS, stored["id"], "delete", "Reactor deleted", subject=subjects.reactor(stored)
        )
        return Response(status_code=204)
