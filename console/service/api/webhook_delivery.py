"""What the local service adds to webhooks beyond their routes: the deliverer that sends
their events (run in this router's lifespan), the public key their signatures verify with
(`GET /keys/webhooks.v1.key`), and `POST /webhooks/trigger`, which sends a sample event.

The key's route is not part of the tenant administration API: the hosted service publishes
its key on a CDN, with no API key, and so does this route. It is left out of the OpenAPI
document and of the kinds' contract table (it needs no permission), as the CDN is.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from console.kinds import WEBHOOKS
from console.models.webhooks import TriggerResult, WebhookTrigger
from console.service.api.common import raw_body
from console.service.api.docs import AUTH, RequestBody, ServiceRouter, route, tag_of
from console.service.api.problems import Problem
from console.service.api.serving import serving
from console.service.delivery.signing_key import SigningKey, SigningKeyError
from console.webhooks.signing import LOCAL_KEY_PATH

log = logging.getLogger("console.service")

TRIGGER_PATH = WEBHOOKS.path + "/trigger"


def _trigger_documented(properties: dict) -> None:
    from console.models.webhooks import EVENT_TYPES

    properties["type"] = {**properties["type"], "enum": list(EVENT_TYPES)}


TRIGGER = RequestBody(WebhookTrigger, _trigger_documented)


@contextlib.asynccontextmanager
async def _delivering(app: FastAPI) -> AsyncIterator[None]:
    """The deliverer, for as long as the app serves; `app.state.wake_deliverer` wakes it
    after a write that queued deliveries commits (console.service.api.serving)."""
    from console.service.delivery.deliverer import Deliverer

    state = app.state
    deliverer = Deliverer(state.store, state.webhook_key, state.webhook_settings)
    deliverer.start()
    state.wake_deliverer = deliverer.wake
    try:
        yield
    finally:
        state.wake_deliverer = None
        deliverer.stop()


router = ServiceRouter(tags=[tag_of(WEBHOOKS)], lifespan=_delivering, bodies=(TRIGGER,))


def signing_key_of(request: Request) -> SigningKey:
    key = getattr(request.app.state, "webhook_key", None)
    if key is None:  # an app made without create_app's state: one for its data dir
        key = request.app.state.webhook_key = SigningKey(request.app.state.store.data_dir)
    return key


@router.get(LOCAL_KEY_PATH, include_in_schema=False)
def webhook_public_key(request: Request) -> PlainTextResponse:
    """The public key deliveries' `BT-SIGNATURE` verifies with (PEM); no API key needed."""
    try:
        pem = signing_key_of(request).public_pem()
    except SigningKeyError as exc:
        log.error("The webhook signing key cannot be used: %s", exc)
        raise Problem(
            500, "The service's webhook signing key cannot be used; see its log."
        ) from None
    return PlainTextResponse(pem, media_type="text/plain")


@router.api_route(
    LOCAL_KEY_PATH, methods=["POST", "PUT", "PATCH", "DELETE"], include_in_schema=False
)
def webhook_public_key_other_methods(request: Request) -> None:
    raise Problem(
        405, f"The method {request.method} is not allowed on this path.", headers={"Allow": "GET"}
    )


@router.post(
    TRIGGER_PATH,
    **route(
        202,
        TriggerResult,
        body=TRIGGER,
        errors=(*AUTH, 404, 409),
        summary="Send a sample event to the tenant's webhooks (the local service's own)",
    ),
)
def trigger_webhook_event(request: Request, raw: bytes = Depends(raw_body)) -> JSONResponse:
    """A sample event of the type asked for (console.service.delivery.samples), queued for
    every enabled webhook subscribed to it, or for the one named; no audit log entry (it
    changes nothing)."""
    from console.service.changes import ACTOR_APPLICATION, Actor, Change, queue_event
    from console.service.delivery.samples import sample_object

    with serving(request, write=True, raw=raw) as served:
        payload = served.payload(WebhookTrigger)
        target = None if payload.webhook_id is None else str(payload.webhook_id)
        if target is not None:
            row = served.conn.execute(
                "SELECT status FROM webhooks WHERE id = ? AND tenant_id = ?",
                (target, served.tenant_id),
            ).fetchone()
            if row is None:
                raise Problem(404, "No webhook with that id exists.")
            if row["status"] != "enabled":
                raise Problem(409, "The webhook is disabled: enable it to send it events.")
        subject = sample_object(payload.type, served.clock.text, served.tenant_id)
        change = Change(
            served.tenant_id,
            WEBHOOKS.log_entity or WEBHOOKS.key,
            subject.get("id") or "",
            "create",
            f"Sample {payload.type} event",
            Actor(served.caller.application_id, ACTOR_APPLICATION),
            served.clock.text,
            event=payload.type,
            subject=subject,
        )
        event_id = queue_event(served.conn, change, payload.type, webhook_id=target)
        if event_id is None:
            result = TriggerResult(
                deliveries=0,
                detail=f"No enabled webhook subscribes to {payload.type}: nothing was sent.",
            )
        else:
            count = served.conn.execute(
                "SELECT COUNT(*) FROM webhook_deliveries WHERE event_id = ?", (event_id,)
            ).fetchone()[0]
            served.events = True
            result = TriggerResult(event_id=event_id, deliveries=count)
    return JSONResponse(result.model_dump(mode="json"), status_code=202)


@router.api_route(
    TRIGGER_PATH,
    methods=["GET", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"],
    include_in_schema=False,
)
def trigger_other_methods(request: Request) -> None:
    """`/webhooks/trigger` only sends: without this, `PUT` would reach `/webhooks/{id}` (a
    404 for an id that is no UUID) rather than the 405 it is."""
    raise Problem(
        405, f"The method {request.method} is not allowed on this path.", headers={"Allow": "POST"}
    )
