"""Webhooks: where the service sends a tenant's events, and the events it sends.

The hosted service has them (`/webhooks`, `/webhooks/event-types`; the vendor's SDKs name
them `Webhook`, `WebhookList`, `CreateWebhookRequest`, `UpdateWebhookRequest`); the spec
has none. Read leniently (a status or event type this project does not know is kept); what a
person types (a name, a URL, an email, the event types) is checked strictly.

An event as delivered (the vendor's "Webhook Event Data") is
`{"event": {id, type, timestamp, tenant_id, trace_id, data: {<object>: {...}, actor}},
"delivered_at": ...}`, signed as console.webhooks.signing says.
"""

from __future__ import annotations

import re
from typing import Any, Literal
from uuid import UUID

from pydantic import Field, field_validator

from console.models.common import (
    LenientModel,
    Name,
    Pagination,
    RequestModel,
    ResponseModel,
    UtcDateTime,
)
from console.models.people import Email

MAX_WEBHOOKS = 5
"""Webhooks a tenant may have at once (the hosted service's limit)."""

WebhookStatus = Literal["enabled", "disabled"]
STATUSES: tuple[str, ...] = ("enabled", "disabled")

URL_MAX = 2048

EVENT_OBJECTS: dict[str, str] = {
    "3ds.session.authenticated": "session",
    "3ds.session.challenge-result-retrieved": "session",
    "3ds.session.created": "session",
    "3ds.session.method-completed": "session",
    "3ds.session.challenge-completed": "session",
    "3ds.session.decoupled-challenge-notification": "session",
    "account-updater.job.completed": "job",
    "account-updater.job.created": "job",
    "account-updater.job.failed": "job",
    "application.created": "application",
    "application.updated": "application",
    "application.deleted": "application",
    "application.key.created": "application_key",
    "application.key.deleted": "application_key",
    "http.request": "request",
    "proxy.created": "proxy",
    "proxy.updated": "proxy",
    "proxy.deleted": "proxy",
    "proxy.invoked": "proxy",
    "reactor.created": "reactor",
    "reactor.updated": "reactor",
    "reactor.deleted": "reactor",
    "reactor.invoked": "reactor",
    "reactor.completed": "reactor",
    "reactor.failed": "reactor",
    "session.authorized": "session",
    "session.created": "session",
    "tenant.created": "tenant",
    "tenant.updated": "tenant",
    "tenant.deleted": "tenant",
    "tenant.invitation.accepted": "invitation",
    "tenant.invitation.created": "invitation",
    "tenant.invitation.deleted": "invitation",
    "tenant.invitation.resent": "invitation",
    "tenant.member.created": "member",
    "tenant.member.deleted": "member",
    "token.created": "token",
    "token.updated": "token",
    "token.deleted": "token",
    "token.expired": "token",
    "token.read": "token",
    "token.property.expired": "token",
    "token-intent.created": "token_intent",
    "token-intent.deleted": "token_intent",
    "token-intent.converted": "token_intent",
    "google-pay.created": "google_pay",
    "google-pay.deleted": "google_pay",
    "google-pay.retrieved": "google_pay",
}
"""Every event type the hosted service documents, and the name of the object its `data`
holds beside `actor` (`application.created` -> `data.application`). The local service
answers `GET /webhooks/event-types` with these keys, emits those of the changes it makes,
and `trigger` sends a sample of any of them."""

EVENT_TYPES: tuple[str, ...] = tuple(EVENT_OBJECTS)

EVENT_TYPE_MAX = 100
_EVENT_TYPE = re.compile(r"[a-z0-9][a-z0-9.-]*[a-z0-9]")

SIGNATURE_HEADER = "BT-SIGNATURE"
SIGNATURE_VERSION_HEADER = "BT-SIGNATURE-VERSION"
SIGNATURE_VERSION = "v1"

_URL = re.compile(r"https?://[^\s/?#@]+(?::\d{1,5})?(?:[/?][^\s#]*)?")


def webhook_url_problem(value: str) -> str | None:
    """Why `value` cannot be a webhook's URL (one sentence), or None. `http://` is taken: a
    local receiver (`tenant-console webhooks listen`) listens on plain HTTP on loopback."""
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value):
        return "The URL must not contain spaces or control characters."
    if not value.startswith(("https://", "http://")):
        return "The URL must be an absolute URL starting with https:// (or http://)."
    if "#" in value:
        return "The URL must not have a fragment (#...)."
    if "@" in value.split("/", 3)[2]:
        return "The URL must not contain user info (name or password before @)."
    if not _URL.fullmatch(value):
        return "The URL must name a host, such as https://example.com/webhooks."
    return None


