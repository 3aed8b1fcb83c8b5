"""Webhooks in the journal: each change recorded (create, update, enable/disable, delete) and
taken back by `tenant-console undo`: a create by a delete, an update by the webhook written
back whole (its status with it), a delete by the same webhook made again (a new id)."""

from __future__ import annotations

from typing import Any

from undo_support import undo, undo_change

from console.models.webhooks import WebhookCreate

URL = "https://example.com/hooks"


async def make_webhook(client: Any, tenant: Any, name: str = "Orders") -> dict[str, Any]:
    body = {
        "name": name,
        "url": URL,
        "events": ["reactor.created", "proxy.created"],
        "notify_email": "ops@example.com",
    }
    created = await client.webhooks.create(WebhookCreate.parse(body))
    (webhook,) = tenant.named("/webhooks", name)
    assert webhook["id"] == created.id
    return webhook


async def test_undo_of_a_created_webhook_deletes_it(client, journal, prod, memory_keyring) -> None:
    tenant, _ = prod
    await make_webhook(client, tenant)
    (created,) = journal.list()
    await undo_change(created, "webhooks", "create")
    assert tenant.named("/webhooks", "Orders") == []


async def test_undo_of_an_update_writes_the_webhook_back(
    client, journal, prod, memory_keyring
) -> None:
    tenant, _ = prod
    webhook = await make_webhook(client, tenant)
    body = {"name": "Renamed", "url": "https://example.com/v2", "events": ["token.created"]}
    await client.webhooks.update(webhook["id"], body)
    update = journal.list()[0]
    await undo_change(update, "webhooks", "update")
    (back,) = tenant.named("/webhooks", "Orders")
    assert back["id"] == webhook["id"]
    assert (back["url"], sorted(back["events"]), back["notify_email"]) == (
        URL,
        ["proxy.created", "reactor.created"],
        "ops@example.com",
    )


async def test_undo_of_a_disable_enables_it_again(client, journal, prod, memory_keyring) -> None:
    tenant, _ = prod
    webhook = await make_webhook(client, tenant)
    await client.webhooks.disable(webhook["id"])
    disabled = journal.list()[0]
    assert (disabled.kind, disabled.action) == ("webhooks", "update")
    assert tenant.named("/webhooks", "Orders")[0]["status"] == "disabled"
    assert await undo(disabled.id) == 0
    (back,) = tenant.named("/webhooks", "Orders")
    assert back["status"] == "enabled"
    await client.webhooks.enable(webhook["id"])  # already enabled: still a PUT, recorded


async def test_undo_of_an_enable_disables_it_again(client, journal, prod, memory_keyring) -> None:
    tenant, _ = prod
    webhook = await make_webhook(client, tenant)
    await client.webhooks.disable(webhook["id"])
    await client.webhooks.enable(webhook["id"])
    enabled = journal.list()[0]
    assert await undo(enabled.id) == 0
    assert tenant.named("/webhooks", "Orders")[0]["status"] == "disabled"


async def test_undo_of_a_deleted_webhook_makes_it_again(
    client, journal, prod, memory_keyring, capsys
) -> None:
    tenant, _ = prod
    webhook = await make_webhook(client, tenant)
    await client.webhooks.delete(webhook["id"])
    deleted = journal.list()[0]
    assert (deleted.kind, deleted.action) == ("webhooks", "delete")
    assert tenant.named("/webhooks", "Orders") == []
    assert await undo(deleted.id) == 0
    (back,) = tenant.named("/webhooks", "Orders")
    assert back["id"] != webhook["id"]
    for field in ("url", "notify_email"):
        assert back[field] == webhook[field]
    assert sorted(back["events"]) == sorted(webhook["events"])
    assert back["status"] == "enabled"
    assert "starts enabled" in capsys.readouterr().out
