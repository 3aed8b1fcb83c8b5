"""`tenant-console webhooks` in-process against the real local service: list (table, JSON,
CSV), show, create, update, enable, disable, delete (asked first unless --yes), event types,
trigger; --events checked strictly, naming the bad type (2); no such webhook (3); read-only
refused; every change journalled and undone; a disabled webhook's reason shown; trigger on a
service without the route (1, saying what to do instead)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from console.cli import main
from console.journal.store import open_journal
from console.models.webhooks import EVENT_TYPES, Webhook
from console.webhooks.cli import details_text, list_text


@pytest.fixture(autouse=True)
def own_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The change journal and config of this test only; no profile: the environment's key."""
    data = tmp_path / "data"
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(data))
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("TENANT_CONSOLE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TENANT_CONSOLE_PROFILE", raising=False)
    return data


@pytest.fixture
def http(service: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A tenant of its own, the command connected to it through the environment."""
    tenant = service.new_tenant("Webhooks CLI")
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", service.base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", tenant.key)
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": tenant.key}) as client:
        yield client


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["webhooks", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def make(http: Any, name: str = "Orders", **extra: Any) -> dict[str, Any]:
    body = {"name": name, "url": "https://example.com/hooks", "events": ["reactor.created"]}
    made = http.post("/webhooks", json={**body, **extra})
    assert made.status_code == 201, made.text
    return made.json()


def test_list_as_table_json_and_csv(http, capsys) -> None:
    made = make(http, notify_email="ops@example.com")
    code, out, err = run(capsys, "list")
    assert code == 0, err
    header, row = out.splitlines()
    assert header.split() == ["NAME", "STATUS", "EVENTS", "URL", "ID"]
    assert row.split() == ["Orders", "enabled", "reactor.created", made["url"], made["id"]]
    code, out, _ = run(capsys, "list", "--format", "json")
    assert code == 0
    (listed,) = json.loads(out)
    assert (listed["id"], listed["notify_email"], listed["events"]) == (
        made["id"],
        "ops@example.com",
        ["reactor.created"],
    )
    code, out, _ = run(capsys, "list", "--format", "csv")
    assert code == 0
    assert out.splitlines()[0] == "name,status,events,url,notify_email,disabled_reason,id"


def test_show_by_id_or_name_and_not_found(http, capsys) -> None:
    made = make(http)
    code, out, err = run(capsys, "show", made["id"], "--format", "json")
    assert code == 0, err
    assert json.loads(out)["name"] == "Orders"
    code, out, _ = run(capsys, "show", "Orders")
    assert code == 0 and f"Id:            {made['id']}" in out
    code, _, err = run(capsys, "show", "Nobody")
    assert code == 3 and 'no webhook is named "Nobody"' in err
    code, _, err = run(capsys, "show", "0d7e0c8e-0000-4000-8000-000000000000")
    assert code == 3


def test_create_update_enable_disable_delete_each_journalled(http, capsys) -> None:
    code, out, err = run(
        capsys,
        "create",
        "--name",
        "Orders",
        "--url",
        "https://example.com/orders",
        "--events",
        "reactor.created, proxy.created",
        "--notify-email",
        "ops@example.com",
    )
    assert code == 0, err
    assert 'Created webhook "Orders"' in out and "Undo: tenant-console undo" in out
    (made,) = http.get("/webhooks").json()["data"]
    assert sorted(made["events"]) == ["proxy.created", "reactor.created"]

    code, out, err = run(capsys, "update", "Orders", "--url", "https://example.com/v2")
    assert code == 0, err
    (changed,) = http.get("/webhooks").json()["data"]
    assert changed["url"] == "https://example.com/v2"
    assert sorted(changed["events"]) == ["proxy.created", "reactor.created"]  # kept
    assert changed["notify_email"] == "ops@example.com"

    assert run(capsys, "disable", made["id"])[0] == 0
    assert http.get(f"/webhooks/{made['id']}").json()["status"] == "disabled"
    code, out, _ = run(capsys, "disable", made["id"])
    assert code == 0 and "already disabled" in out
    assert run(capsys, "enable", "Orders")[0] == 0
    assert http.get(f"/webhooks/{made['id']}").json()["status"] == "enabled"

    code, out, err = run(capsys, "delete", "Orders", "--yes")
    assert code == 0, err
    assert http.get("/webhooks").json()["data"] == []
    changes = open_journal().list(limit=10)
    assert [(c.kind, c.action, c.origin) for c in changes] == [
        ("webhooks", "delete", "webhooks"),
        ("webhooks", "update", "webhooks"),
        ("webhooks", "update", "webhooks"),
        ("webhooks", "update", "webhooks"),
        ("webhooks", "create", "webhooks"),
    ]
    assert main(["undo", str(changes[0].id), "--yes"]) == 0
    (back,) = http.get("/webhooks").json()["data"]
    assert back["url"] == "https://example.com/v2" and back["id"] != made["id"]


@pytest.mark.parametrize(
    ("events", "named"),
    [
        ("reactor.created,reactor.creatd", "'reactor.creatd'"),
        ("reactor.created,,proxy.created", "empty event type"),
        ("reactor.created,reactor.created", "given twice"),
        ("Not A Type", "'Not A Type' is not an event type"),
    ],
)
def test_bad_events_are_refused_naming_the_value(http, capsys, events: str, named: str) -> None:
    argv = ["create", "--name", "X", "--url", "https://example.com/x", "--events", events]
    code, out, err = run(capsys, *argv)
    assert code == 2 and named in err and out == ""
    assert http.get("/webhooks").json()["data"] == []


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["create", "--name", "X", "--events", "token.created"], "create needs --url"),
        (["create", "--name", "X", "--url", "ftp://x", "--events", "token.created"], "--url"),
        (["update", "X"], "give at least one of"),
        (["update", "X", "--notify-email", "not-an-email"], "--notify-email"),
        (["trigger", "no.such.type"], "not an event type"),
    ],
)
def test_unusable_arguments_exit_2_before_any_request(http, capsys, argv, said) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and said in err


def test_delete_asks_first_and_needs_a_terminal_or_yes(http, capsys, monkeypatch) -> None:
    make(http)
    monkeypatch.setattr("sys.stdin.isatty", lambda: False, raising=False)
    code, _, err = run(capsys, "delete", "Orders")
    assert code == 2 and "add --yes" in err
    assert len(http.get("/webhooks").json()["data"]) == 1


def test_read_only_refuses_changes(http, capsys) -> None:
    make(http)
    code, _, err = run(capsys, "disable", "Orders", "--read-only")
    assert code == 1 and "read-only" in err
    assert http.get("/webhooks").json()["data"][0]["status"] == "enabled"


def test_event_types_as_lines_and_json(http, capsys) -> None:
    code, out, err = run(capsys, "event-types")
    assert code == 0, err
    assert set(EVENT_TYPES) <= set(out.split())
    code, out, _ = run(capsys, "event-types", "--format", "json")
    assert set(EVENT_TYPES) <= set(json.loads(out))


def test_trigger_sends_a_sample_to_the_subscribed_webhooks(http, capsys) -> None:
    made = make(http, url="http://127.0.0.1:9/unreachable")
    code, out, err = run(capsys, "trigger", "reactor.created")
    assert code == 0, err
    assert "1 delivery queued" in out
    code, out, err = run(capsys, "trigger", "proxy.created", "--webhook", made["id"])
    assert code == 0, err
    assert "to the webhook given" in out
    code, out, err = run(capsys, "trigger", "token.created")
    assert code == 0, err
    assert "nothing was sent" in out


async def test_trigger_on_a_service_without_the_route_says_what_to_do(capsys, monkeypatch) -> None:
    import asyncio
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "client"))
    from client_stub import Respond, StubServer

    server = await StubServer(Respond(404, {"title": "Not Found", "status": 404})).start()
    try:
        monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", server.base_url)
        monkeypatch.setenv("TENANT_CONSOLE_API_KEY", "stub-key-0123456789")
        code = await asyncio.to_thread(main, ["webhooks", "trigger", "reactor.created"])
    finally:
        await server.stop()
    err = capsys.readouterr().err
    assert code == 1
    assert "hosted service has no trigger route" in err and "webhooks listen" in err


def test_a_disabled_webhooks_reason_is_shown() -> None:
    disabled = Webhook.model_validate(
        {
            "id": "6f1c7a52-6c55-4a53-a0c5-5d8d7b1f4a10",
            "name": "Orders",
            "url": "https://example.com/h",
            "status": "disabled",
            "events": ["reactor.created"],
            "disabled_reason": "10 deliveries in a row failed (connection refused)\x1b[31m",
        }
    )
    enabled = Webhook.model_validate(
        {"id": "7f1c7a52-6c55-4a53-a0c5-5d8d7b1f4a10", "name": "B", "status": "enabled"}
    )
    table = list_text([disabled, enabled])
    assert table.splitlines()[0].split()[-2:] == ["WHY", "DISABLED"]
    assert "10 deliveries in a row failed" in table and "\x1b" not in table
    details = details_text(disabled)
    assert "Why disabled:  10 deliveries in a row failed" in details and "\x1b" not in details
    assert "Why disabled" not in details_text(enabled)


def test_search_finds_a_webhook_by_name_and_by_url(http, capsys) -> None:
    made = make(http, "Billing events", url="https://hooks.example.com/billing-7c1")
    for query in ("billing ev", "hooks.example.com/billing-7c1"):
        code = main(["search", query, "--kind", "webhooks", "--format", "json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        (found,) = json.loads(out)["results"]
        assert (found["kind"], found["id"], found["name"]) == (
            "webhooks",
            made["id"],
            "Billing events",
        )
    assert main(["search", "nothing-like-it", "--kind", "webhooks"]) == 3
