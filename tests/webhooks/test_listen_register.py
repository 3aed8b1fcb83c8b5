"""`webhooks listen` against the real local service: it registers a webhook for itself (every
event type, or those of --events), prints what the service delivers, and deletes its webhook
however it ends (Ctrl+C, SIGTERM, its output's reader gone); a tenant with five webhooks
already is told so before anything is made."""

from __future__ import annotations

import json
import os
import select
import signal
from typing import Any

import httpx
import pytest
from listen_helpers import LINE_TIMEOUT, ListenProcess

from console.models.webhooks import EVENT_TYPES, MAX_WEBHOOKS

pytestmark = pytest.mark.slow  # each test starts a console process


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Listening")


@pytest.fixture
def api(service: Any, tenant: Any) -> Any:
    with httpx.Client(
        base_url=service.base_url, headers={service.key_header: tenant.key}, timeout=30
    ) as client:
        yield client


@pytest.fixture
def env(service: Any, tenant: Any, tmp_path: Any) -> dict[str, str]:
    """The tenant through the environment (no profile, no keyring)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TENANT_CONSOLE_")}
    clean.update(
        TENANT_CONSOLE_BASE_URL=service.base_url,
        TENANT_CONSOLE_API_KEY=tenant.key,
        TENANT_CONSOLE_CONFIG_DIR=str(tmp_path / "config"),
        HOME=str(tmp_path / "home"),
    )
    return clean


def _webhooks(api: httpx.Client) -> list[dict[str, Any]]:
    answer = api.get("/webhooks")
    answer.raise_for_status()
    return answer.json()["data"]


def _trigger(api: httpx.Client, kind: str) -> None:
    answer = api.post("/webhooks/trigger", json={"type": kind})
    assert answer.status_code == 202, answer.text


@pytest.mark.parametrize("stop_with", [signal.SIGINT, signal.SIGTERM])
def test_listen_registers_itself_prints_and_removes_its_webhook(api, env, stop_with):
    listen = ListenProcess(env=env)
    try:
        url = listen.ready()
        assert f"for {len(EVENT_TYPES)} event types on {url}" in listen.err_seen[-1]
        [webhook] = _webhooks(api)
        port = url.rsplit(":", 1)[1]
        assert webhook["url"] == url + "/"
        assert webhook["name"] == f"tenant-console listen (127.0.0.1:{port})"
        assert sorted(webhook["events"]) == sorted(EVENT_TYPES)
        assert f"Registered webhook {webhook['id']}" in listen.err_seen[0]
        _trigger(api, "reactor.created")
        assert "reactor.created" in listen.stdout_line("reactor.created")
        assert listen.stop(stop_with) == 0
    finally:
        listen.kill()
    assert f"Removed webhook {webhook['id']}." in listen.err_seen
    assert _webhooks(api) == []
    assert not any("Traceback" in line for line in listen.err_seen), listen.err_seen


def test_events_narrow_the_registration(api, env):
    listen = ListenProcess("--events", "proxy.created,reactor.deleted", "--format", "json", env=env)
    try:
        assert "for 2 event types" in listen.stderr_line("Ready!")
        [webhook] = _webhooks(api)
        assert webhook["events"] == ["proxy.created", "reactor.deleted"]
        assert listen.stop() == 0
    finally:
        listen.kill()
    assert _webhooks(api) == []


def test_a_tenant_with_five_webhooks_is_told_so(api, env):
    for number in range(MAX_WEBHOOKS):
        made = api.post(
            "/webhooks",
            json={
                "name": f"Hook {number}",
                "url": f"https://example.com/{number}",
                "events": ["reactor.created"],
            },
        )
        assert made.status_code in (200, 201), made.text
    listen = ListenProcess(env=env)
    try:
        code = listen.finish()
    finally:
        listen.kill()
    assert code == 1
    said = " ".join(listen.err_seen)
    assert "already has 5 webhooks" in said and "Ready!" not in said
    assert len(_webhooks(api)) == MAX_WEBHOOKS


def test_the_webhook_is_removed_when_the_reader_goes_away(api, env):
    """`listen | head -1`: the first line read, the reader gone; the next delivery's line
    cannot be written, and listen ends quietly (141), its webhook removed."""
    read_end, write_end = os.pipe()
    listen = ListenProcess("--events", "reactor.created", env=env, stdout=write_end)
    os.close(write_end)
    try:
        listen.ready()
        _trigger(api, "reactor.created")
        assert select.select([read_end], [], [], LINE_TIMEOUT)[0], "no line within the timeout"
        assert b"reactor.created" in os.read(read_end, 65536)
        os.close(read_end)  # as head does once it has its line
        _trigger(api, "reactor.created")
        code = listen.finish()
    finally:
        listen.kill()
    assert code == 141, listen.err_seen
    assert _webhooks(api) == []


def test_no_register_verifies_with_the_services_key_for_a_webhook_made_by_hand(api, env):
    """The demo's way: a webhook made in the console points at a listen started with
    --no-register, which verifies with the key the local service publishes."""
    listen = ListenProcess("--no-register", "--format", "json", env=env)
    try:
        url = listen.ready()
        assert "(no webhook registered)" in listen.err_seen[-1]
        assert _webhooks(api) == []
        made = api.post(
            "/webhooks",
            json={"name": "By hand", "url": url + "/demo", "events": ["proxy.created"]},
        )
        assert made.status_code in (200, 201), made.text
        _trigger(api, "proxy.created")
        line = json.loads(listen.stdout_line("proxy.created"))
        assert line["verified"] is True and line["event"]["type"] == "proxy.created"
        assert listen.stop() == 0
    finally:
        listen.kill()
    assert [hook["name"] for hook in _webhooks(api)] == ["By hand"]  # not listen's to remove


def test_service_url_verifies_without_a_profile_or_a_key(api, service, tmp_path):
    """The demo's command (its webhook detail shows it): --no-register with --service-url
    reads the local service's public key there, with no profile and no API key anywhere."""
    bare = {k: v for k, v in os.environ.items() if not k.startswith("TENANT_CONSOLE_")}
    bare.update(TENANT_CONSOLE_CONFIG_DIR=str(tmp_path / "config"), HOME=str(tmp_path / "home"))
    listen = ListenProcess(
        "--no-register", "--service-url", service.base_url, "--format", "json", env=bare
    )
    try:
        url = listen.ready()
        made = api.post(
            "/webhooks",
            json={"name": "Demo-like", "url": url + "/", "events": ["reactor.created"]},
        )
        assert made.status_code == 201, made.text
        _trigger(api, "reactor.created")
        line = json.loads(listen.stdout_line("reactor.created"))
        assert line["verified"] is True
        assert listen.stop() == 0
    finally:
        listen.kill()
