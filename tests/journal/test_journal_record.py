"""The journal after each change path (client, apply, push), without any key in it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

from estate_helpers import PROXY_CODE

from console.cli import main
from console.journal.sealed import masked
from console.journal.store import ChangeJournal


def two_days_ago() -> str:
    return (datetime.now(UTC) - timedelta(days=2)).isoformat()


def journal_bytes(journal: ChangeJournal) -> bytes:
    """The file as anyone could read it (with what SQLite has not yet folded in)."""
    journal.close()
    return b"".join(p.read_bytes() for p in journal.path.parent.glob(journal.path.name + "*"))


async def test_a_create_is_recorded_before_it_is_sent_and_completed_without_its_key(
    client, journal, prod
) -> None:
    _tenant, bootstrap_key = prod
    seen_pending = []
    record = journal.record

    def spy(change):
        change_id = record(change)
        seen_pending.append(journal.get(change_id).outcome)
        return change_id

    journal.record = spy  # type: ignore[method-assign]
    created = await client.applications.create(
        {"name": "Batch", "type": "private", "permissions": ["token:read"]}
    )
    assert created.key and len(created.key) > 8
    assert seen_pending == ["pending"]
    (change,) = journal.list()
    assert (change.kind, change.action, change.name, change.outcome) == (
        "applications",
        "create",
        "Batch",
        "ok",
    )
    assert (change.profile, change.origin, change.tenant) == ("prod", "console", "Prod")
    assert change.after["id"] == str(created.id) and change.result_id == str(created.id)
    assert "key" not in change.after
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
    data = journal_bytes(journal)
    assert created.key.encode() not in data
    assert bootstrap_key.encode() not in data


async def test_an_injected_key_never_reaches_the_journal(client, journal, prod) -> None:
    """A key inside code, configuration and a nested `key` field is kept out, by name and
    by value (the session's own key and every key the service returned)."""
    tenant, bootstrap_key = prod
    app = await client.applications.create(
        {"name": "Injected", "type": "private", "permissions": ["token:read"]}
    )
    assert app.key
    (proxy,) = tenant.named("/proxies", "Checkout")
    body = {
        "name": "Checkout",
        "destination_url": proxy["destination_url"],
        "request_transform": {"code": f"// {app.key}\n// {bootstrap_key}\n" + PROXY_CODE},
        "configuration": {"API_KEY": app.key, "REGION": "eu", "key": "also-a-key-value"},
        "require_auth": True,
        "application": {"id": str(app.id)},
    }
    updated = await client.proxies.update(proxy["id"], body)
    regenerated = await client.applications.regenerate(app.id)
    assert regenerated.key and regenerated.key != app.key
    changes = journal.list()
    assert [c.action for c in changes] == ["regenerate", "update", "create"]
    update = changes[1]
    assert update.before["request_transform"]["code"] == PROXY_CODE  # as read before
    # Every configuration value is concealed (sealed: the test keyring holds the journal key).
    assert masked(update.after["configuration"]) == {
        "API_KEY": "***",
        "REGION": "***",
        "key": "***",
    }
    assert all(v.get("sealed") for v in update.after["configuration"].values())
    assert "***" in update.after["request_transform"]["code"]
    assert "key" not in update.after  # the proxy's own invocation key
    assert updated.key  # which the service did return
    data = journal_bytes(journal)
    for secret in (app.key, regenerated.key, bootstrap_key, updated.key, "also-a-key-value"):
        assert secret.encode() not in data


async def test_a_delete_keeps_the_body_last_read_and_a_failure_its_outcome(
    client, journal, prod
) -> None:
    tenant, _ = prod
    (formula,) = tenant.named("/reactor-formulas", "Card check")
    page = await client.reactor_formulas.list(size=100)  # what the console last read
    assert any(str(f.id) == formula["id"] for f in page.data)
    await client.reactor_formulas.delete(formula["id"])
    from console.client import NotFound

    with contextlib.suppress(NotFound):
        await client.reactor_formulas.delete(formula["id"])
    failed, deleted = journal.list()
    assert deleted.before["code"] == formula["code"]
    assert deleted.before["configuration"] == formula["configuration"]
    assert (deleted.outcome, deleted.after) == ("ok", None)
    assert failed.outcome == "failed" and "404" in (failed.error or "")


def test_apply_records_each_step_as_apply(prod, journal, tmp_path: Path, capsys) -> None:
    _tenant, _ = prod
    exported = tmp_path / "prod.json"
    assert main(["export", "--profile", "prod", "-o", str(exported)]) == 0
    document = json.loads(exported.read_text())
    document["proxies"][0]["destination_url"] = "https://example.com/v2"
    document["applications"].append(
        {"name": "New one", "type": "private", "permissions": ["token:read"], "rules": []}
    )
    exported.write_text(json.dumps(document))
    assert main(["apply", str(exported), "--profile", "prod", "--yes"]) == 0
    out = capsys.readouterr().out
    changes = journal.list()
    assert {(c.kind, c.action, c.name) for c in changes} == {
        ("applications", "create", "New one"),
        ("proxies", "update", document["proxies"][0]["name"]),
    }
    assert all(c.origin == "apply" and c.profile == "prod" for c in changes)
    (update,) = [c for c in changes if c.action == "update"]
    assert update.before["destination_url"] == "https://example.com/checkout"
    assert update.after["destination_url"] == "https://example.com/v2"
    key_line = [line for line in out.splitlines() if line.strip().startswith("New one:")]
    new_key = key_line[0].split(":", 1)[1].strip()
    assert new_key.encode() not in journal_bytes(journal)


def test_push_records_the_update_as_push(prod, journal, tmp_path: Path, monkeypatch) -> None:
    _tenant, _key = prod
    monkeypatch.setenv("TENANT_CONSOLE_PROFILE", "prod")
    code = tmp_path / "card.js"
    code.write_text("module.exports = async (req) => ({ raw: { ok: 2 } });\n")
    assert main(["push", "formula", "Card check", "--code", str(code)]) == 0
    (change,) = journal.list()
    assert (change.kind, change.action, change.origin) == ("reactor_formulas", "update", "push")
    assert "ok: true" in change.before["code"] and "ok: 2" in change.after["code"]


def test_rotation_drops_old_rows_and_keeps_the_file_under_its_size(tmp_path: Path) -> None:
    from console.client.recording import PendingChange

    def change(name: str) -> PendingChange:
        return PendingChange(
            "PUT",
            "/proxies/1",
            "proxies",
            "update",
            "1",
            name,
            {"code": "x" * 20_000},
            None,
            "p",
            "http://127.0.0.1:1",
            "T",
            "console",
        )

    path = tmp_path / "journal.sqlite3"
    journal = ChangeJournal(path, max_days=30, max_bytes=10**9)
    first = journal.record(change("old"))
    journal.close()
    with sqlite3.connect(path) as db:
        db.execute(
            "UPDATE changes SET started_at = '2000-01-01T00:00:00+00:00' WHERE id = ?", (first,)
        )
    journal = ChangeJournal(path, max_days=30, max_bytes=10**9)
    journal.record(change("new"))
    assert [c.name for c in journal.list()] == ["new"]
    for index in range(40):
        journal.record(change(f"n{index}"))
    journal.close()
    with sqlite3.connect(path) as db:  # the last day's rows are never dropped for size
        db.execute("UPDATE changes SET started_at = ?", (two_days_ago(),))
    small = ChangeJournal(path, max_days=30, max_bytes=200_000)
    kept = small.list(limit=1000)
    assert 0 < len(kept) < 41 and kept[0].name == "n39"
    assert path.stat().st_size <= 200_000


async def test_a_journal_that_cannot_record_stops_the_change(client, journal, prod) -> None:
    from console.client.recording import JournalUnavailable

    def broken(change):
        raise OSError("disk full")

    journal.record = broken  # type: ignore[method-assign]
    tenant, _ = prod
    try:
        await client.applications.create(
            {"name": "Never", "type": "private", "permissions": ["token:read"]}
        )
    except JournalUnavailable as refused:
        assert "not sent" in str(refused)
    else:
        raise AssertionError("the change went out unrecorded")
    assert tenant.named("/applications", "Never") == []


async def test_key_creation_and_revocation_are_recorded_without_the_key(client, journal) -> None:
    app = await client.applications.create(
        {"name": "Rotated", "type": "private", "permissions": ["token:read"]}
    )
    made = await client.application_keys.create(app.id)
    assert made.key and len(made.key) > 8
    await client.application_keys.revoke(app.id, made.id)
    revoke, create, _app = journal.list()
    assert (create.kind, create.action, create.object_id, create.outcome) == (
        "applications",
        "create key",
        str(app.id),
        "ok",
    )
    assert (revoke.action, revoke.outcome) == ("revoke key", "ok")
    data = journal_bytes(journal)
    assert made.key.encode() not in data and app.key.encode() not in data
