"""Undo through `tenant-console undo`: a deleted proxy, a deleted application (its proxies
linked again), an update (and one changed since), a create; what cannot be undone."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from estate_helpers import PROXY_CODE

from console.cli import main
from console.journal.undo import CannotUndo, plan_undo


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


async def cli(*argv: str) -> int:
    """`main([...])` off the event loop (it runs its own)."""
    return await asyncio.to_thread(main, list(argv))


async def undo(change_id: int, *answers: str) -> int:
    """`tenant-console undo CHANGE_ID` answering `answers` on a terminal."""
    from console.cli import parse_arguments
    from console.journal.cli import undo as run

    args = parse_arguments(["undo", str(change_id)])
    stdin = Terminal("".join(a + "\n" for a in answers))
    return await asyncio.to_thread(run, args, stdin)


async def test_undo_of_a_deleted_proxy_brings_its_code_and_configuration_back(
    client, journal, prod, capsys
) -> None:
    tenant, _ = prod
    (proxy,) = tenant.named("/proxies", "Checkout")
    await client.proxies.get(proxy["id"])
    await client.proxies.delete(proxy["id"])
    (deleted,) = journal.list()
    assert tenant.named("/proxies", "Checkout") == []
    assert await cli("undo", str(deleted.id), "--yes") == 0
    (back,) = tenant.named("/proxies", "Checkout")
    assert back["id"] != proxy["id"]
    assert back["request_transform"] == {"code": PROXY_CODE}
    assert back["configuration"] == proxy["configuration"]
    assert back["application_id"] == proxy["application_id"]
    assert (back["destination_url"], back["require_auth"]) == (
        proxy["destination_url"],
        proxy["require_auth"],
    )
    undone = journal.list()[0]
    assert (undone.action, undone.origin, undone.undoes) == ("create", "undo", deleted.id)
    assert "Created proxy" in capsys.readouterr().out


async def test_undo_of_a_deleted_application_gives_a_new_key_and_relinks_its_proxies(
    client, journal, prod, capsys
) -> None:
    tenant, _ = prod
    (web,) = tenant.named("/applications", "Checkout web")
    await client.applications.delete(web["id"])
    (deleted,) = journal.list()
    assert deleted.related["linked_proxies"] == [
        {"id": tenant.named("/proxies", "Checkout")[0]["id"], "name": "Checkout"}
    ]
    assert tenant.named("/proxies", "Checkout")[0]["application_id"] is None
    assert await undo(deleted.id, "y", "y") == 0
    out = capsys.readouterr().out
    (back,) = tenant.named("/applications", "Checkout web")
    assert back["id"] != web["id"]
    assert back["rules"] == web["rules"] and back["permissions"] == web["permissions"]
    assert tenant.named("/proxies", "Checkout")[0]["application_id"] == back["id"]
    assert "New key (shown once: store it now):" in out
    new_key = out.split("New key (shown once: store it now):")[1].split(":", 1)[1].split()[0]
    assert len(new_key) > 16
    assert new_key.encode() not in journal.path.read_bytes()
    kinds = [(c.kind, c.action, c.origin) for c in journal.list()]
    assert kinds[:2] == [("proxies", "update", "undo"), ("applications", "create", "undo")]


async def test_undo_of_an_update_writes_the_recorded_state_back(client, journal, prod) -> None:
    tenant, _ = prod
    (formula,) = tenant.named("/reactor-formulas", "Card check")
    body = {**formula, "code": "module.exports = async () => ({ raw: 1 });\n"}
    await client.reactor_formulas.update(formula["id"], body)
    (update,) = journal.list()
    assert await cli("undo", str(update.id), "--yes") == 0
    (now,) = tenant.named("/reactor-formulas", "Card check")
    assert now["code"] == formula["code"] and now["id"] == formula["id"]
    assert journal.list()[0].undoes == update.id


async def test_undo_of_an_update_changed_since_shows_the_diff_and_asks(
    client, journal, prod, capsys
) -> None:
    tenant, _ = prod
    (formula,) = tenant.named("/reactor-formulas", "Card check")
    await client.reactor_formulas.update(formula["id"], {**formula, "description": "Mine"})
    (update,) = journal.list()
    tenant.put(
        f"/reactor-formulas/{formula['id']}",
        {**formula, "description": "Theirs", "code": "module.exports = async () => ({});\n"},
    )
    assert await undo(update.id, "n") == 1
    out = capsys.readouterr().out
    assert "changed after this change was made" in out
    assert "description: Theirs -> Says ok" in out
    assert "+  return { ok: true };" in out  # the code's line diff, now -> restored
    assert tenant.named("/reactor-formulas", "Card check")[0]["description"] == "Theirs"
    assert await undo(update.id, "y") == 0
    assert tenant.named("/reactor-formulas", "Card check")[0]["code"] == formula["code"]


async def test_undo_of_a_create_deletes_after_asking(client, journal, prod, capsys) -> None:
    tenant, _ = prod
    created = await client.applications.create(
        {"name": "Temp", "type": "private", "permissions": ["token:read"]}
    )
    (change,) = journal.list()
    assert await undo(change.id, "n") == 1
    assert tenant.named("/applications", "Temp")
    assert "Delete application" in capsys.readouterr().out
    assert await undo(change.id, "y") == 0
    assert tenant.named("/applications", "Temp") == []
    assert journal.list()[0].object_id == str(created.id)


async def test_what_cannot_be_undone_says_so(client, journal, prod, capsys) -> None:
    _tenant, _ = prod
    created = await client.applications.create(
        {"name": "Rotated", "type": "private", "permissions": ["token:read"]}
    )
    await client.applications.regenerate(created.id)
    regenerate = journal.list()[0]
    with pytest.raises(CannotUndo, match="regenerated key cannot be undone"):
        plan_undo(regenerate)
    assert await cli("undo", str(regenerate.id), "--yes") == 1
    assert "cannot be undone" in capsys.readouterr().err
    assert await cli("undo", str(regenerate.id), "--yes", "--read-only") == 1
    assert "Read-only mode" in capsys.readouterr().err
    assert await cli("undo", "9999", "--yes") == 1


async def test_a_key_made_or_revoked_says_how_it_is_taken_back(client, journal, prod) -> None:
    created = await client.applications.create(
        {"name": "Keyed", "type": "private", "permissions": ["token:read"]}
    )
    made = await client.application_keys.create(created.id)
    await client.application_keys.revoke(created.id, made.id)
    revoke, create = journal.list()[:2]
    with pytest.raises(CannotUndo, match="revoked key cannot be undone"):
        plan_undo(revoke)
    with pytest.raises(CannotUndo, match="taken back by revoking it"):
        plan_undo(create)


def update_id(journal) -> int:
    return next(c.id for c in journal.list() if c.action == "update")


async def test_history_lists_newest_first_as_a_table_and_json(client, journal, prod, capsys):
    tenant, _ = prod
    (formula,) = tenant.named("/reactor-formulas", "Card check")
    await client.reactor_formulas.update(formula["id"], {**formula, "description": "New\x1b[31m"})
    await client.applications.create(
        {"name": "Later", "type": "private", "permissions": ["token:read"]}
    )
    assert await cli("history", "--limit", "5") == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "WHEN", "PROFILE", "TENANT", "CHANGE", "VIA", "OUTCOME"]
    assert 'create application "Later"' in lines[1]
    assert "      name: Later" in lines  # what a create made
    (update,) = [i for i, line in enumerate(lines) if "update reactor formula" in line]
    assert update > 1 and lines[update].startswith(f"{update_id(journal)} ")
    assert "description: Says ok -> New\\x1b[31m" in out and "\x1b" not in out
    assert await cli("history", "--format", "json", "--limit", "1", "--profile", "prod") == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert (entry["action"], entry["name"], entry["profile"]) == ("create", "Later", "prod")
    assert "key" not in entry["after"]
    assert await cli("history", "--profile", "other") == 0
    assert "No changes" in capsys.readouterr().out


async def test_undo_of_a_tenant_update_writes_its_name_and_settings_back(
    client, journal, prod
) -> None:
    tenant, _ = prod
    before = tenant.http.get("/tenants/self").json()
    settings = {**before["settings"], "region_hint": "us-2"}
    await client.tenant.update({"name": "Renamed", "settings": settings})
    (update,) = journal.list()
    assert (update.kind, update.object_id) == ("tenant", "self")
    assert await cli("undo", str(update.id), "--yes") == 0
    now = tenant.http.get("/tenants/self").json()
    assert (now["name"], now["settings"]) == (before["name"], before["settings"])


async def test_undo_of_a_deleted_tenant_says_it_cannot(client, journal, prod, capsys) -> None:
    from console.client.recording import PendingChange
    from console.journal.store import OK

    change_id = journal.record(
        PendingChange(
            "DELETE",
            "/tenants/self",
            "tenant",
            "delete",
            "self",
            "Prod",
            {"name": "Prod"},
            None,
            "prod",
            client.base_url,
            "Prod",
            "console",
        )
    )
    journal.complete(change_id, outcome=OK)
    assert await cli("undo", str(change_id), "--yes") == 1
    assert "A deleted tenant cannot be restored" in capsys.readouterr().err


async def test_undo_of_a_proxy_update_restores_its_pipelines_timeout_and_detokenization(
    client, journal, prod
) -> None:
    """Everything the update changed goes back: both pipelines step by step, and the
    options no form shows (`timeout`, `disable_detokenization`)."""
    tenant, _ = prod
    second = "module.exports = async (req) => ({ body: req.args.body });\n"
    mask = {"type": "mask", "matcher": "regex", "expression": "(\\d{4})$", "replacement": "*"}
    proxy = tenant.proxy(
        "Piped",
        None,
        request_transform=None,
        request_transforms=[{"code": PROXY_CODE}, {"code": second}],
        response_transforms=[mask],
        timeout=12,
        disable_detokenization=True,
    )
    await client.proxies.get(proxy["id"])
    await client.proxies.update(
        proxy["id"],
        {
            "name": "Piped",
            "destination_url": proxy["destination_url"],
            "request_transforms": [{"code": second}],
            "response_transforms": [],
            "configuration": {"REGION": "us"},
            "timeout": 3,
            "disable_detokenization": False,
        },
    )
    (changed,) = tenant.named("/proxies", "Piped")
    assert (changed["timeout"], changed["disable_detokenization"]) == (3, False)
    assert (len(changed["request_transforms"]), changed["response_transforms"]) == (1, [])
    (updated,) = journal.list()
    assert (updated.kind, updated.action) == ("proxies", "update")
    assert await cli("undo", str(updated.id), "--yes") == 0
    (back,) = tenant.named("/proxies", "Piped")
    assert back["id"] == proxy["id"]
    assert back["request_transforms"] == proxy["request_transforms"]
    assert back["response_transforms"] == proxy["response_transforms"]
    assert len(back["request_transforms"]) == 2 and back["response_transforms"][0]["type"] == "mask"
    assert (back["timeout"], back["disable_detokenization"]) == (12, True)
    assert back["configuration"] == proxy["configuration"]


def test_undo_bodies_send_back_what_was_written_never_what_was_reported() -> None:
    from console.kinds.undo_hooks import application_creation, application_update, proxy_fields

    proxy = {
        "id": "p",
        "name": "Edge",
        "timeout": 12,
        "disable_detokenization": True,
        "state": "active",
        "requested": None,
        "proxy_host": "https://edge.example.com",
        "request_transform": {"code": PROXY_CODE},
        "request_transforms": [{"code": PROXY_CODE}],
    }
    body = proxy_fields(proxy)
    assert (body["timeout"], body["disable_detokenization"]) == (12, True)
    assert not {"id", "state", "requested", "proxy_host", "request_transform"} & set(body)
    application = {"id": "a", "name": "App", "type": "private", "create_key": False}
    assert "create_key" not in application_update(application)
    assert "create_key" not in application_creation(application)
