"""Changes left pending by a console that stopped (a `kill -9` during apply): at the next
start they are checked against the local service and marked done or failed; one that cannot
be checked stays pending, and history shows it as "unknown — check"."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

from console.cli import main
from console.client import AdminClient
from console.client.recording import PendingChange
from console.journal.settle import CHECK, settle_pending
from console.journal.store import ChangeJournal


async def cli(*argv: str) -> int:
    return await asyncio.to_thread(main, list(argv))


def left_pending(
    journal: ChangeJournal,
    service: Any,
    method: str,
    path: str,
    kind: str,
    action: str,
    *,
    object_id: str | None = None,
    name: str | None = None,
    before: dict[str, Any] | None = None,
    request: dict[str, Any] | None = None,
    tenant: str = "Prod",
    minutes: float = 2,
) -> int:
    """What `record` keeps before a request goes, and nothing after: the console was
    killed. Its start moved `minutes` back."""
    change_id = journal.record(
        PendingChange(
            method,
            path,
            kind,
            action,
            object_id,
            name,
            before,
            request,
            "prod",
            service.base_url,
            tenant,
            "apply",
        )
    )
    started = (datetime.now(UTC) - timedelta(minutes=minutes)).isoformat()
    with sqlite3.connect(journal.path) as db:
        db.execute("UPDATE changes SET started_at = ? WHERE id = ?", (started, change_id))
    return change_id


async def test_pending_changes_are_checked_against_the_service(
    service, prod, journal, capsys
) -> None:
    tenant, key = prod
    # A create that reached the service before the console was killed, and one that did not.
    body = {"name": "Batch", "type": "private", "permissions": ["token:read"]}
    made = left_pending(
        journal,
        service,
        "POST",
        "/applications",
        "applications",
        "create",
        name="Batch",
        request=body,
    )
    tenant.post("/applications", body)
    never = left_pending(
        journal,
        service,
        "POST",
        "/applications",
        "applications",
        "create",
        name="Never made",
        request={**body, "name": "Never made"},
    )
    # An update that was applied, a delete that was and one that was not.
    (formula,) = tenant.named("/reactor-formulas", "Card check")
    new_code = "module.exports = async () => ({ raw: 2 });\n"
    asked = {k: v for k, v in formula.items() if k not in ("id", "created_at", "modified_at")}
    asked["code"] = new_code
    updated = left_pending(
        journal,
        service,
        "PUT",
        f"/reactor-formulas/{formula['id']}",
        "reactor_formulas",
        "update",
        object_id=formula["id"],
        name="Card check",
        before=formula,
        request=asked,
    )
    tenant.put(f"/reactor-formulas/{formula['id']}", asked)
    (web,) = tenant.named("/applications", "Checkout web")
    gone = left_pending(
        journal,
        service,
        "DELETE",
        f"/applications/{web['id']}",
        "applications",
        "delete",
        object_id=web["id"],
        name="Checkout web",
        before=web,
    )
    assert tenant.http.delete(f"/applications/{web['id']}").status_code == 204
    (proxy, *_) = tenant.all("/proxies")
    kept = left_pending(
        journal,
        service,
        "DELETE",
        f"/proxies/{proxy['id']}",
        "proxies",
        "delete",
        object_id=proxy["id"],
        name=proxy["name"],
        before=proxy,
    )
    # What cannot be decided: a regenerated key, a change on another tenant, a recent one.
    regenerated = left_pending(
        journal,
        service,
        "POST",
        f"/applications/{web['id']}/regenerate",
        "applications",
        "regenerate",
        object_id=web["id"],
        name="Checkout web",
    )
    elsewhere = left_pending(
        journal,
        service,
        "DELETE",
        f"/proxies/{proxy['id']}",
        "proxies",
        "delete",
        object_id=proxy["id"],
        name=proxy["name"],
        tenant="Other",
    )
    recent = left_pending(
        journal,
        service,
        "DELETE",
        f"/proxies/{proxy['id']}",
        "proxies",
        "delete",
        object_id=proxy["id"],
        name=proxy["name"],
        minutes=0.2,
    )

    async with AdminClient(service.base_url, key) as client:
        settled = await settle_pending(client, journal, profile="prod")

    assert sorted(settled.done) == sorted([made, updated, gone])
    assert sorted(settled.failed) == sorted([never, kept])
    assert sorted(settled.undecided) == sorted([regenerated, elsewhere])
    outcome = {c.id: c for c in journal.list(limit=100)}
    assert outcome[made].outcome == "ok" and outcome[made].after["name"] == "Batch"
    assert "key" not in outcome[made].after and "regenerate" in outcome[made].error
    assert outcome[updated].outcome == "ok" and outcome[updated].after["code"] == new_code
    assert outcome[gone].outcome == "ok"
    assert outcome[never].outcome == "failed" and outcome[kept].outcome == "failed"
    for still in (regenerated, elsewhere, recent):
        assert outcome[still].outcome == "pending"
    assert "tenant Other" in outcome[elsewhere].error

    capsys.readouterr()
    assert await cli("history", "--profile", "prod") == 0
    table = {
        line.split()[0]: line
        for line in capsys.readouterr().out.splitlines()[1:]
        if line[:1].isdigit()
    }
    for undecided in (regenerated, elsewhere):
        assert table[str(undecided)].rstrip().endswith(CHECK)
    assert table[str(recent)].rstrip().endswith("pending")
    assert table[str(made)].rstrip().endswith("ok")
    assert await cli("history", "--format", "json") == 0
    entries = {e["id"]: e for e in json.loads(capsys.readouterr().out)}
    assert entries[regenerated]["needs_check"] is True
    assert "needs_check" not in entries[recent]


async def test_pending_changes_that_cannot_be_checked_say_so_without_a_connection(
    service, prod, journal, capsys
) -> None:
    """No connection at all (history reads only the file): a stale pending change is still
    shown as "unknown — check", never as if it were under way."""
    left_pending(
        journal,
        service,
        "POST",
        "/proxies",
        "proxies",
        "create",
        name="Lost",
        request={"name": "Lost"},
    )
    assert await cli("history") == 0
    (row,) = [line for line in capsys.readouterr().out.splitlines() if '"Lost"' in line]
    assert row.rstrip().endswith(CHECK)


async def test_a_service_that_does_not_answer_leaves_them_pending(service, prod, journal) -> None:
    """The service unreachable: nothing is decided, nothing marked, and why is noted."""
    import socket

    tenant, key = prod
    (proxy, *_) = tenant.all("/proxies")
    change_id = left_pending(
        journal,
        service,
        "DELETE",
        f"/proxies/{proxy['id']}",
        "proxies",
        "delete",
        object_id=proxy["id"],
        name=proxy["name"],
        tenant="",
    )
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    from console.client._http import NO_RETRY

    with sqlite3.connect(journal.path) as db:
        db.execute(
            "UPDATE changes SET base_url = ? WHERE id = ?", (f"http://127.0.0.1:{port}", change_id)
        )
    async with AdminClient(f"http://127.0.0.1:{port}", key, retry=NO_RETRY) as client:
        settled = await settle_pending(client, journal, profile="prod")
    assert settled.undecided == [change_id]
    change = journal.get(change_id)
    assert change is not None and change.outcome == "pending"
    assert "did not answer" in (change.error or "")


async def test_apply_checks_what_a_killed_apply_left_pending(
    service, prod, journal, tmp_path, capsys
) -> None:
    """The report's case: `apply` killed after its create reached the service; the next
    `apply` marks it done and says its key was never shown."""
    tenant, _ = prod
    body = {"name": "Auditor", "type": "private", "permissions": ["token:read"]}
    change_id = left_pending(
        journal,
        service,
        "POST",
        "/applications",
        "applications",
        "create",
        name="Auditor",
        request=body,
    )
    tenant.post("/applications", body)
    exported = tmp_path / "estate.yaml"
    assert await cli("export", "--profile", "prod", "-o", str(exported)) == 0
    capsys.readouterr()
    assert await cli("apply", str(exported), "--profile", "prod", "--yes") == 0
    err = capsys.readouterr().err
    assert f"Change {change_id}" in err and "marked done" in err and "regenerate" in err
    change = journal.get(change_id)
    assert change is not None and change.outcome == "ok"


async def test_one_start_checks_a_bounded_number_of_changes(service, prod, journal) -> None:
    from console.journal.settle import MAX_CHECKS

    _, key = prod
    ids = [
        left_pending(
            journal,
            service,
            "POST",
            "/proxies",
            "proxies",
            "create",
            name=f"Lost {n}",
            request={"name": f"Lost {n}"},
        )
        for n in range(MAX_CHECKS + 5)
    ]
    async with AdminClient(service.base_url, key) as client:
        settled = await settle_pending(client, journal, profile="prod")
    assert sorted(settled.failed) == ids[:MAX_CHECKS]  # the oldest first
    for change_id in ids[MAX_CHECKS:]:
        change = journal.get(change_id)
        assert change is not None and change.outcome == "pending" and change.error is None
