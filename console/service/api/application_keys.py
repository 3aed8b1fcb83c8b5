"""`/applications/{id}/keys`: Application Keys, beyond the spec, as the hosted service has
them. An application holds several keys; a new one is made beside the others, and revoking
one stops it at once. Creating and revoking need application:update, reading
application:read (the applications' routes, console.kinds.builtin). A key of another
application or tenant is a 404.
"""

from __future__ import annotations

import sqlite3
import uuid

from fastapi import Request, Response
from fastapi.responses import JSONResponse

from console.kinds import APPLICATIONS
from console.models import ApplicationKey
from console.service import event_subjects as subjects
from console.service.api.common import found_or_404, not_found
from console.service.api.docs import PATH_ID, ServiceRouter, item_route
from console.service.api.query import AcceptedQuery
from console.service.api.serving import Served, serving
from console.service.store import application_keys as keys
from console.service.store import applications as apps

KEYS = APPLICATIONS.item_path("{id}") + "/keys"
KEY = KEYS + "/{keyId}"

router = ServiceRouter(tags=["Application Keys"])

LIST_QUERY = AcceptedQuery("id")
"""`?id=` narrows the list to those keys; the hosted SDKs' `type` is accepted and ignored
(every key of the local service is of one kind)."""

PATH_KEY_ID = {**PATH_ID, "name": "keyId"}


def _application(served: Served) -> sqlite3.Row:
    """The application the path names, in the caller's tenant (else 404)."""
    row = apps.get(served.conn, served.tenant_id, served.path_id, served.clock.text)
    return found_or_404(row, APPLICATIONS.nouns.singular)


def _key_id(request: Request) -> str:
    """The `{keyId}` in canonical form; one that is not a UUID is simply not found."""
    try:
        return str(uuid.UUID(request.path_params["keyId"]))
    except ValueError:
        raise not_found("key") from None


def _key(served: Served) -> tuple[sqlite3.Row, sqlite3.Row]:
    application = _application(served)
    row = keys.get(served.conn, application["id"], _key_id(served.request))
    return application, found_or_404(row, "key of this application")


def _key_changed(
    served: Served, application_id: str, key: sqlite3.Row, *, done: str, event: str
) -> None:
    """Records a key made or revoked as a change of its application (the entry names the
    key, `done` says what happened to it) and announces it as `event`: subscribers hear of
    the key's id and version, never its material."""
    served.changed(
        APPLICATIONS,
        application_id,
        "update",
        f"Application key {key['id']} {done}",
        event=event,
        subject=subjects.application_key(key),
    )


@router.post(
    KEYS,
    **item_route(
        201,
        ApplicationKey,
        summary="Create a key for an application (its material is shown only here)",
    ),
)
def create_key(request: Request) -> JSONResponse:
    """No body is read: the hosted service's SDKs send none (or an empty object)."""
    with serving(request, write=True) as served:
        application = _application(served)
        row, key = keys.add(
            served.conn, application["id"], by=served.caller.application_id, at=served.clock.text
        )
        _key_changed(
            served, application["id"], row, done="created", event="application.key.created"
        )
        return JSONResponse(keys.view(row, key=key), status_code=201)


@router.get(
    KEYS,
    **item_route(
        200,
        list[ApplicationKey],
        query=LIST_QUERY,
        summary="List an application's keys (never their material)",
    ),
)
def list_keys(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        application = _application(served)
        rows = keys.of_application(served.conn, application["id"], served.query.ids)
        return JSONResponse([keys.view(row) for row in rows])


@router.get(
    KEY,
    **item_route(
        200,
        ApplicationKey,
        more_params=(PATH_KEY_ID,),
        summary="Get one key of an application (never its material)",
    ),
)
def get_key(request: Request) -> JSONResponse:
    with serving(request) as served:
        _, row = _key(served)
        return JSONResponse(keys.view(row))


@router.delete(
    KEY,
    **item_route(
        204,
        more_params=(PATH_KEY_ID,),
        summary="Revoke a key: it stops working at once",
    ),
)
def revoke_key(request: Request) -> Response:
    with serving(request, write=True) as served:
        application, row = _key(served)
        keys.revoke(served.conn, application["id"], row["id"])
        _key_changed(
            served, application["id"], row, done="revoked", event="application.key.deleted"
        )
        return Response(status_code=204)
