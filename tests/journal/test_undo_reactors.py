"""Reactors in the journal: every change recorded (create, update, merge patch, delete) with
its configuration sealed as a proxy's is, and each taken back by `tenant-console undo`; an
application's delete records the reactors that used it, and its undo links them again."""

from __future__ import annotations

import asyncio
from typing import Any

from undo_support import undo, undo_change

from console.cli import main
from console.models import ReactorPatch

CODE = "module.exports = async function (req) {\n  return { raw: req.args };\n};\n"
NEW_CODE = "module.exports = async function (req) {\n  return { raw: 2 };\n};\n"
SECRET = "partner-secret-7f3c9e1b"
NEW_SECRET = "partner-secret-rotated-11aa"


def journal_bytes(journal: Any) -> bytes:
    journal.close()
    return b"".join(p.read_bytes() for p in journal.path.parent.glob(journal.path.name + "*"))


async def make_reactor(client: Any, tenant: Any, name: str = "Enricher") -> dict[str, Any]:
    """A reactor using application "Checkout web", made through the journalling client."""
    (web,) = tenant.named("/applications", "Checkout web")
    created = await client.reactors.create(
        {
            "name": name,
            "code": CODE,
            "application": {"id": web["id"]},
            "configuration": {"API_KEY": SECRET},
        }
    )
    (reactor,) = tenant.named("/reactors", name)
    assert reactor["id"] == str(created.id)
    return reactor


async def test_undo_of_a_created_reactor_deletes_it(client, journal, prod, memory_keyring) -> None:
    tenant, _ = prod
    await make_reactor(client, tenant)
    (created,) = journal.list()
    await undo_change(created, "reactors", "create")
    assert tenant.named("/reactors", "Enricher") == []


async def test_undo_of_an_update_writes_code_and_sealed_configuration_back(
    client, journal, prod, memory_keyring
) -> None:
    tenant, _ = prod
    reactor = await make_reactor(client, tenant)
    body = {
        "name": "Enricher",
        "code": NEW_CODE,
        "application": {"id": reactor["application"]["id"]},
        "configuration": {"API_KEY": NEW_SECRET},
    }
    await client.reactors.update(reactor["id"], body)
    update = journal.list()[0]
    await undo_change(update, "reactors", "update")
    (back,) = tenant.named("/reactors", "Enricher")
    assert (back["code"], back["configuration"]) == (CODE, {"API_KEY": SECRET})
    assert back["application"]["id"] == reactor["application"]["id"]
    data = journal_bytes(journal)
    assert SECRET.encode() not in data and NEW_SECRET.encode() not in data


async def test_undo_of_a_merge_patch_writes_the_reactor_back(
    client, journal, prod, memory_keyring
) -> None:
    tenant, _ = prod
    reactor = await make_reactor(client, tenant)
    await client.reactors.patch(reactor["id"], ReactorPatch(name="Renamed", code=NEW_CODE))
    patch = journal.list()[0]
    assert (patch.kind, patch.action, patch.request) == (
        "reactors",
        "update",
        {"name": "Renamed", "code": NEW_CODE},
    )
    assert tenant.named("/reactors", "Renamed")
    assert await undo(patch.id) == 0
    (back,) = tenant.named("/reactors", "Enricher")
    assert (back["id"], back["code"], back["configuration"]) == (
        reactor["id"],
        CODE,
        {"API_KEY": SECRET},
    )


async def test_undo_of_a_deleted_reactor_makes_it_again(
    client, journal, prod, memory_keyring
) -> None:
    tenant, _ = prod
    reactor = await make_reactor(client, tenant)
    await client.reactors.delete(reactor["id"])
    deleted = journal.list()[0]
    assert (deleted.kind, deleted.action) == ("reactors", "delete")
    assert tenant.named("/reactors", "Enricher") == []
    assert await undo(deleted.id) == 0
    (back,) = tenant.named("/reactors", "Enricher")
    assert back["id"] != reactor["id"]
    assert (back["code"], back["configuration"]) == (CODE, {"API_KEY": SECRET})
    assert back["application"]["id"] == reactor["application"]["id"]
    assert SECRET.encode() not in journal_bytes(journal)


async def test_an_application_deleted_records_its_reactors_and_undo_links_them_again(
    client, journal, prod, memory_keyring
) -> None:
    tenant, _ = prod
    reactor = await make_reactor(client, tenant)
    await client.applications.delete(reactor["application"]["id"])
    deleted = journal.list()[0]
    assert deleted.related["linked_reactors"] == [{"id": reactor["id"], "name": "Enricher"}]
    assert await asyncio.to_thread(main, ["undo", str(deleted.id), "--yes"]) == 0
    (web,) = tenant.named("/applications", "Checkout web")
    (linked,) = tenant.named("/reactors", "Enricher")
    assert linked["application"]["id"] == web["id"] != reactor["application"]["id"]
