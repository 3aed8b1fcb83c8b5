"""Webhooks through the vendor's Python SDK (`basistheoryclient`, `client.webhooks`): every
route, read into the SDK's own models, and the errors as the SDK raises them.

The SDK's models allow extra fields; the only one the local service may add is its own
`disabled_reason` (why it disabled a webhook), so every answer is checked for any other.
A ParsingError (an answer the SDK cannot read) is a difference of the local service's.

The SDK's `update` has no `status` (the docs' PUT has one): it is sent through the SDK's
`request_options["additional_body_parameters"]`, which merges into the JSON body.
"""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import httpx
import pytest
from basis_theory.core.api_error import ApiError
from basis_theory.errors import (
    BadRequestError,
    ForbiddenError,
    NotFoundError,
    UnauthorizedError,
)
from basis_theory.types import ProblemDetails, ValidationProblemDetails, Webhook, WebhookList
from local_service import RunningService, TenantInfo
from sdk_clients import SDK_HEADER, python_client, wait_for

from console.models.webhooks import EVENT_TYPES, MAX_WEBHOOKS

LOCAL_EXTRAS = {"disabled_reason"}
"""Fields of a webhook the hosted service does not send and the local service does."""

NOWHERE = "https://127.0.0.1:9/never"
"""A URL nothing is delivered to: these webhooks subscribe to events no test here causes."""

UNREACHABLE = "http://127.0.0.1:9/refused"
"""Nothing listens there (the discard port): each delivery is refused at once."""

QUIET_EVENTS = ["token.created", "google-pay.created"]
"""Event types the local service never emits by itself (it keeps no tokens)."""


def _status(value: str) -> dict[str, Any]:
    """The SDK's way to send what its `update` does not take: a field merged into the body."""
    return {"additional_body_parameters": {"status": value}}


def _no_surprises(webhook: Webhook) -> None:
    """Every field the SDK's model names, and no unknown one but the local service's own."""
    extra = set(webhook.model_extra or {})
    assert extra <= LOCAL_EXTRAS, f"fields the SDK does not know: {extra - LOCAL_EXTRAS}"


def _create(bt: Any, name: str = "Hook", **fields: Any) -> Webhook:
    fields.setdefault("url", NOWHERE)
    fields.setdefault("events", QUIET_EVENTS)
    created: Webhook = bt.webhooks.create(name=name, **fields)
    return created


def test_create_get_list_update_delete(bt: Any, tenant: TenantInfo) -> None:
    before = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=5)
    raw = bt.webhooks.with_raw_response.create(
        name="Orders", url=NOWHERE, events=QUIET_EVENTS, notify_email="ops@example.com"
    )
    assert raw.status_code == 201
    created = raw.data
    assert isinstance(created, Webhook)
    _no_surprises(created)
    assert uuid.UUID(created.id) and created.tenant_id == tenant.tenant_id
    assert (created.status, created.name, created.url) == ("enabled", "Orders", NOWHERE)
    assert created.notify_email == "ops@example.com" and created.events == QUIET_EVENTS
    assert created.created_by == tenant.application_id
    assert created.created_at.tzinfo is not None and created.created_at >= before
    assert created.model_extra == {} or created.model_extra == {"disabled_reason": None}

    got = bt.webhooks.get(created.id)
    assert isinstance(got, Webhook) and got == created

    listing = bt.webhooks.list()
    assert isinstance(listing, WebhookList)
    assert [w.id for w in listing.data] == [created.id] and listing.data[0] == created
    for webhook in listing.data:
        _no_surprises(webhook)
    assert listing.pagination.page_size is not None and listing.pagination.page_size >= 1
    assert listing.pagination.next is None
    assert set(listing.pagination.model_extra or {}) == set(), listing.pagination

    updated = bt.webhooks.update(
        created.id,
        name="Orders v2",
        url="https://example.com/hooks?v=2",
        events=["token.created"],
        notify_email="dev@example.com",
    )
    assert isinstance(updated, Webhook)
    _no_surprises(updated)
    assert (updated.name, updated.url) == ("Orders v2", "https://example.com/hooks?v=2")
    assert updated.events == ["token.created"] and updated.notify_email == "dev@example.com"
    assert updated.status == "enabled"
    assert updated.created_at == created.created_at and updated.created_by == created.created_by
    assert updated.modified_by == tenant.application_id and updated.modified_at is not None
    assert bt.webhooks.get(created.id) == updated

    assert bt.webhooks.delete(created.id) is None
    assert bt.webhooks.list().data == []
    with pytest.raises(NotFoundError) as raised:
        bt.webhooks.get(created.id)
    assert raised.value.status_code == 404
    with pytest.raises(NotFoundError):
        bt.webhooks.delete(created.id)


