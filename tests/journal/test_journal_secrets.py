"""Proxy configuration values never reach the journal in clear (issue 33): `apply` of a proxy
whose configuration holds credentials under every kind of name, then a change of them, leaves
none of the values in the journal file, `history` or `history --format json`; undo restores
them with the journal key of the (in-memory) keyring, and says it cannot where there was none.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import keyring.core
import pytest
from keyring.backends import fail
from undo_support import undo

from console.cli import main
from console.journal.sealed import KEYRING_NAME, KEYRING_SERVICE, masked
from console.journal.store import ChangeJournal

CONFIGURATION = {
    "ADYEN_API_KEY": "AQE1adyen-live-7f3c9e1b",
    "STRIPE_SECRET_KEY": "sk_live_51stripe0a9b8c7d",
    "clientSecret": "client-secret-4d2e6f8a",
    "privateKey": "MIIEvQprivate-key-9b1c2d",
    "ACCESS_TOKEN": "access-token-e5f6a7b8",
    "Authorization": "Bearer bearer-1c2d3e4f",
    "x-api-key": "x-api-key-9a8b7c6d",
    "REGION": "innocuous-region-5e4d",  # innocuous names hold secrets too
    "MERCHANT_ACCOUNT": "AcmePaymentsECOM-31",
}
CHANGED = {**CONFIGURATION, "STRIPE_SECRET_KEY": "sk_live_51rotated-11aa22bb", "REGION": "r-2-77cc"}
NAME = "Payments"


def single(proxy: dict[str, Any]) -> dict[str, Any]:
    """A proxy as read, as a body: its single transforms without the pipelines the service
    reads back beside them (a request holds one or the other)."""
    return {
        k: v for k, v in proxy.items() if k not in ("request_transforms", "response_transforms")
    }


def every_value() -> list[str]:
    return sorted({*CONFIGURATION.values(), *CHANGED.values()})


def journal_bytes(journal: ChangeJournal) -> bytes:
    """The file as anyone could read it (and SQLite's side files, if any)."""
    journal.close()
    return b"".join(p.read_bytes() for p in journal.path.parent.glob(journal.path.name + "*"))


def apply_proxy(tmp_path: Path, tenant: Any, configuration: dict[str, str]) -> None:
    """`tenant-console apply` of the exported tenant with proxy NAME holding `configuration`."""
    exported = tmp_path / "prod.json"
    exported.unlink(missing_ok=True)
    assert main(["export", "--profile", "prod", "-o", str(exported)]) == 0
    document = json.loads(exported.read_text())
    (checkout,) = [p for p in document["proxies"] if p["name"] == "Checkout"]
    proxies = [p for p in document["proxies"] if p["name"] != NAME]
    document["proxies"] = [*proxies, {**checkout, "name": NAME, "configuration": configuration}]
    exported.write_text(json.dumps(document))
    assert main(["apply", str(exported), "--profile", "prod", "--yes"]) == 0
    exported.unlink()


def history_output(capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert main(["history"]) == 0
    assert main(["history", "--format", "json"]) == 0
    return capsys.readouterr().out


def assert_nowhere(values: list[str], *places: bytes | str) -> None:
    for place in places:
        data = place.encode() if isinstance(place, str) else place
        found = [v for v in values if v.encode() in data]
        assert found == []


async def test_configuration_values_are_sealed_in_the_journal_and_undo_restores_them(
    prod, journal, tmp_path: Path, capsys, memory_keyring
) -> None:
    tenant, _ = prod
    await asyncio.to_thread(apply_proxy, tmp_path, tenant, CONFIGURATION)
    await asyncio.to_thread(apply_proxy, tmp_path, tenant, CHANGED)
    (proxy,) = tenant.named("/proxies", NAME)
    assert proxy["configuration"] == CHANGED
    update, create = journal.list()[:2]
    assert (create.action, update.action) == ("create", "update")
    # A journal key of the console's own went into the keyring, apart from the profiles' keys.
    assert memory_keyring.get_password(KEYRING_SERVICE, KEYRING_NAME)

    out = await asyncio.to_thread(history_output, capsys)
    assert_nowhere(every_value(), journal_bytes(journal), out)
    # History says which values changed, never what they are.
    assert "configuration.STRIPE_SECRET_KEY: *** -> ***" in out
    assert "configuration.REGION: *** -> ***" in out
    assert "configuration.ACCESS_TOKEN: *** -> ***" not in out  # unchanged
    assert "configuration: ACCESS_TOKEN, ADYEN_API_KEY" in out  # what the create made
    assert "(values not shown)" in out
    entries = json.loads(out[out.index("[\n") :])
    (entry,) = [e for e in entries if e["id"] == update.id]
    assert entry["after"]["configuration"] == dict.fromkeys(CHANGED, "***")
    assert entry["configuration_restorable"] is True

    assert await undo(update.id) == 0
    (back,) = tenant.named("/proxies", NAME)
    assert back["configuration"] == CONFIGURATION
    tenant.http.delete(f"/proxies/{back['id']}").raise_for_status()
    assert_nowhere(every_value(), journal_bytes(journal), history_output(capsys))


async def test_a_deleted_proxy_comes_back_with_its_sealed_configuration(
    client, journal, prod, capsys
) -> None:
    tenant, _ = prod
    created = tenant.proxy(NAME, None, configuration=CONFIGURATION)
    await client.proxies.delete(created["id"])
    (deleted,) = journal.list()
    assert_nowhere(every_value(), journal_bytes(journal), history_output(capsys))
    assert await undo(deleted.id) == 0
    (back,) = tenant.named("/proxies", NAME)
    assert back["configuration"] == CONFIGURATION
    assert_nowhere(every_value(), journal_bytes(journal), history_output(capsys))


async def test_without_a_keyring_values_are_masked_and_undo_says_it_cannot_restore_them(
    client, journal, prod, capsys, memory_keyring, monkeypatch
) -> None:
    tenant, _ = prod
    created = tenant.proxy(NAME, None, configuration=CONFIGURATION)
    await client.proxies.get(created["id"])
    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())
    await client.proxies.update(created["id"], {**single(created), "configuration": CHANGED})
    await client.proxies.delete(created["id"])
    delete, update = journal.list()
    out = history_output(capsys)
    assert_nowhere(every_value(), journal_bytes(journal), out)
    assert "undo cannot restore them" in out
    entry = next(e for e in json.loads(out[out.index("[\n") :]) if e["id"] == update.id)
    assert entry["configuration_restorable"] is False
    assert entry["before"]["configuration"] == dict.fromkeys(CONFIGURATION, "***")

    # The profile's key is back (undo needs it), but the journal never had a key: the values
    # were masked, not sealed.
    monkeypatch.setattr(keyring.core, "_keyring_backend", memory_keyring)
    assert await undo(delete.id) == 0
    out = capsys.readouterr().out
    assert "undo cannot restore them" in out and "configuration.STRIPE_SECRET_KEY" in out
    (back,) = tenant.named("/proxies", NAME)
    assert not back["configuration"]  # it comes back without them, never with ***
    assert_nowhere(every_value(), journal_bytes(journal), out)


async def test_a_service_cannot_smuggle_a_value_past_the_journal_as_a_marker(
    client, journal, prod
) -> None:
    """A configuration value shaped like the journal's own marker is concealed like any."""
    tenant, _ = prod
    smuggled = {"concealed": "1", "sealed": "smuggled-secret-value-1234"}
    created = tenant.proxy(NAME, None)
    # The local service keeps strings only; the hosted one could send anything: a journal
    # write of such a body, as the client would record it.
    from console.client.recording import PendingChange

    change_id = journal.record(
        PendingChange(
            "PUT",
            f"/proxies/{created['id']}",
            "proxies",
            "update",
            created["id"],
            NAME,
            {**created, "configuration": {"TOKEN": smuggled}},
            {"configuration": {"TOKEN": smuggled}},
            "prod",
            str(tenant.http.base_url),
            "Prod",
            "console",
        )
    )
    journal.complete(change_id, outcome="ok", after={"configuration": {"TOKEN": smuggled}})
    assert b"smuggled-secret-value-1234" not in journal_bytes(journal)


async def test_the_journal_key_is_read_while_the_event_loop_runs_on(
    client, journal, prod, memory_keyring, monkeypatch
) -> None:
    """The keyring may wait on a password: the journal reads its key in a thread, so the
    console's event loop (its UI) goes on meanwhile. Here the keyring answers only once the
    loop has run a step of its own; a read on the loop would never see it and mask."""
    tenant, _ = prod
    monkeypatch.setenv("TENANT_CONSOLE_KEYRING_TIMEOUT", "10")
    created = tenant.proxy(NAME, None, configuration=CONFIGURATION)
    asked, answered = threading.Event(), threading.Event()
    real = memory_keyring.get_password

    def slow(service: str, username: str) -> str | None:
        if service == KEYRING_SERVICE:
            asked.set()
            answered.wait(10)
        return real(service, username)

    monkeypatch.setattr(memory_keyring, "get_password", slow)
    write = asyncio.ensure_future(client.proxies.delete(created["id"]))
    assert await asyncio.to_thread(asked.wait, 10)
    answered.set()  # the loop ran this while the keyring was being asked
    await write
    (deleted,) = journal.list()
    assert all("sealed" in v for v in deleted.before["configuration"].values())


def test_a_journal_of_an_older_console_has_its_clear_values_masked_once_opened(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """Rows written in clear before this console (as issue 33 found them) are masked when
    the file is opened: the file, history and its JSON hold none of the values after."""
    from console.client.recording import PendingChange
    from console.journal.store import open_journal

    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    journal = open_journal()
    body = {"name": NAME, "configuration": CONFIGURATION}
    change_id = journal.record(
        PendingChange(
            "PUT",
            "/proxies/x",
            "proxies",
            "update",
            "x",
            NAME,
            body,
            body,
            "prod",
            "http://127.0.0.1:9",
            "Prod",
            "console",
        )
    )
    journal.complete(change_id, outcome="ok", after={**body, "configuration": CHANGED})
    journal.close()
    with sqlite3.connect(journal.path) as db:  # as an older console wrote it
        db.execute(
            "UPDATE changes SET before = ?, request = ?, after = ?",
            (json.dumps(body), json.dumps(body), json.dumps({**body, "configuration": CHANGED})),
        )
        db.execute("PRAGMA user_version = 0")
    db.close()
    assert CONFIGURATION["ADYEN_API_KEY"].encode() in journal.path.read_bytes()

    out = history_output(capsys)
    assert_nowhere(every_value(), journal_bytes(journal), out)
    (entry,) = json.loads(out[out.index("[\n") :])
    assert entry["configuration_restorable"] is False
    assert "undo cannot restore them" in out


async def test_a_pending_change_settled_later_keeps_no_value_in_clear(
    service, prod, journal, capsys
) -> None:
    """A proxy update left pending (the console was killed) is checked against the service
    at the next start: the object as found goes in the journal concealed too, and the check
    compares the values it asked for although the journal holds them sealed."""
    from test_settle import left_pending

    from console.client import AdminClient
    from console.journal.settle import settle_pending

    tenant, key = prod
    created = tenant.proxy(NAME, None, configuration=CONFIGURATION)
    asked = {**single(created), "configuration": CHANGED}
    change_id = left_pending(
        journal,
        service,
        "PUT",
        f"/proxies/{created['id']}",
        "proxies",
        "update",
        object_id=created["id"],
        name=NAME,
        before=created,
        request=asked,
    )
    tenant.put(f"/proxies/{created['id']}", asked)  # it reached the service
    async with AdminClient(service.base_url, key) as client:
        await settle_pending(client, journal, profile="prod")
    settled = journal.get(change_id)
    assert settled is not None and settled.outcome == "ok"
    assert masked(settled.after["configuration"]) == dict.fromkeys(CHANGED, "***")
    assert_nowhere(every_value(), journal_bytes(journal), history_output(capsys))
