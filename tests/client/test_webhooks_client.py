"""`client.webhooks` against the real local service (list by cursor, create, update, enable
and disable written back whole, delete, event types, trigger, the signing key), and a stub
only for what the local service cannot produce: a list of several cursor pages, a field the
console does not know, the hosted service without trigger, a CDN that must never see the
API key."""

from __future__ import annotations

import asyncio
import json

import pytest
from client_stub import Respond

from console.client import AdminClient, NotOffered, UnexpectedResponse
from console.client.index import LocalIndex
from console.kinds import WEBHOOKS
from console.models.webhooks import EVENT_TYPES, MAX_WEBHOOKS, WebhookCreate
from console.webhooks.signing import LOCAL_KEY_PATH

KEY = "stub-key-0123456789"
PEM = "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----"


def webhook(name: str = "Orders", **extra: object) -> dict[str, object]:
    body: dict[str, object] = {
        "id": "6f1c7a52-6c55-4a53-a0c5-5d8d7b1f4a10",
        "tenant_id": "0c5a1a52-6c55-4a53-a0c5-5d8d7b1f4a10",
        "status": "enabled",
        "name": name,
        "url": "https://example.com/hooks",
        "events": ["reactor.created"],
    }
    return {**body, **extra}


def create(name: str = "Orders", events: tuple[str, ...] = ("reactor.created",)) -> WebhookCreate:
    return WebhookCreate.parse(
        {"name": name, "url": "https://example.com/hooks", "events": list(events)}
    )


async def test_a_webhook_is_created_listed_read_updated_and_deleted(client: AdminClient) -> None:
    made = await client.webhooks.create(create())
    assert (made.name, made.status, made.events) == ("Orders", "enabled", ["reactor.created"])
    listed = [w async for w in client.webhooks.iterate()]
    assert [w.id for w in listed] == [made.id]
    page = await client.webhooks.list()
    assert [w.id for w in page] == [made.id] and not page.has_more
    assert (await client.webhooks.get(made.id)).url == "https://example.com/hooks"
    body = {
        "name": "Orders v2",
        "url": "https://example.com/v2",
        "events": ["reactor.created", "proxy.created"],
    }
    changed = await client.webhooks.update(made.id, body)
    assert (changed.name, sorted(changed.events)) == (
        "Orders v2",
        ["proxy.created", "reactor.created"],
    )
    assert changed.enabled  # a PUT without status leaves it as it was
    await client.webhooks.delete(made.id)
    assert [w async for w in client.webhooks.iterate()] == []


async def test_disable_and_enable_put_the_whole_webhook_with_its_status(
    client: AdminClient,
) -> None:
    made = await client.webhooks.create(create(events=("proxy.created", "reactor.created")))
    disabled = await client.webhooks.disable(made.id)
    assert disabled.status == "disabled"
    assert sorted(disabled.events) == ["proxy.created", "reactor.created"]
    assert disabled.name == "Orders" and disabled.url == made.url
    enabled = await client.webhooks.enable(made.id)
    assert enabled.enabled and enabled.disabled_reason is None
    with pytest.raises(ValueError, match="enabled or disabled"):
        await client.webhooks.set_status(made.id, "paused")


async def test_the_sixth_webhook_is_refused(client: AdminClient) -> None:
    for n in range(MAX_WEBHOOKS):
        await client.webhooks.create(create(f"Hook {n}"))
    with pytest.raises(Exception) as refused:
        await client.webhooks.create(create("One too many"))
    assert getattr(refused.value, "status", None) in (400, 409, 422)
    assert len([w async for w in client.webhooks.iterate()]) == MAX_WEBHOOKS


async def test_event_types_are_the_services_list(client: AdminClient) -> None:
    types = await client.webhooks.event_types()
    assert set(EVENT_TYPES) <= set(types)


async def test_trigger_on_the_local_service_queues_a_sample(client: AdminClient) -> None:
    made = await client.webhooks.create(create(events=("reactor.created",)))
    triggered = await client.webhooks.trigger("reactor.created")
    assert triggered.event_id and triggered.deliveries == 1
    only = await client.webhooks.trigger("proxy.created", webhook_id=made.id)
    assert only.event_id != triggered.event_id
    with pytest.raises(ValueError, match="not an event type"):
        await client.webhooks.trigger("reactor.creatd")
    nobody = await client.webhooks.trigger("token.created")  # no webhook subscribes to it
    assert (nobody.event_id, nobody.deliveries) == (None, 0) and nobody.detail