def test_status_is_sent_through_the_sdks_additional_body_parameters(bt: Any) -> None:
    """Disable and enable: the docs' PUT takes `status`, the SDK's `update` does not name it;
    left out (as the SDK's `update` always leaves it), the status stays as it is."""
    hook = _create(bt)
    fields = {"name": hook.name, "url": hook.url, "events": hook.events}
    disabled = bt.webhooks.update(hook.id, **fields, request_options=_status("disabled"))
    _no_surprises(disabled)
    assert disabled.status == "disabled"
    kept = bt.webhooks.update(hook.id, **{**fields, "name": "Renamed"})
    assert (kept.status, kept.name) == ("disabled", "Renamed")
    assert bt.webhooks.get(hook.id).status == "disabled"
    assert bt.webhooks.list().data[0].status == "disabled"
    enabled = bt.webhooks.update(hook.id, **fields, request_options=_status("enabled"))
    assert enabled.status == "enabled"
    _no_surprises(enabled)
    with pytest.raises(BadRequestError) as raised:
        bt.webhooks.update(hook.id, **fields, request_options=_status("paused"))
    body = raised.value.body
    assert isinstance(body, ValidationProblemDetails) and body.status == 400
    assert body.errors and any("status" in field for field in body.errors), body


def test_a_webhook_the_service_disabled_says_why_and_is_enabled_again(
    bt: Any, sdk_service: RunningService, tenant: TenantInfo
) -> None:
    """The SDK's `Webhook` keeps the local service's `disabled_reason` as an extra field; set
    when the deliverer disabled the webhook, cleared when it is enabled again."""
    hook = _create(bt, "Unreachable", url=UNREACHABLE)
    assert (hook.model_extra or {}).get("disabled_reason") is None
    answer = httpx.post(  # the local service's own route: the SDK has no trigger
        f"{sdk_service.base_url}/webhooks/trigger",
        json={"type": "token.created", "webhook_id": hook.id},
        headers={SDK_HEADER: tenant.key},
        timeout=30.0,
    )
    assert answer.status_code == 202, answer.text
    disabled = wait_for(
        lambda: bt.webhooks.get(hook.id), lambda w: w.status == "disabled", "the webhook"
    )
    _no_surprises(disabled)
    reason = (disabled.model_extra or {}).get("disabled_reason")
    assert isinstance(reason, str) and "connection refused" in reason, reason
    assert bt.webhooks.list().data == [disabled]

    fields = {"name": hook.name, "url": hook.url, "events": hook.events}
    kept = bt.webhooks.update(hook.id, **fields)  # as the SDK's update is: no status
    assert kept.status == "disabled" and (kept.model_extra or {})["disabled_reason"] == reason
    enabled = bt.webhooks.update(hook.id, **fields, request_options=_status("enabled"))
    assert enabled.status == "enabled"
    assert (enabled.model_extra or {}).get("disabled_reason") is None


def test_event_types_are_every_documented_type(bt: Any) -> None:
    raw = bt.webhooks.events.with_raw_response.list()
    assert raw.status_code == 200
    types = raw.data
    assert isinstance(types, list) and all(isinstance(t, str) for t in types)
    assert sorted(types) == sorted(EVENT_TYPES) and len(types) == len(set(types))
    assert {"application.created", "reactor.created", "proxy.invoked"} <= set(types)


