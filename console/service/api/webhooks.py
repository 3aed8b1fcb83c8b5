"""`/webhooks`: where the service sends the tenant's events, as the hosted service has them
(the vendor SDKs' `webhooks` client): listed, created, read, replaced, deleted, and the event
types one may subscribe to (`/webhooks/event-types`).

A tenant has at most five webhooks (`MAX_WEBHOOKS`): the sixth create is refused with 409
(see `create_webhook`). Changing a webhook is logged (`Webhook created`, ..., `Webhook
disabled`) but emits no event: the hosted service has none for webhooks. The deliveries
themselves are the deliverer's (console.service.changes queues them).
"""

from __future__ import annotations

import re
import sqlite3

from fastapi import Depends, Request, Response
from fastapi.responses import JSONResponse

from console.kinds import WEBHOOKS
from console.models.webhooks import (
    EVENT_TYPES,
    MAX_WEBHOOKS,
    Webhook,
    WebhookCreate,
    WebhookList,
    WebhookUpdate,
)
from console.service.api.common import found_or_404, raw_body
from console.service.api.docs import (
    AUTH,
    RequestBody,
    Schema,
    ServiceRouter,
    item_route,
    route,
    tag_of,
)
from console.service.api.problems import Problem
from console.service.api.serving import Served, serving
from console.service.store import webhooks as rows

_UNSEEN = r"\u0000-\u0020\u007f\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Every character `str.isspace` calls a space, and the control characters: spelled out,
so that a JSON Schema validator (ECMA-262, whose `\\s` differs) and Python read them alike."""
_PATH = rf"[^{_UNSEEN}#]*"
_QUERY_BEFORE_PATH = rf"[^{_UNSEEN}#/@]*"
URL_PATTERN = rf"^https?://[^{_UNSEEN}/?#@]+" rf"(?:/{_PATH}|\?{_QUERY_BEFORE_PATH}(?:/{_PATH})?)?$"
"""The document's `pattern` of a webhook's URL: exactly what
console.models.webhooks.webhook_url_problem accepts (http or https, a host and port, no user
info before a `/`, no fragment, no space or control character; tests/service compares them,
by examples and generated ones), so that a client generating URLs from the document sends
only acceptable ones. (A port needs no group of its own: `:` and digits are host characters
to both.)"""
URL_RE = re.compile(URL_PATTERN)

LIMIT_REACHED = f"A tenant may have at most {MAX_WEBHOOKS} webhooks."


def _body_documented(properties: Schema) -> None:
    """The rules the models' validators apply that a schema can state: the URL's form, the
    event types known, each once."""
    properties["url"]["pattern"] = URL_PATTERN
    properties["events"]["items"] = {"type": "string", "enum": list(EVENT_TYPES)}
    properties["events"]["uniqueItems"] = True


CREATE = RequestBody(WebhookCreate, _body_documented)
UPDATE = RequestBody(WebhookUpdate, _body_documented)

ITEM = WEBHOOKS.item_path("{id}")
EVENT_TYPES_PATH = WEBHOOKS.path + "/event-types"

router = ServiceRouter(tags=[tag_of(WEBHOOKS)], bodies=(CREATE, UPDATE))


def _named(served: Served) -> sqlite3.Row:
    """The webhook the path names, in the caller's tenant (else 404)."""
    row = rows.get(served.conn, served.tenant_id, served.path_id)
    return found_or_404(row, WEBHOOKS.nouns.singular)


@router.get(
    WEBHOOKS.path,
    **route(200, WebhookList, summary="List the tenant's webhooks (all of them, oldest first)"),
)
def list_webhooks(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.listing(served.conn, served.tenant_id))


@router.get(
    EVENT_TYPES_PATH,
    **route(200, list[str], summary="The event types a webhook may subscribe to"),
)
def list_event_types(request: Request) -> JSONResponse:
    """A JSON array of strings, as the vendor SDKs' `webhooks.events.list` reads it."""
    with serving(request):
        return JSONResponse(list(EVENT_TYPES))