def event_type_problem(value: str) -> str | None:
    """Why `value` is not an event type a webhook may subscribe to, or None."""
    if value in EVENT_OBJECTS:
        return None
    if not _EVENT_TYPE.fullmatch(value) or len(value) > EVENT_TYPE_MAX:
        return f"{value!r} is not an event type."
    return f"{value!r} is not an event type the service sends (see `webhooks event-types`)."


def _refused_if(problem: str | None, value: str) -> str:
    """`value`, or the validation error `problem` says (the `*_problem` checks above)."""
    if problem:
        raise ValueError(problem)
    return value


class Webhook(ResponseModel):
    """A webhook as read (the SDK's `Webhook`). `disabled_reason` is the local service's own:
    why it disabled the webhook (the hosted service says nothing but `status`)."""

    id: str
    tenant_id: str | None = None
    status: str | None = None
    name: str | None = None
    url: str | None = None
    notify_email: str | None = None
    events: list[str] = Field(default_factory=list)
    disabled_reason: str | None = None
    created_by: str | None = None
    created_at: UtcDateTime | None = None
    modified_by: str | None = None
    modified_at: UtcDateTime | None = None

    @property
    def enabled(self) -> bool:
        return self.status == "enabled"


class WebhookList(LenientModel):
    """`GET /webhooks`: `{pagination: {page_size, next}, data: [...]}` (the SDK's
    `WebhookList`): the service answers every webhook of the tenant (at most five)."""

    pagination: Pagination = Field(default_factory=Pagination)
    data: list[Webhook] = Field(default_factory=list)


class WebhookCreate(RequestModel):
    """`POST /webhooks` (the SDK's `CreateWebhookRequest`)."""

    name: Name
    url: str = Field(min_length=1, max_length=URL_MAX)
    notify_email: Email | None = None
    events: list[str] = Field(min_length=1)

    @field_validator("url")
    @classmethod
    def _a_url(cls, value: str) -> str:
        return _refused_if(webhook_url_problem(value), value)

    @field_validator("events")
    @classmethod
    def _known_events(cls, value: list[str]) -> list[str]:
        for event in value:
            _refused_if(event_type_problem(event), event)
        if len(set(value)) != len(value):
            raise ValueError("Each event type may be given once.")
        return value


class WebhookUpdate(WebhookCreate):
    """`PUT /webhooks/{id}`: the whole webhook again; `status` enables or disables it (left
    out, it stays as it is)."""

    status: WebhookStatus | None = None


class WebhookTrigger(RequestModel):
    """`POST /webhooks/trigger` (the local service's own; `tenant-console webhooks trigger`):
    send a sample event of `type` to every enabled webhook subscribed to it, or only to
    `webhook_id` (one of the caller's tenant's, whatever it subscribes to)."""

    type: str = Field(min_length=1, max_length=EVENT_TYPE_MAX)
    webhook_id: UUID | None = None

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str) -> str:
        return _refused_if(event_type_problem(value), value)


class TriggerResult(LenientModel):
    """What `POST /webhooks/trigger` answers (202): the sample event's id (None when no
    webhook was to receive it) and how many deliveries were queued, with a sentence when
    none was."""

    event_id: str | None = None
    deliveries: int = 0
    detail: str | None = None


class EventActor(LenientModel):
    id: str | None = None
    type: str | None = None
    name: str | None = None


class Event(LenientModel):
    """One event (`event` of a delivery)."""

    id: str
    type: str
    timestamp: UtcDateTime | None = None
    tenant_id: str | None = None
    trace_id: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)

    @property
    def object_name(self) -> str | None:
        """The name of the object the event is about (`application`), if its data has one."""
        known = EVENT_OBJECTS.get(self.type)
        if known and known in self.data:
            return known
        return next((k for k in self.data if k != "actor"), None)

    @property
    def subject(self) -> dict[str, Any]:
        """The object the event is about, as sent ({} if none)."""
        name = self.object_name
        value = self.data.get(name) if name else None
        return value if isinstance(value, dict) else {}

    @property
    def actor(self) -> EventActor:
        return EventActor.model_validate(self.data.get("actor") or {})


class Delivery(LenientModel):
    """What a webhook receives: the event and when this attempt was sent."""

    event: Event
    delivered_at: UtcDateTime | None = None


__all__ = [
    "EVENT_OBJECTS",
    "EVENT_TYPES",
    "MAX_WEBHOOKS",
    "SIGNATURE_HEADER",
    "SIGNATURE_VERSION",
    "SIGNATURE_VERSION_HEADER",
    "STATUSES",
    "Delivery",
    "Event",
    "EventActor",
    "TriggerResult",
    "Webhook",
    "WebhookCreate",
    "WebhookList",
    "WebhookTrigger",
    "WebhookUpdate",
    "event_type_problem",
    "webhook_url_problem",
]