async def test_trigger_on_a_service_without_it_says_it_is_not_offered(stub) -> None:
    server = await stub(Respond(404, {"title": "Not Found", "status": 404}))
    async with AdminClient(server.base_url, KEY) as c:
        with pytest.raises(NotOffered) as missing:
            await c.webhooks.trigger("reactor.created")
    assert str(missing.value).startswith(
        "This service does not offer triggering sample webhook events"
    )
    assert server.count("POST") == 1  # a POST is never repeated


async def test_the_list_follows_its_cursor_and_is_answered_as_one_page(stub) -> None:
    first = {"pagination": {"page_size": 1, "next": "cursor-2"}, "data": [webhook("A")]}
    second_hook = webhook("B", id="7f1c7a52-6c55-4a53-a0c5-5d8d7b1f4a10")
    second = {"pagination": {"page_size": 1}, "data": [second_hook]}
    server = await stub(Respond(200, first), Respond(200, second))
    async with AdminClient(server.base_url, KEY) as c:
        names = [w.name async for w in c.webhooks.iterate()]
        assert names == ["A", "B"]
        assert [r.target for r in server.requests] == ["/webhooks", "/webhooks?start=cursor-2"]
        assert c.collection(WEBHOOKS) is c.webhooks


async def test_a_cursor_that_does_not_move_is_refused(stub) -> None:
    stuck = {"pagination": {"next": "same"}, "data": [webhook()]}
    server = await stub(Respond(200, stuck))
    async with AdminClient(server.base_url, KEY) as c:
        with pytest.raises(UnexpectedResponse, match="repeat the same cursor"):
            await c.webhooks.page_json()
    assert server.count("GET") == 2


async def test_a_status_change_writes_back_what_the_console_does_not_know(stub) -> None:
    known = webhook(events=["reactor.created", "some.future.event"], future_setting={"a": 1})
    server = await stub(Respond(200, known), Respond(200, {**known, "status": "disabled"}))
    async with AdminClient(server.base_url, KEY) as c:
        done = await c.webhooks.disable(str(known["id"]))
    assert done.status == "disabled"
    put = next(r for r in server.requests if r.method == "PUT")
    sent = json.loads(put.body)
    assert sent["status"] == "disabled"
    assert sent["future_setting"] == {"a": 1}
    assert sent["events"] == ["reactor.created", "some.future.event"]  # the service judges
    assert "id" not in sent and "tenant_id" not in sent


async def test_the_local_services_signing_key_is_read_without_the_api_key(service, tenant) -> None:
    async with AdminClient(service.base_url, tenant.key) as c:
        key = await c.webhook_signing_key()
    assert key.pem.startswith("-----BEGIN PUBLIC KEY-----")
    assert key.source == service.base_url.rstrip("/") + LOCAL_KEY_PATH


class Cdn:
    """A server answering every GET with the PEM as plain text, keeping each request's head."""

    def __init__(self) -> None:
        self.heads: list[bytes] = []
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> Cdn:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}/keys/webhooks.v1.key"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.heads.append(await reader.readuntil(b"\r\n\r\n"))
        body = PEM.encode()
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        await writer.drain()
        writer.close()


async def test_without_a_key_of_its_own_the_service_sends_the_reader_to_the_cdn(stub) -> None:
    api = await stub(Respond(404, {"title": "Not Found", "status": 404}))
    async with Cdn() as cdn, AdminClient(api.base_url, KEY) as c:
        url = cdn.url
        key = await c.webhook_signing_key(url)
    assert key.source == url and key.pem == PEM + "\n"
    assert len(cdn.heads) == 1 and KEY.encode() not in cdn.heads[0]
    assert [KEY in str(r.headers) for r in api.requests] == [False]


async def test_what_is_not_a_public_key_is_refused(stub) -> None:
    api = await stub(Respond(200, {"not": "a key"}))
    async with AdminClient(api.base_url, KEY) as c:
        with pytest.raises(UnexpectedResponse, match="not a PEM public key"):
            await c.webhook_signing_key()


async def test_listing_records_webhooks_in_the_local_index(client: AdminClient, tmp_path) -> None:
    made = await client.webhooks.create(create("Billing events"))
    index = LocalIndex(tmp_path / "index.sqlite3")
    try:
        client.index = index
        _ = [w async for w in client.webhooks.iterate()]
        (row,) = index.search("billing", ["webhooks"])
        assert (row.id, row.name) == (made.id, "Billing events")
    finally:
        index.close()
