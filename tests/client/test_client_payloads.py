"""Payloads: request models go as their JSON form, plain dicts exactly as given."""

from __future__ import annotations

import json
import uuid

import pytest
from client_helpers import proxy_payload, unique
from client_stub import Respond

from console.client import AdminClient, ValidationFailed
from console.models import ApplicationUpdate, TenantUpdate


async def test_an_invalid_dict_reaches_the_service(client: AdminClient, counting) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValidationFailed) as caught:
        await client.applications.create({"name": unique("No grants"), "type": "management"})
    assert counting.count("POST", "/applications") == 1, "the service, not the client, judged"
    assert "permissions" in caught.value.errors


async def test_a_dict_update_sending_type_is_refused_by_the_service(client: AdminClient) -> None:
    app = await client.applications.create(
        {"name": unique("Typed"), "type": "management", "permissions": ["proxy:read"]}
    )
    with pytest.raises(ValidationFailed) as caught:
        await client.applications.update(
            app.id, {"name": "x", "permissions": ["proxy:read"], "type": "private"}
        )
    assert "type" in caught.value.errors


async def test_an_update_model_never_sends_type(client: AdminClient) -> None:
    app = await client.applications.create(
        {"name": unique("Typed"), "type": "management", "permissions": ["proxy:read"]}
    )
    update = ApplicationUpdate(name="Kept type", permissions=["proxy:read"], type="private")
    updated = await client.applications.update(app.id, update)
    assert updated.type == "management"
    assert updated.name == "Kept type"


async def test_dict_values_may_be_uuids(client: AdminClient) -> None:
    backend = await client.applications.create(
        {"name": unique("Backend"), "type": "private", "permissions": ["token:use"]}
    )
    proxy = await client.proxies.create(proxy_payload(application={"id": backend.id}))
    assert proxy.application_id == backend.id


async def test_bodies_on_the_wire(stub) -> None:  # type: ignore[no-untyped-def]
    tenant = {
        "id": str(uuid.uuid4()),
        "owner_id": str(uuid.uuid4()),
        "name": "n",
        "settings": {"fingerprint_tokens": "true", "deduplicate_tokens": "true"},
    }
    server = await stub(Respond(200, tenant))
    async with AdminClient(server.base_url, "k" * 32) as c:
        await c.tenant.update(TenantUpdate(name="Only the name"))
        await c.tenant.update({"name": "As given", "extra": [1, 2]})
    first, second = (json.loads(r.body) for r in server.requests)
    assert first == {"name": "Only the name"}, "no settings: the service keeps them"
    assert second == {"name": "As given", "extra": [1, 2]}
    assert all(r.headers["content-type"] == "application/json" for r in server.requests)


async def test_a_payload_of_another_kind_is_a_type_error(service, tenant) -> None:  # type: ignore[no-untyped-def]
    async with AdminClient(service.base_url, tenant.key) as c:
        with pytest.raises(TypeError, match="request model or a dict"):
            await c.proxies.create(["not", "a", "dict"])  # type: ignore[arg-type]


def test_an_update_body_carries_back_what_no_form_edits_and_never_what_is_reported() -> None:
    """A proxy's `timeout` and `disable_detokenization` go back as read (a PUT without them
    resets them); its `state`, `requested`, `proxy_host` are reported, never sent; an
    application's `create_key` is an option of creation only."""
    from console.models import Application, Proxy, ProxyCreate
    from console.models.round_trip import update_body

    proxy = Proxy.model_validate(
        {
            "id": str(uuid.uuid4()),
            "name": "Edge",
            "destination_url": "https://api.example.com",
            "timeout": 12,
            "disable_detokenization": True,
            "state": "active",
            "requested": {"proxy": {"timeout": 20}},
            "proxy_host": "https://edge.example.com",
        }
    )
    payload = ProxyCreate.parse({"name": "Edge 2", "destination_url": proxy.destination_url})
    body = update_body(proxy, payload)
    assert (body["timeout"], body["disable_detokenization"]) == (12, True)
    assert not {"state", "requested", "proxy_host"} & set(body)
    given = ProxyCreate.parse({**payload.to_json(), "timeout": 3})
    assert update_body(proxy, given)["timeout"] == 3  # what the payload sets wins

    application = Application.model_validate(
        {"id": str(uuid.uuid4()), "name": "App", "type": "private", "create_key": False}
    )
    update = ApplicationUpdate.parse(
        {"name": "App 2", "permissions": ["token:read"]}, application_type="private"
    )
    assert "create_key" not in update_body(application, update)
