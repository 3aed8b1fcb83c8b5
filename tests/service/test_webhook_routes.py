"""`/webhooks` on the local service: created, listed, read, replaced, deleted; at most five a
tenant; bodies refused with the path of the bad field; the permissions' 403s; another
tenant's webhook is a 404; enabling one clears why it was disabled; the event types."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from people_http import logged, tenant_fixtures
from service_http import (
    Caller,
    assert_invalid,
    assert_problem,
    describe,
    webhook_body,
)

from console.models.webhooks import EVENT_TYPES, MAX_WEBHOOKS, URL_MAX, webhook_url_problem
from console.service.api.webhooks import URL_PATTERN

UNKNOWN = "3f0c5a52-8d1e-4b7a-9c2d-6e5f4a3b2c1d"
"""An id no object has (fixed: test ids must be the same in every xdist worker)."""

client, tenant, owner = tenant_fixtures("Webhooks")


@pytest.fixture
def clean(owner: Caller) -> Caller:
    """The tenant's owner, the tenant without webhooks (the limit counts them all)."""
    for webhook in owner.get("/webhooks").json()["data"]:
        assert owner.delete(f"/webhooks/{webhook['id']}").status_code == 204
    return owner


def _stored(service: Any, webhook_id: str) -> dict[str, Any]:
    from console.service.store import Store

    store = Store(service.data_dir)
    try:
        with store.read() as conn:
            row = conn.execute("SELECT * FROM webhooks WHERE id = ?", (webhook_id,)).fetchone()
    finally:
        store.close()
    return dict(row)


def _set_disabled_by_the_service(service: Any, webhook_id: str) -> None:
    """What the deliverer does after repeated failures (another part's): disabled, with its
    reason and its failures in a row."""
    from console.service.store import Store

    store = Store(service.data_dir)
    try:
        with store.write() as conn:
            conn.execute(
                "UPDATE webhooks SET status = 'disabled', failures = 7,"
                " disabled_reason = 'Disabled after 7 failed deliveries in a row' WHERE id = ?",
                (webhook_id,),
            )
    finally:
        store.close()


def test_create_read_list_replace_delete(clean: Caller, tenant, service) -> None:
    body = webhook_body(events=["reactor.created", "application.key.created"])
    created = clean.created("/webhooks", body)
    assert created["status"] == "enabled" and created["disabled_reason"] is None
    assert created["tenant_id"] == tenant.tenant_id
    assert created["created_by"] == tenant.application_id == created["modified_by"]
    assert {k: created[k] for k in ("name", "url", "notify_email", "events")} == body
    assert created["created_at"].endswith("+00:00")

    read = clean.get(f"/webhooks/{created['id']}")
    assert read.status_code == 200 and read.json() == created, describe(read)

    second = clean.created("/webhooks", webhook_body(notify_email=None))
    assert second["notify_email"] is None
    listed = clean.get("/webhooks")
    assert listed.status_code == 200, describe(listed)
    assert listed.json()["data"] == [created, second]  # oldest first
    assert listed.json()["pagination"] == {"page_size": 20, "next": None}

    replacement = webhook_body(url="https://hooks.example.com/in", events=["tenant.updated"])
    replaced = clean.put(f"/webhooks/{created['id']}", json=replacement)
    assert replaced.status_code == 200, describe(replaced)
    after = replaced.json()
    assert {k: after[k] for k in ("name", "url", "notify_email", "events")} == replacement
    assert after["status"] == "enabled"  # status left out: it stays
    assert after["created_at"] == created["created_at"]
    assert after["modified_at"] >= created["modified_at"]

    disabled = clean.put(f"/webhooks/{created['id']}", json={**replacement, "status": "disabled"})
    assert disabled.status_code == 200 and disabled.json()["status"] == "disabled"
    kept = clean.put(f"/webhooks/{created['id']}", json=replacement)
    assert kept.json()["status"] == "disabled", describe(kept)

    assert clean.delete(f"/webhooks/{created['id']}").status_code == 204
    assert_problem(clean.get(f"/webhooks/{created['id']}"), 404)
    assert_problem(clean.delete(f"/webhooks/{created['id']}"), 404)
    assert [w["id"] for w in clean.get("/webhooks").json()["data"]] == [second["id"]]

    messages = [entry["message"] for entry in logged(service, created["id"])]
    assert messages == [
        "Webhook created",
        "Webhook updated",
        "Webhook disabled",
        "Webhook updated",
        "Webhook deleted",
    ]
    assert {entry["entity_type"] for entry in logged(service, created["id"])} == {"webhook"}


