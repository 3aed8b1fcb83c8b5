"""Webhooks through the vendor's Node SDK (`@basis-theory/node-sdk`, `client.webhooks`):
every route, read by the SDK (camelCase fields), and the errors as the SDK throws them.

The Node SDK's `UpdateWebhookRequest` has no `status` and strips keys it does not know, so
a Node program cannot enable or disable a webhook: its every update leaves `status` out,
and the local service must keep the status then (a PUT without it does not re-enable).

Each test is one Node process running a batch of calls (tests/sdk/node/calls.mjs): a later
call names an earlier one's answer with {"$from": [index, ...]}.
"""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from local_service import RunningService, TenantInfo
from sdk_clients import SDK_HEADER, node_calls, value_of

from console.models.webhooks import EVENT_TYPES, MAX_WEBHOOKS

NOWHERE = "https://127.0.0.1:9/never"
UNREACHABLE = "http://127.0.0.1:9/refused"
"""Nothing listens there (the discard port): each delivery is refused at once."""
QUIET_EVENTS = ["token.created", "google-pay.created"]
"""Event types the local service never emits by itself: nothing is delivered to NOWHERE."""

FIELDS = {
    "id",
    "tenantId",
    "status",
    "name",
    "url",
    "notifyEmail",
    "events",
    "createdBy",
    "createdAt",
    "modifiedBy",
    "modifiedAt",
}
"""The Node SDK's `Webhook` (its serializer passes unknown keys through as they came)."""

LOCAL_EXTRAS = {"disabled_reason"}


def _id(index: int) -> dict[str, Any]:
    return {"$from": [index, "value", "id"]}


def _hook(name: str, **fields: Any) -> dict[str, Any]:
    return {"name": name, "url": NOWHERE, "events": QUIET_EVENTS, **fields}


def _known(webhook: dict[str, Any]) -> dict[str, Any]:
    unknown = set(webhook) - FIELDS - LOCAL_EXTRAS
    assert not unknown, f"fields the Node SDK does not know: {unknown}"
    return webhook


@pytest.fixture
def tenant(sdk_service: RunningService, request: pytest.FixtureRequest) -> TenantInfo:
    return sdk_service.new_tenant(f"Node SDK {request.node.name}")


def test_crud_event_types_and_status_left_out(
    sdk_service: RunningService, tenant: TenantInfo
) -> None:
    calls: list[dict[str, Any]] = [
        {"call": "webhooks.create", "args": [_hook("Orders", notifyEmail="ops@example.com")]},
        {"call": "webhooks.get", "args": [_id(0)]},  # 1
        {"call": "webhooks.list", "args": []},  # 2
        {  # 3
            "call": "webhooks.update",
            "args": [_id(0), _hook("Orders v2", events=["token.created"], status="disabled")],
        },
        {"call": "webhooks.events.list", "args": []},  # 4
    ]
    results = node_calls(sdk_service.base_url, tenant.key, calls)

    created = _known(value_of(results[0]))
    assert results[0]["status"] == 201
    assert uuid.UUID(created["id"]) and created["tenantId"] == tenant.tenant_id
    assert (created["status"], created["name"], created["url"]) == ("enabled", "Orders", NOWHERE)
    assert created["notifyEmail"] == "ops@example.com" and created["events"] == QUIET_EVENTS
    assert created["createdBy"] == tenant.application_id and created["createdAt"]
    assert _known(value_of(results[1])) == created
    listing = value_of(results[2])
    assert set(listing) == {"pagination", "data"}, listing
    assert [_known(w) for w in listing["data"]] == [created]
    assert listing["pagination"]["pageSize"] >= 1 and "next" not in listing["pagination"]

    # `status` in the request is stripped by the SDK: the webhook stays enabled.
    updated = _known(value_of(results[3]))
    assert (updated["name"], updated["events"], updated["status"]) == (
        "Orders v2",
        ["token.created"],
        "enabled",
    )
    assert updated["modifiedBy"] == tenant.application_id and updated["modifiedAt"]
    assert "notifyEmail" not in updated or updated["notifyEmail"] in (None, "ops@example.com")

    types = value_of(results[4])
    assert sorted(types) == sorted(EVENT_TYPES)

    # Disabled over HTTP (as the docs' PUT does), a Node update keeps it disabled.
    hook_id = created["id"]
    answer = httpx.put(
        f"{sdk_service.base_url}/webhooks/{hook_id}",
        json={**_hook("Orders v3"), "status": "disabled"},
        headers={SDK_HEADER: tenant.key},
        timeout=30.0,
    )
    assert answer.status_code == 200 and answer.json()["status"] == "disabled", answer.text
    later = [
        {"call": "webhooks.update", "args": [hook_id, _hook("Orders v4")]},  # 0
        {"call": "webhooks.get", "args": [hook_id]},  # 1
        {"call": "webhooks.delete", "args": [hook_id]},  # 2
        {"call": "webhooks.get", "args": [hook_id]},  # 3
        {"call": "webhooks.delete", "args": [hook_id]},  # 4
        {"call": "webhooks.list", "args": []},  # 5
    ]
    results = node_calls(sdk_service.base_url, tenant.key, later)
    kept = _known(value_of(results[0]))
    assert (kept["name"], kept["status"]) == ("Orders v4", "disabled")
    assert _known(value_of(results[1]))["status"] == "disabled"
    assert results[2]["ok"] and results[2]["status"] == 204
    assert (results[3]["error"], results[3]["status"]) == ("NotFoundError", 404)
    assert (results[4]["error"], results[4]["status"]) == ("NotFoundError", 404)
    assert value_of(results[5])["data"] == []