@router.api_route(
    EVENT_TYPES_PATH,
    methods=["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"],
    include_in_schema=False,
)
def event_types_other_methods(request: Request) -> None:
    """`/webhooks/event-types` only reads: without this, `PUT` would reach `/webhooks/{id}`
    (and be a 404 for an id that is no UUID) rather than the 405 it is."""
    raise Problem(
        405, f"The method {request.method} is not allowed on this path.", headers={"Allow": "GET"}
    )


_CREATE_ROUTE = route(
    201,
    Webhook,
    body=CREATE,
    errors=(*AUTH, 409),
    summary=f"Create a webhook, enabled (at most {MAX_WEBHOOKS} a tenant)",
)
_CREATE_ROUTE["responses"][409]["description"] = (
    f"The tenant has {MAX_WEBHOOKS} webhooks already: {LIMIT_REACHED}"
)


@router.post(WEBHOOKS.path, **_CREATE_ROUTE)
def create_webhook(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    """The sixth webhook is refused with **409 Conflict** ("A tenant may have at most 5
    webhooks."): the body is valid, the tenant's state forbids it, as a duplicate member or
    invitation is refused here. (The vendor SDKs' create also names a 422, unprocessable,
    which may be the hosted service's answer; a 409 reads the same to a person and, unlike
    400, does not say the body was wrong.) The body is checked first: an invalid body is a
    400 whatever the count."""
    with serving(request, write=True, raw=raw) as served:
        payload = served.payload(WebhookCreate)
        if rows.count(served.conn, served.tenant_id) >= MAX_WEBHOOKS:
            raise Problem(409, LIMIT_REACHED)
        row = rows.insert(
            served.conn,
            served.tenant_id,
            name=payload.name,
            url=payload.url,
            notify_email=payload.notify_email,
            events=payload.events,
            by=served.caller.application_id,
            at=served.clock.text,
        )
        served.changed(WEBHOOKS, row["id"], "create", "Webhook created")
        return JSONResponse(rows.view(row), status_code=201)


@router.get(
    ITEM,
    **item_route(200, Webhook, summary="Get a webhook"),
)
def get_webhook(request: Request) -> JSONResponse:
    with serving(request) as served:
        return JSONResponse(rows.view(_named(served)))


@router.put(
    ITEM,
    **item_route(
        200,
        Webhook,
        body=UPDATE,
        summary="Replace a webhook (status left out: it stays; enabled: its failures cleared)",
    ),
)
def update_webhook(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    """The whole webhook again. `status` left out keeps it (the vendor SDKs send none);
    `enabled` also clears why the service disabled it and its failures in a row."""
    with serving(request, write=True, raw=raw) as served:
        stored = _named(served)
        payload = served.payload(WebhookUpdate)
        status = payload.status or stored["status"]
        row = rows.update(
            served.conn,
            served.tenant_id,
            stored["id"],
            name=payload.name,
            url=payload.url,
            notify_email=payload.notify_email,
            events=payload.events,
            status=status,
            by=served.caller.application_id,
            at=served.clock.text,
            enable=payload.status == rows.ENABLED,
        )
        message = "Webhook updated"
        if status != stored["status"]:
            message = "Webhook enabled" if status == rows.ENABLED else "Webhook disabled"
        served.changed(WEBHOOKS, stored["id"], "update", message)
        return JSONResponse(rows.view(row))


@router.delete(
    ITEM,
    **item_route(204, summary="Delete a webhook"),
)
def delete_webhook(request: Request) -> Response:
    with serving(request, write=True) as served:
        webhook_id = _named(served)["id"]
        rows.delete(served.conn, served.tenant_id, webhook_id)
        served.changed(WEBHOOKS, webhook_id, "delete", "Webhook deleted")
        return Response(status_code=204)
