"""The demo tenants' webhooks (`serve --demo-data`, `new-tenant --demo-data`): a "Local
listen" webhook delivering to `tenant-console webhooks listen --no-register --port 8765`,
subscribed to the events of the changes the console makes there, and (production's only) a
webhook the service disabled, with its reason. The console's own key may manage them."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from demo_service import FROZEN
from service_http import KEY_HEADER

from console.cli import main

pytestmark = pytest.mark.slow  # a demo service of its own


def _webhooks(base_url: str, key: str) -> list[dict[str, Any]]:
    with httpx.Client(base_url=base_url, headers={KEY_HEADER: key}, timeout=30.0) as client:
        answer = client.get("/webhooks")
    assert answer.status_code == 200, answer.text
    return list(answer.json()["data"])


def test_the_demo_has_a_local_listen_webhook_and_a_disabled_one(demo) -> None:  # type: ignore[no-untyped-def]
    from console.models.demo import DEMO_LISTEN_PORT, DEMO_LISTEN_URL
    from console.models.webhooks import EVENT_TYPES, MAX_WEBHOOKS

    hooks = {hook["name"]: hook for hook in _webhooks(demo.base_url, demo.key)}
    assert sorted(hooks) == ["Ledger sync", "Local listen"]
    assert len(hooks) < MAX_WEBHOOKS  # `listen` (registering itself) still has room
    listen = hooks["Local listen"]
    assert listen["status"] == "enabled" and not listen.get("disabled_reason")
    assert listen["url"] == DEMO_LISTEN_URL == f"http://127.0.0.1:{DEMO_LISTEN_PORT}/"
    assert set(listen["events"]) <= set(EVENT_TYPES)
    assert {"application.updated", "proxy.updated", "application.key.created"} <= set(
        listen["events"]
    )
    ledger = hooks["Ledger sync"]
    assert ledger["status"] == "disabled"
    assert ledger["disabled_reason"].startswith("Disabled after 10 failed deliveries")
    assert ledger["notify_email"]
    assert all(hook["tenant_id"] == demo.tenant_id for hook in hooks.values())


def test_a_change_on_the_demo_is_queued_for_the_local_listen_webhook(demo) -> None:  # type: ignore[no-untyped-def]
    """The console's own key holds webhook:* and its changes emit events to "Local listen"
    (nothing listens in this test: the delivery is queued, the write unaffected)."""
    headers = {KEY_HEADER: demo.key}
    with httpx.Client(base_url=demo.base_url, headers=headers, timeout=30.0) as client:
        me = client.get("/applications/key").json()
        assert {"webhook:read", "webhook:create", "webhook:update", "webhook:delete"} <= set(
            me["permissions"]
        )
        tenant = client.get("/tenants/self").json()
        answer = client.put("/tenants/self", json={"name": tenant["name"]})
        assert answer.status_code == 200, answer.text
    store = demo._store()
    try:
        with store.read() as conn:
            queued = conn.execute(
                "SELECT webhook_events.type, webhooks.name FROM webhook_deliveries"
                " JOIN webhook_events ON webhook_events.id = webhook_deliveries.event_id"
                " JOIN webhooks ON webhooks.id = webhook_deliveries.webhook_id"
            ).fetchall()
    finally:
        store.close()
    assert ("tenant.updated", "Local listen") in [tuple(row) for row in queued]


def test_the_staging_twin_has_only_its_own_local_listen_webhook(demo, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", FROZEN)
    argv = ["new-tenant", "--data-dir", str(demo.data_dir), "--demo-data", "Acme (staging)"]
    assert main(argv) == 0
    staging = json.loads(capsys.readouterr().out)
    hooks = _webhooks(demo.base_url, staging["key"])
    assert [hook["name"] for hook in hooks] == ["Local listen"]
    production = _webhooks(demo.base_url, demo.key)
    assert hooks[0]["id"] not in {hook["id"] for hook in production}


def test_the_demo_s_webhooks_are_the_same_on_every_run(start_service) -> None:  # type: ignore[no-untyped-def]
    """Two fresh demos (the module's demo has had changes delivered meanwhile)."""
    runs = [start_service(demo_data=True, frozen_now=FROZEN) for _ in range(2)]
    assert _webhooks(runs[0].base_url, runs[0].key) == _webhooks(runs[1].base_url, runs[1].key)