def test_a_webhook_the_service_disabled_says_why(
    sdk_service: RunningService, tenant: TenantInfo
) -> None:
    """The Node SDK passes the local service's `disabled_reason` through as it came (its
    serializer keeps unknown keys, unconverted); a Node update leaves the webhook disabled."""
    made = node_calls(
        sdk_service.base_url,
        tenant.key,
        [{"call": "webhooks.create", "args": [_hook("Unreachable", url=UNREACHABLE)]}],
    )
    hook = _known(value_of(made[0]))
    assert hook["disabled_reason"] is None
    answer = httpx.post(  # the local service's own route: the SDK has no trigger
        f"{sdk_service.base_url}/webhooks/trigger",
        json={"type": "token.created", "webhook_id": hook["id"]},
        headers={SDK_HEADER: tenant.key},
        timeout=30.0,
    )
    assert answer.status_code == 202, answer.text
    calls: list[dict[str, Any]] = [
        {  # 0
            "call": "webhooks.get",
            "args": [hook["id"]],
            "poll": {"while": {"status": "enabled"}, "seconds": 15},
        },
        {"call": "webhooks.update", "args": [hook["id"], _hook("Renamed", url=UNREACHABLE)]},
        {"call": "webhooks.list", "args": []},  # 2
    ]
    results = node_calls(sdk_service.base_url, tenant.key, calls)
    disabled = _known(value_of(results[0]))
    assert disabled["status"] == "disabled", results[0]
    assert "connection refused" in disabled["disabled_reason"]
    kept = _known(value_of(results[1]))
    assert (kept["name"], kept["status"]) == ("Renamed", "disabled")
    assert kept["disabled_reason"] == disabled["disabled_reason"]
    assert value_of(results[2])["data"] == [kept]


def test_errors_as_the_sdk_throws_them(sdk_service: RunningService, tenant: TenantInfo) -> None:
    keys = {
        "default": tenant.key,
        "reader": sdk_service.new_key(["webhook:read"], tenant_key=tenant.key),
        "none": sdk_service.new_key(["reactor:read"], tenant_key=tenant.key),
    }
    unknown = str(uuid.uuid4())
    calls: list[dict[str, Any]] = [
        *[
            {"call": "webhooks.create", "args": [_hook(f"Hook {n}")]} for n in range(MAX_WEBHOOKS)
        ],  # 0..4
        {"call": "webhooks.create", "args": [_hook("One too many")]},  # 5
        {"call": "webhooks.create", "args": [_hook("Bad", url="ftp://example.com")]},  # 6
        {"call": "webhooks.create", "args": [_hook("Bad", events=["token:created"])]},  # 7
        {"call": "webhooks.update", "args": [_id(0), _hook("Bad", url="not a url")]},  # 8
        {"call": "webhooks.get", "args": [unknown]},  # 9
        {"call": "webhooks.update", "args": [unknown, _hook("x")]},  # 10
        {"call": "webhooks.delete", "args": [unknown]},  # 11
        {"call": "webhooks.list", "args": [], "key": "reader"},  # 12
        {"call": "webhooks.create", "args": [_hook("x")], "key": "reader"},  # 13
        {"call": "webhooks.delete", "args": [_id(0)], "key": "reader"},  # 14
        {"call": "webhooks.list", "args": [], "key": "none"},  # 15
        {"call": "webhooks.events.list", "args": [], "key": "none"},  # 16
        {"call": "webhooks.get", "args": [_id(0)], "key": "none"},  # 17
    ]
    results = node_calls(sdk_service.base_url, keys, calls)
    assert all(r["ok"] for r in results[:MAX_WEBHOOKS]), results[:MAX_WEBHOOKS]
    sixth = results[MAX_WEBHOOKS]
    # 409: not a status the SDK's create declares, so its generic error (body as sent).
    assert (sixth["error"], sixth["status"]) == ("BasisTheoryError", 409), sixth
    assert f"at most {MAX_WEBHOOKS} webhooks" in sixth["body"]["detail"]
    for bad in results[6:9]:
        assert (bad["error"], bad["status"]) == ("BadRequestError", 400), bad
        assert bad["body"]["errors"], bad["body"]
    for missing in results[9:12]:
        assert (missing["error"], missing["status"]) == ("NotFoundError", 404), missing
    assert len(value_of(results[12])["data"]) == MAX_WEBHOOKS
    for forbidden in results[13:18]:
        assert (forbidden["error"], forbidden["status"]) == ("ForbiddenError", 403), forbidden