def test_enabling_clears_the_reason_and_the_failures(clean: Caller, service) -> None:
    created = clean.created("/webhooks", webhook_body())
    _set_disabled_by_the_service(service, created["id"])
    read = clean.get(f"/webhooks/{created['id']}").json()
    assert read["status"] == "disabled"
    assert read["disabled_reason"] == "Disabled after 7 failed deliveries in a row"

    body = {k: created[k] for k in ("name", "url", "notify_email", "events")}
    renamed = clean.put(f"/webhooks/{created['id']}", json={**body, "name": "Renamed"}).json()
    assert renamed["status"] == "disabled" and renamed["disabled_reason"], renamed

    enabled = clean.put(f"/webhooks/{created['id']}", json={**body, "status": "enabled"})
    assert enabled.status_code == 200, describe(enabled)
    assert enabled.json()["status"] == "enabled" and enabled.json()["disabled_reason"] is None
    stored = _stored(service, created["id"])
    assert stored["failures"] == 0 and stored["disabled_reason"] is None
    entries = [e["message"] for e in logged(service, created["id"])]
    assert entries[-1] == "Webhook enabled"


def test_a_tenant_has_at_most_five(clean: Caller) -> None:
    made = [clean.created("/webhooks", webhook_body()) for _ in range(MAX_WEBHOOKS)]
    refused = assert_problem(clean.post("/webhooks", json=webhook_body()), 409)
    assert refused["detail"] == "A tenant may have at most 5 webhooks."
    assert "errors" not in refused
    # An invalid body is still a 400 first: the limit is about valid webhooks.
    assert_invalid(clean.post("/webhooks", json=webhook_body(url="ftp://x")), "url")
    assert len(clean.get("/webhooks").json()["data"]) == MAX_WEBHOOKS
    # One deleted, one more may be made.
    assert clean.delete(f"/webhooks/{made[0]['id']}").status_code == 204
    clean.created("/webhooks", webhook_body())


INVALID = [
    pytest.param({"url": "ftp://example.com/in"}, "url", id="not http"),
    pytest.param({"url": "https://user:pw@example.com/"}, "url", id="user info"),
    pytest.param({"url": "https://example.com/#frag"}, "url", id="fragment"),
    pytest.param({"url": "https://exa mple.com/"}, "url", id="space"),
    pytest.param({"url": "https://" + "a" * URL_MAX}, "url", id="too long"),
    pytest.param({"url": None}, "url", id="url null"),
    pytest.param({"events": []}, "events", id="no events"),
    pytest.param({"events": ["token.created", "no.such.event"]}, "events", id="unknown event"),
    pytest.param({"events": ["token.created", "token.created"]}, "events", id="event twice"),
    pytest.param({"events": "token.created"}, "events", id="events not a list"),
    pytest.param({"notify_email": "not an email"}, "notify_email", id="bad email"),
    pytest.param({"name": ""}, "name", id="empty name"),
    pytest.param({"name": "a\x1bb"}, "name", id="control character in the name"),
]


@pytest.mark.parametrize(("change", "path"), INVALID)
def test_an_invalid_create_names_the_field(owner: Caller, change: dict, path: str) -> None:
    errors = assert_invalid(owner.post("/webhooks", json=webhook_body(**change)), path)
    assert all(re.match(r"[a-z_]+", key) for key in errors), errors


@pytest.mark.parametrize(("change", "path"), INVALID[:3] + INVALID[6:8])
def test_an_invalid_replace_names_the_field(clean: Caller, change: dict, path: str) -> None:
    owner = clean
    created = owner.created("/webhooks", webhook_body())
    try:
        response = owner.put(f"/webhooks/{created['id']}", json=webhook_body(**change))
        assert_invalid(response, path)
        bad_status = owner.put(f"/webhooks/{created['id']}", json=webhook_body(status="paused"))
        assert_invalid(bad_status, "status")
        assert owner.get(f"/webhooks/{created['id']}").json() == created  # unchanged
    finally:
        owner.delete(f"/webhooks/{created['id']}")


def test_a_too_short_email_says_how_short_not_empty(owner: Caller) -> None:
    errors = assert_invalid(
        owner.post("/webhooks", json=webhook_body(notify_email="x")), "notify_email"
    )
    assert errors["notify_email"] == ["The notify email must be at least 3 characters."]


def test_no_events_says_how_many_are_needed(owner: Caller) -> None:
    errors = assert_invalid(owner.post("/webhooks", json=webhook_body(events=[])), "events")
    assert errors["events"] == ["The events must hold at least 1 item."]


def test_missing_fields_are_named(owner: Caller) -> None:
    errors = assert_invalid(owner.post("/webhooks", json={}), "name")
    assert {"name", "url", "events"} <= set(errors), errors


