"""Sample objects for `POST /webhooks/trigger`: one plausible object for every event type.

Fields follow the vendor's event data page (eventdata.mdx) for each type; ids are random,
times are the trigger's, and every sample says `"sample": true`, so a receiver (or a
person reading `webhooks listen`) never mistakes it for a real change. Nothing here is
read from the tenant's data: a sample names no real object and holds no secret.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

Sample = dict[str, Any]


def _id() -> str:
    return str(uuid.uuid4())


def _session(event: str, at: str, tenant_id: str) -> Sample:
    sample: Sample = {"id": _id(), "type": "customer", "tenant_id": tenant_id}
    if event.endswith((".created", ".authenticated", ".challenge-result-retrieved")):
        sample |= {
            "created_at": at,
            "created_by": _id(),
            "device": "browser",
            "expires_at": at,
            "token_id": _id(),
            "card_brand": "Visa",
        }
    if event.endswith((".authenticated", ".challenge-completed")):
        sample["authentication_status"] = "successful"
    return sample


def _job(event: str, at: str, tenant_id: str) -> Sample:
    status = {"created": "pending", "completed": "completed", "failed": "failed"}
    return {"id": _id(), "status": status.get(event.rsplit(".", 1)[1], "pending")}


def _application(event: str, at: str, tenant_id: str) -> Sample:
    if event.endswith(".deleted"):
        return {"id": _id()}
    sample: Sample = {
        "id": _id(),
        "type": "private",
        "name": "Sample application",
        "permissions": ["token:read"],
        "rules": [],
        "created_at": at,
        "created_by": _id(),
    }
    if event.endswith(".updated"):
        sample |= {"modified_at": at, "modified_by": _id()}
    return sample


def _application_key(event: str, at: str, tenant_id: str) -> Sample:
    sample: Sample = {"id": _id(), "application_id": _id()}
    if event.endswith(".created"):
        sample |= {"version": "1", "created_at": at, "created_by": _id()}
    return sample


def _request(event: str, at: str, tenant_id: str) -> Sample:
    return {"method": "POST", "path": "/tokens", "headers": {"Content-Type": ["application/json"]}}


def _proxy(event: str, at: str, tenant_id: str) -> Sample:
    if event.endswith(".deleted"):
        return {"id": _id()}
    sample: Sample = {
        "id": _id(),
        "tenant_id": tenant_id,
        "name": "Sample proxy",
        "destination_url": "https://example.com/api",
        "require_auth": True,
        "created_at": at,
        "created_by": _id(),
    }
    if event.endswith(".updated"):
        sample |= {"modified_at": at, "modified_by": _id()}
    if event.endswith(".invoked"):
        sample = {"id": sample["id"], "name": sample["name"], "request_id": _id()}
    return sample


def _reactor(event: str, at: str, tenant_id: str) -> Sample:
    if event.endswith(".deleted"):
        return {"id": _id()}
    sample: Sample = {
        "id": _id(),
        "tenant_id": tenant_id,
        "name": "Sample reactor",
        "created_at": at,
        "created_by": _id(),
    }
    if event.endswith(".updated"):
        sample |= {"modified_at": at, "modified_by": _id()}
    if event.endswith((".invoked", ".completed", ".failed")):
        sample = {"id": sample["id"], "name": sample["name"], "request_id": _id()}
        if event.endswith(".failed"):
            sample["error"] = "The sample reactor failed."
    return sample


def _tenant(event: str, at: str, tenant_id: str) -> Sample:
    if event.endswith(".deleted"):
        return {"id": tenant_id}
    return {"id": tenant_id, "name": "Sample tenant", "created_at": at, "modified_at": at}


def _invitation(event: str, at: str, tenant_id: str) -> Sample:
    status = "ACCEPTED" if event.endswith(".accepted") else "PENDING"
    return {
        "id": _id(),
        "tenant_id": tenant_id,
        "email": "invitee@example.com",
        "role": "ADMIN",
        "status": status,
        "expires_at": at,
        "created_at": at,
        "created_by": _id(),
    }


def _member(event: str, at: str, tenant_id: str) -> Sample:
    return {
        "id": _id(),
        "tenant_id": tenant_id,
        "user": {"id": _id(), "email": "member@example.com"},
        "role": "ADMIN",
        "created_at": at,
    }


def _token(event: str, at: str, tenant_id: str) -> Sample:
    sample: Sample = {
        "id": _id(),
        "type": "card",
        "tenant_id": tenant_id,
        "fingerprint": uuid.uuid4().hex,
        "mask": {"number": "XXXXXXXXXXXX4242"},
        "created_at": at,
        "created_by": _id(),
    }
    if event.endswith((".updated", ".property.expired")):
        sample |= {"modified_at": at, "modified_by": _id()}
    if event.endswith(".expired"):
        sample["expires_at"] = at
    return sample


def _token_intent(event: str, at: str, tenant_id: str) -> Sample:
    sample: Sample = {"id": _id(), "type": "card", "tenant_id": tenant_id, "created_at": at}
    if event.endswith(".converted"):
        sample["token_id"] = _id()
    return sample


def _google_pay(event: str, at: str, tenant_id: str) -> Sample:
    return {"id": _id(), "tenant_id": tenant_id, "status": "active", "created_at": at}


BUILDERS: dict[str, Callable[[str, str, str], Sample]] = {
    "session": _session,
    "job": _job,
    "application": _application,
    "application_key": _application_key,
    "request": _request,
    "proxy": _proxy,
    "reactor": _reactor,
    "tenant": _tenant,
    "invitation": _invitation,
    "member": _member,
    "token": _token,
    "token_intent": _token_intent,
    "google_pay": _google_pay,
}
"""An event's object name (console.models.webhooks.EVENT_OBJECTS) -> its sample's maker."""


def sample_object(event_type: str, at: str, tenant_id: str) -> Sample:
    """A sample of the object `event_type` carries, marked `"sample": true`; `at` is the
    trigger's time (as stored), `tenant_id` the caller's tenant."""
    from console.models.webhooks import EVENT_OBJECTS

    build = BUILDERS.get(EVENT_OBJECTS.get(event_type, ""))
    sample = build(event_type, at, tenant_id) if build else {"id": _id()}
    return {**sample, "sample": True}
