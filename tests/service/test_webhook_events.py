"""The events of every change the local service makes, as queued for a subscribed webhook:
each change queues exactly its documented event type, with the object's documented fields
(console.service.event_subjects.DOCUMENTED, from the vendor's "Webhook Event Data"); a
disabled or unsubscribed webhook gets no delivery; and no key, configuration value or code
ever reaches an event.

The events and deliveries are read from the data dir (the outbox), so no deliverer is needed;
the webhooks point at a receiver of the test's own that answers 200, so a service that does
deliver never disables them.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import pytest
from people_http import INVITATIONS, MEMBERS, SECURITY_CONTACT, invitation_body
from people_http import tenant_fixtures as people_tenant_fixtures
from service_http import (
    SEEN_KEYS,
    Caller,
    describe,
    formula_body,
    masked_cards_rules,
    private_application_body,
    proxy_body,
    reactor_body,
    webhook_body,
)

from console.models.webhooks import EVENT_OBJECTS
from console.service.event_subjects import DOCUMENTED

NOT_KEPT_LOCALLY = {"proxy_host"}
"""Documented fields the local service has no value for (the hosted service's address)."""

client, tenant, owner = people_tenant_fixtures("Webhook events")


class _Accepting(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def receiver() -> Iterator[str]:
    """A URL on loopback that accepts every delivery."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Accepting)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/events"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def hooks(owner: Caller, receiver: str) -> dict[str, str]:
    """Three webhooks: one subscribed to every event the service emits, one only to
    tenant.updated, one subscribed to everything but disabled."""
    every = list(DOCUMENTED)
    made = {
        "all": owner.created("/webhooks", webhook_body(url=receiver, events=every)),
        "tenant": owner.created("/webhooks", webhook_body(url=receiver, events=["tenant.updated"])),
        "disabled": owner.created("/webhooks", webhook_body(url=receiver, events=every)),
    }
    body = webhook_body(url=receiver, events=every, status="disabled")
    response = owner.put(f"/webhooks/{made['disabled']['id']}", json=body)
    assert response.status_code == 200, describe(response)
    return {name: webhook["id"] for name, webhook in made.items()}


def _read(service: Any, sql: str, *params: Any) -> list[dict[str, Any]]:
    from console.service.store import Store

    store = Store(service.data_dir)
    try:
        with store.read() as conn:
            return [dict(row) for row in conn.execute(sql, params).fetchall()]
    finally:
        store.close()


class Outbox:
    """The tenant's queued events and their deliveries, as stored."""

    def __init__(self, service: Any, tenant_id: str) -> None:
        self.service = service
        self.tenant_id = tenant_id

    def event_ids(self) -> set[str]:
        rows = _read(
            self.service, "SELECT id FROM webhook_events WHERE tenant_id = ?", self.tenant_id
        )
        return {row["id"] for row in rows}

    def bodies(self) -> list[str]:
        rows = _read(
            self.service, "SELECT body FROM webhook_events WHERE tenant_id = ?", self.tenant_id
        )
        return [row["body"] for row in rows]

    def after(self, action: Callable[[], Any]) -> list[dict[str, Any]]:
        """The events `action` queued, each with the webhooks it is to be delivered to."""
        before = self.event_ids()
        action()
        new = self.event_ids() - before
        events = []
        for event_id in new:
            (row,) = _read(self.service, "SELECT * FROM webhook_events WHERE id = ?", event_id)
            body = json.loads(row["body"])
            assert row["type"] == body["type"] and row["tenant_id"] == self.tenant_id
            deliveries = _read(
                self.service, "SELECT * FROM webhook_deliveries WHERE event_id = ?", event_id
            )
            body["_to"] = sorted(d["webhook_id"] for d in deliveries)
            events.append(body)
        return events


@pytest.fixture(scope="module")
def outbox(service: Any, tenant: Any, hooks: dict[str, str]) -> Outbox:
    return Outbox(service, tenant.tenant_id)


def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, describe(response)
    return response.json() if response.content else None


def done(response: httpx.Response) -> None:
    assert response.status_code in (200, 201, 204), describe(response)


def only(events: list[dict[str, Any]], event_type: str, hooks: dict[str, str]) -> dict[str, Any]:
    """The one event queued, of `event_type`, for the subscribed webhooks only; its object
    has exactly the documented fields; returns the object."""
    assert [e["type"] for e in events] == [event_type], events
    (event,) = events
    wanted = sorted(
        hooks[name] for name in ("all", "tenant") if name == "all" or event_type == "tenant.updated"
    )
    assert event["_to"] == wanted, (event_type, event["_to"])
    assert hooks["disabled"] not in event["_to"]
    data = event["data"]
    object_name = EVENT_OBJECTS[event_type]
    assert set(data) == {object_name, "actor"}, data
    subject = data[object_name]
    assert list(subject) == [f for f in DOCUMENTED[event_type] if f not in NOT_KEPT_LOCALLY]
    assert event["id"] and event["trace_id"] and event["timestamp"]
    return subject


def _actor_is_the_caller(event: dict[str, Any], tenant: Any) -> None:
    actor = event["data"]["actor"]
    assert actor == {
        "id": tenant.application_id,
        "type": "application",
        "name": "Bootstrap management",
    }


def test_applications_and_their_keys(outbox: Outbox, owner: Caller, hooks, tenant) -> None:
    rules = masked_cards_rules()
    made: dict[str, Any] = {}

    def create() -> None:
        made.update(
            ok(owner.post("/applications", json=private_application_body(rules=rules)), 201)
        )

    events = outbox.after(create)
    subject = only(events, "application.created", hooks)
    _actor_is_the_caller(events[0], tenant)
    app_id = made["id"]
    assert subject == {
        "id": app_id,
        "type": "private",
        "name": made["name"],
        "created_by": tenant.application_id,
        "created_at": made["created_at"],
        "permissions": made["permissions"],
        "rules": rules,
    }

    update = {"name": "Renamed app", "permissions": ["token:read"], "rules": []}
    events = outbox.after(lambda: ok(owner.put(f"/applications/{app_id}", json=update)))
    subject = only(events, "application.updated", hooks)
    assert subject["name"] == "Renamed app" and subject["rules"] == []
    assert subject["modified_by"] == tenant.application_id

    key: dict[str, Any] = {}
    events = outbox.after(lambda: key.update(ok(owner.post(f"/applications/{app_id}/keys"), 201)))
    subject = only(events, "application.key.created", hooks)
    assert subject == {
        "id": key["id"],
        "application_id": app_id,
        "version": key["version"],
        "created_at": key["created_at"],
        "created_by": tenant.application_id,
    }

    events = outbox.after(
        lambda: owner.delete(f"/applications/{app_id}/keys/{key['id']}").raise_for_status()
    )
    assert only(events, "application.key.deleted", hooks) == {
        "id": key["id"],
        "application_id": app_id,
    }

    regenerated: dict[str, Any] = {}
    events = outbox.after(
        lambda: regenerated.update(ok(owner.post(f"/applications/{app_id}/regenerate")))
    )
    subject = only(events, "application.key.created", hooks)
    (new_key,) = regenerated["keys"]
    assert subject["id"] == new_key["id"] and subject["application_id"] == app_id

    events = outbox.after(lambda: owner.delete(f"/applications/{app_id}").raise_for_status())
    assert only(events, "application.deleted", hooks) == {"id": app_id}


def test_proxies(outbox: Outbox, owner: Caller, hooks, tenant) -> None:
    made: dict[str, Any] = {}
    events = outbox.after(lambda: made.update(ok(owner.post("/proxies", json=proxy_body()), 201)))
    subject = only(events, "proxy.created", hooks)
    assert subject == {
        "id": made["id"],
        "name": made["name"],
        "application_id": None,
        "destination_url": made["destination_url"],
        "require_authentication": True,
        "created_at": made["created_at"],
        "created_by": tenant.application_id,
    }
    item = f"/proxies/{made['id']}"
    body = proxy_body(name="Renamed proxy", require_auth=False, timeout=30)
    events = outbox.after(lambda: ok(owner.put(item, json=body)))
    subject = only(events, "proxy.updated", hooks)
    assert subject["name"] == "Renamed proxy" and subject["require_authentication"] is False
    assert subject["timeout"] == 30 and subject["modified_by"] == tenant.application_id

    events = outbox.after(lambda: done(owner.request("PATCH", item, json={"name": "Patched"})))
    assert only(events, "proxy.updated", hooks)["name"] == "Patched"

    events = outbox.after(lambda: owner.delete(item).raise_for_status())
    assert only(events, "proxy.deleted", hooks) == {"id": made["id"]}


def test_reactors(outbox: Outbox, owner: Caller, hooks, tenant) -> None:
    made: dict[str, Any] = {}
    events = outbox.after(
        lambda: made.update(ok(owner.post("/reactors", json=reactor_body()), 201))
    )
    subject = only(events, "reactor.created", hooks)
    assert subject == {
        "id": made["id"],
        "name": made["name"],
        "created_at": made["created_at"],
        "created_by": tenant.application_id,
    }
    item = f"/reactors/{made['id']}"
    events = outbox.after(lambda: ok(owner.put(item, json=reactor_body(name="Renamed"))))
    assert only(events, "reactor.updated", hooks)["name"] == "Renamed"
    events = outbox.after(lambda: done(owner.request("PATCH", item, json={"name": "Patched"})))
    subject = only(events, "reactor.updated", hooks)
    assert subject["name"] == "Patched" and subject["modified_by"] == tenant.application_id
    events = outbox.after(lambda: owner.delete(item).raise_for_status())
    assert only(events, "reactor.deleted", hooks) == {"id": made["id"]}


def test_the_tenant(outbox: Outbox, owner: Caller, hooks, tenant) -> None:
    events = outbox.after(lambda: ok(owner.put("/tenants/self", json={"name": "Evented"})))
    subject = only(events, "tenant.updated", hooks)
    assert subject["id"] == tenant.tenant_id and subject["name"] == "Evented"
    assert set(subject) == {"id", "name", "created_at", "created_by", "modified_at", "modified_by"}

    contact = {"email": "security@example.com"}
    events = outbox.after(lambda: ok(owner.put(SECURITY_CONTACT, json=contact)))
    assert only(events, "tenant.updated", hooks)["id"] == tenant.tenant_id


def test_invitations_and_members(outbox: Outbox, owner: Caller, hooks, service) -> None:
    made: dict[str, Any] = {}
    body = invitation_body(role="READ_ONLY")
    events = outbox.after(lambda: made.update(ok(owner.post(INVITATIONS, json=body), 201)))
    subject = only(events, "tenant.invitation.created", hooks)
    assert subject == {
        "id": made["id"],
        "email": body["email"],
        "role": "READ_ONLY",
        "expires_at": made["expires_at"],
        "created_at": made["created_at"],
        "created_by": made["created_by"],
    }
    item = f"{INVITATIONS}/{made['id']}"
    resent: dict[str, Any] = {}
    events = outbox.after(lambda: resent.update(ok(owner.post(f"{item}/resend"))))
    assert only(events, "tenant.invitation.resent", hooks)["expires_at"] == resent["expires_at"]

    accepted: list[Any] = []
    events = outbox.after(lambda: accepted.append(service.accept_invitation(made["id"])))
    by_type = {e["type"]: e for e in events}
    assert sorted(by_type) == ["tenant.invitation.accepted", "tenant.member.created"]
    (done,) = accepted
    member = only([by_type["tenant.member.created"]], "tenant.member.created", hooks)
    assert member["id"] == done.member_id and member["user_id"] == done.user_id
    assert member["role"] == "READ_ONLY" and member["created_by"] == done.user_id
    invitation = only([by_type["tenant.invitation.accepted"]], "tenant.invitation.accepted", hooks)
    assert invitation["id"] == made["id"] and invitation["email"] == body["email"]
    actor = by_type["tenant.member.created"]["data"]["actor"]
    assert actor == {"id": done.user_id, "type": "user", "name": body["email"]}

    # A role changed has no event (the hosted service documents none); removed has.
    member_item = f"{MEMBERS}/{done.member_id}"
    assert outbox.after(lambda: ok(owner.put(member_item, json={"role": "ADMIN"}))) == []
    events = outbox.after(lambda: owner.delete(member_item).raise_for_status())
    assert only(events, "tenant.member.deleted", hooks) == {"id": done.member_id}

    other: dict[str, Any] = {}
    events = outbox.after(
        lambda: other.update(ok(owner.post(INVITATIONS, json=invitation_body()), 201))
    )
    only(events, "tenant.invitation.created", hooks)
    events = outbox.after(lambda: owner.delete(f"{INVITATIONS}/{other['id']}").raise_for_status())
    subject = only(events, "tenant.invitation.deleted", hooks)
    assert subject["id"] == other["id"] and subject["email"] == other["email"]


def test_changes_without_an_event_queue_nothing(outbox: Outbox, owner: Caller, hooks) -> None:
    """Reactor formulas and webhooks themselves have no events on the hosted service."""
    formula = outbox.after(lambda: ok(owner.post("/reactor-formulas", json=formula_body()), 201))
    assert formula == []
    webhook_id = hooks["tenant"]
    body = {**ok(owner.get(f"/webhooks/{webhook_id}")), "name": "Still tenant.updated"}
    body = {k: body[k] for k in ("name", "url", "notify_email", "events")}
    assert outbox.after(lambda: ok(owner.put(f"/webhooks/{webhook_id}", json=body))) == []


def test_a_tenant_without_webhooks_stores_no_event(service: Any, client: httpx.Client) -> None:
    lonely = service.new_tenant("No webhooks")
    caller = Caller(client, lonely.key)
    quiet = Outbox(service, lonely.tenant_id)
    assert quiet.after(lambda: ok(caller.post("/proxies", json=proxy_body()), 201)) == []


def test_a_tenant_deleted_takes_its_webhooks_and_their_deliveries(
    service: Any, client: httpx.Client, receiver: str
) -> None:
    doomed = service.new_tenant("Doomed with webhooks")
    caller = Caller(client, doomed.key)
    webhook = ok(
        caller.post("/webhooks", json=webhook_body(url=receiver, events=["tenant.deleted"])), 201
    )
    response = caller.request("DELETE", "/tenants/self")
    assert response.status_code == 204, describe(response)
    assert _read(service, "SELECT * FROM webhooks WHERE id = ?", webhook["id"]) == []
    deliveries = _read(
        service, "SELECT * FROM webhook_deliveries WHERE webhook_id = ?", webhook["id"]
    )
    assert deliveries == []


def test_no_key_configuration_or_code_reaches_an_event(
    outbox: Outbox, owner: Caller, hooks, client: httpx.Client
) -> None:
    """Hostile: recognisable secrets put everywhere a change can carry them, then looked for
    in every event body the tenant has."""
    marker = uuid.uuid4().hex
    secrets = {
        "configuration": f"hostile-config-{marker}",
        "code": f"hostile-code-{marker}",
        "header": f"hostile-header-{marker}",
    }
    code = f"module.exports = async (req) => ({{ raw: '{secrets['code']}' }});"
    keys: list[str] = []

    def hostile_changes() -> None:
        proxy = ok(
            owner.post(
                "/proxies",
                json=proxy_body(
                    configuration={"SECRET": secrets["configuration"]},
                    request_transform={"code": code},
                    response_transforms=[{"type": "code", "code": code}],
                ),
            ),
            201,
        )
        keys.append(proxy["key"])
        item = f"/proxies/{proxy['id']}"
        patch = {"configuration": {"OTHER": secrets["configuration"] + "-2"}}
        owner.request("PATCH", item, json=patch).raise_for_status()
        ok(owner.put(item, json=proxy_body(configuration={"S": secrets["configuration"]})))
        owner.delete(item).raise_for_status()

        reactor = ok(
            owner.post(
                "/reactors",
                json=reactor_body(code=code, configuration={"SECRET": secrets["configuration"]}),
            ),
            201,
        )
        patch = {"code": code + " ", "configuration": {"MORE": secrets["configuration"]}}
        owner.request("PATCH", f"/reactors/{reactor['id']}", json=patch).raise_for_status()
        owner.delete(f"/reactors/{reactor['id']}").raise_for_status()

        app = ok(owner.post("/applications", json=private_application_body()), 201)
        keys.append(app["key"])
        keys.append(ok(owner.post(f"/applications/{app['id']}/keys"), 201)["key"])
        keys.append(ok(owner.post(f"/applications/{app['id']}/regenerate"))["key"])
        settings = {"name": "Hostile", "settings": {"custom": secrets["configuration"]}}
        ok(owner.put("/tenants/self", json=settings))

    events = outbox.after(hostile_changes)
    assert len(events) >= 10, [e["type"] for e in events]
    bodies = outbox.bodies()
    assert bodies
    every_key = [k for k in keys if k] + sorted(SEEN_KEYS) + [owner.key]
    for body in bodies:
        for name, secret in secrets.items():
            assert secret not in body, f"the {name} reached an event: {body}"
        for key in every_key:
            assert key not in body, "an API key reached an event"
        assert "module.exports" not in body and '"configuration"' not in body
        assert '"code"' not in body and '"key"' not in body


def test_record_narrows_an_object_to_its_documented_fields(
    service: Any, tenant: Any, hooks: dict[str, str]
) -> None:
    """A field no event documents never leaves, whatever a call site passes (a second line
    behind the builders); a sample queued directly (trigger's) keeps its own fields."""
    from console.service.changes import Actor, Change, queue_event, record
    from console.service.store import Store

    marker = f"hostile-{uuid.uuid4().hex}"
    proxy_id = str(uuid.uuid4())
    leaky = {"id": proxy_id, "name": "Leaky", "configuration": {"S": marker}, "key": marker}
    change = Change(
        tenant.tenant_id,
        "proxy",
        proxy_id,
        "create",
        "Proxy created",
        Actor(None, "system"),
        "2026-11-29T00:00:00.000000+00:00",
        subject=leaky,
    )
    store = Store(service.data_dir)
    try:
        with store.write() as conn:
            record(conn, change)
            sample = {"id": proxy_id, "name": "Leaky", "sample": True}
            sample_id = queue_event(
                conn, replace(change, subject=sample), "proxy.created", webhook_id=hooks["all"]
            )
    finally:
        store.close()
    bodies = _read(
        service,
        "SELECT id, body FROM webhook_events WHERE tenant_id = ? AND body LIKE ?",
        tenant.tenant_id,
        f"%{proxy_id}%",
    )
    by_id = {row["id"]: json.loads(row["body"]) for row in bodies}
    (recorded,) = [body for event_id, body in by_id.items() if event_id != sample_id]
    assert recorded["data"]["proxy"] == {"id": proxy_id, "name": "Leaky"}
    assert by_id[sample_id]["data"]["proxy"]["sample"] is True