def test_permissions(service, clean: Caller, client: httpx.Client, tenant) -> None:
    owner = clean
    created = owner.created("/webhooks", webhook_body())
    try:
        item = f"/webhooks/{created['id']}"
        without = Caller(
            client,
            service.new_key(
                ["application:read", "proxy:read", "tenant:update"], tenant_key=tenant.key
            ),
        )
        for method, path, body in [
            ("GET", "/webhooks", None),
            ("GET", "/webhooks/event-types", None),
            ("POST", "/webhooks", webhook_body()),
            ("GET", item, None),
            ("PUT", item, webhook_body()),
            ("DELETE", item, None),
        ]:
            problem = assert_problem(without.request(method, path, json=body), 403)
            assert "webhook:" in problem["detail"], problem
        reader = Caller(client, service.new_key(["webhook:read"], tenant_key=tenant.key))
        assert reader.get(item).status_code == 200
        assert reader.get("/webhooks/event-types").status_code == 200
        assert_problem(reader.put(item, json=webhook_body()), 403)
        assert_problem(reader.delete(item), 403)
        assert_problem(reader.post("/webhooks", json=webhook_body()), 403)
        # 403 before the body is read: nothing learnt from an invalid one.
        assert "errors" not in assert_problem(reader.post("/webhooks", json={"url": 1}), 403)
    finally:
        owner.delete(f"/webhooks/{created['id']}")


def test_another_tenants_webhook_is_not_found(service, clean: Caller, client) -> None:
    owner = clean
    created = owner.created("/webhooks", webhook_body())
    try:
        other = Caller(client, service.new_tenant("Webhooks elsewhere").key)
        item = f"/webhooks/{created['id']}"
        assert_problem(other.get(item), 404)
        assert_problem(other.put(item, json=webhook_body()), 404)
        assert_problem(other.delete(item), 404)
        assert other.get("/webhooks").json()["data"] == []
        assert owner.get(item).json() == created  # untouched
        assert_problem(owner.get(f"/webhooks/{UNKNOWN}"), 404)
        assert_problem(owner.get("/webhooks/not-a-uuid"), 404)
    finally:
        owner.delete(f"/webhooks/{created['id']}")


def test_event_types_are_a_list_of_strings(owner: Caller) -> None:
    response = owner.get("/webhooks/event-types")
    assert response.status_code == 200, describe(response)
    types = response.json()
    assert types == list(EVENT_TYPES)
    assert {"application.key.created", "proxy.updated", "tenant.member.created"} <= set(types)


def test_the_document_states_the_bodies_rules(client: httpx.Client) -> None:
    document = client.get("/openapi.json").json()
    paths = document["paths"]
    assert set(paths["/webhooks"]) == {"get", "post"}
    assert set(paths["/webhooks/{id}"]) == {"get", "put", "delete"}
    create = paths["/webhooks"]["post"]
    assert "409" in create["responses"], create["responses"]
    assert "at most 5 webhooks" in create["responses"]["409"]["description"]
    assert "409 Conflict" in create["description"]
    for body in ("WebhookCreate", "WebhookUpdate"):
        properties = document["components"]["schemas"][body]["properties"]
        assert properties["url"]["pattern"] == URL_PATTERN
        assert properties["url"]["maxLength"] == URL_MAX
        assert properties["events"]["items"]["enum"] == list(EVENT_TYPES)
        assert properties["events"]["uniqueItems"] is True
        assert properties["events"]["minItems"] == 1
    event_types = paths["/webhooks/event-types"]["get"]["responses"]["200"]
    schema = event_types["content"]["application/json"]["schema"]
    assert schema == {"type": "array", "items": {"type": "string"}, "title": schema.get("title")}


URL_RE = re.compile(URL_PATTERN)
_URL_ALPHABET = st.sampled_from([*"ab.:/?#@%- \t\x00\x7f\u00a0\u2028", "1", "80", "é"])


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(
        st.from_regex(URL_RE, fullmatch=True),
        st.builds(
            lambda scheme, rest: scheme + "".join(rest),
            st.sampled_from(["http://", "https://", "ftp://", "http:/", ""]),
            st.lists(_URL_ALPHABET, max_size=12),
        ),
    )
)
def test_the_documented_url_pattern_is_the_validators(url: str) -> None:
    """What the document's pattern matches is exactly what the model accepts."""
    assert (URL_RE.fullmatch(url) is not None) == (webhook_url_problem(url) is None), url


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_event_types_only_reads(owner: Caller, method: str) -> None:
    response = owner.request(method, "/webhooks/event-types", json=webhook_body())
    assert_problem(response, 405)
    assert response.headers["Allow"] == "GET"