def test_the_sixth_webhook_is_refused(bt: Any) -> None:
    """The local service answers 409 (the docs' "conflict with the current state"). The SDK's
    `create` declares 400, 401, 403 and 422 only, so a 409 reaches its user as a bare
    ApiError whose body is the problem details as a dict, not a model."""
    made = [_create(bt, f"Hook {n}") for n in range(MAX_WEBHOOKS)]
    with pytest.raises(ApiError) as raised:
        _create(bt, "One too many")
    error = raised.value
    assert type(error) is ApiError and error.status_code == 409
    body = error.body
    assert isinstance(body, dict) and body["status"] == 409 and body["title"] == "Conflict"
    assert f"at most {MAX_WEBHOOKS} webhooks" in body["detail"]
    assert len(bt.webhooks.list().data) == MAX_WEBHOOKS
    bt.webhooks.delete(made[0].id)
    assert _create(bt, "In its place").status == "enabled"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"url": "ftp://example.com/hooks"}, "url"),
        ({"url": "not a url"}, "url"),
        ({"url": "https://user:pass@example.com/"}, "url"),
        ({"events": ["token:created"]}, "events"),  # the SDK's own docstring example
        ({"events": ["no.such.event"]}, "events"),
        ({"events": []}, "events"),
        ({"events": ["token.created", "token.created"]}, "events"),
        ({"notify_email": "not an email"}, "notify_email"),
        ({"name": ""}, "name"),
    ],
)
def test_invalid_bodies_are_bad_requests_naming_the_field(
    bt: Any, fields: dict[str, Any], field: str
) -> None:
    body = {"name": "Bad", "url": NOWHERE, "events": QUIET_EVENTS, **fields}
    with pytest.raises(BadRequestError) as raised:
        bt.webhooks.create(**body)
    problem = raised.value.body
    assert isinstance(problem, ValidationProblemDetails) and problem.status == 400
    assert problem.errors and any(field in path for path in problem.errors), problem

    hook = _create(bt, "Good")
    with pytest.raises(BadRequestError) as raised:
        bt.webhooks.update(hook.id, **body)
    problem = raised.value.body
    assert isinstance(problem, ValidationProblemDetails) and problem.status == 400
    assert problem.errors and any(field in path for path in problem.errors), problem
    assert bt.webhooks.get(hook.id) == hook  # refused whole


def test_unknown_ids_are_not_found(bt: Any) -> None:
    unknown = str(uuid.uuid4())
    for call in (
        lambda: bt.webhooks.get(unknown),
        lambda: bt.webhooks.update(unknown, name="x", url=NOWHERE, events=QUIET_EVENTS),
        lambda: bt.webhooks.delete(unknown),
    ):
        with pytest.raises(NotFoundError) as raised:
            call()
        assert raised.value.status_code == 404


def test_another_tenants_webhook_is_not_found(
    bt: Any, sdk_service: RunningService, request: pytest.FixtureRequest
) -> None:
    other = python_client(
        sdk_service.base_url, sdk_service.new_tenant(f"Other {request.node.name}").key
    )
    theirs = _create(other, "Theirs")
    with pytest.raises(NotFoundError):
        bt.webhooks.get(theirs.id)
    with pytest.raises(NotFoundError):
        bt.webhooks.delete(theirs.id)
    assert bt.webhooks.list().data == []
    assert other.webhooks.get(theirs.id) == theirs


def test_permissions_are_the_webhook_ones(
    bt: Any, sdk_service: RunningService, tenant: TenantInfo
) -> None:
    hook = _create(bt)
    fields = {"name": "x", "url": NOWHERE, "events": QUIET_EVENTS}

    def client(*permissions: str) -> Any:
        key = sdk_service.new_key(list(permissions), tenant_key=tenant.key)
        return python_client(sdk_service.base_url, key)

    none = client("reactor:read")
    for call in (
        lambda: none.webhooks.list(),
        lambda: none.webhooks.get(hook.id),
        lambda: none.webhooks.events.list(),
        lambda: none.webhooks.create(**fields),
        lambda: none.webhooks.update(hook.id, **fields),
        lambda: none.webhooks.delete(hook.id),
    ):
        with pytest.raises(ForbiddenError) as raised:
            call()
        assert isinstance(raised.value.body, ProblemDetails) and raised.value.body.status == 403

    reader = client("webhook:read")
    assert reader.webhooks.get(hook.id) == hook
    assert [w.id for w in reader.webhooks.list().data] == [hook.id]
    assert sorted(reader.webhooks.events.list()) == sorted(EVENT_TYPES)
    for call in (
        lambda: reader.webhooks.create(**fields),
        lambda: reader.webhooks.update(hook.id, **fields),
        lambda: reader.webhooks.delete(hook.id),
    ):
        with pytest.raises(ForbiddenError):
            call()

    writer = client("webhook:create", "webhook:update", "webhook:delete")
    made = writer.webhooks.create(**fields)
    assert made.created_by != tenant.application_id
    assert writer.webhooks.update(made.id, **{**fields, "name": "y"}).name == "y"
    assert writer.webhooks.delete(made.id) is None
    with pytest.raises(ForbiddenError):
        writer.webhooks.get(hook.id)

    with pytest.raises(UnauthorizedError) as unknown_key:
        python_client(sdk_service.base_url, "not-a-key").webhooks.list()
    assert unknown_key.value.status_code == 401
    assert bt.webhooks.get(hook.id) == hook
