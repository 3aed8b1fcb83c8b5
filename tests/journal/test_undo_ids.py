"""Undo acts only on what it names (issue 33): a journal is a file, and an id in it that is not
an id of the service (`../tenants/self`, `a/b`, `..`, `%2e%2e`) is refused before anything is
sent. The profile points at a loopback listener that must hear nothing."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from loopback_stub import Listener

from console.cli import main
from console.client.recording import PendingChange
from console.journal.store import OK, ChangeJournal

GOOD_ID = "0b7c1f4e-2d8a-4c61-9f3e-5a6b7c8d9e01"
PROXY = {"name": "Checkout", "destination_url": "https://example.com/x", "configuration": None}
APPLICATION = {"name": "Checkout web", "type": "private", "permissions": ["token:read"]}

CRAFTED: list[tuple[str, dict[str, Any]]] = [
    ("update through ../tenants/self", {"kind": "proxies", "object_id": "../tenants/self"}),
    ("update through a/b", {"kind": "reactor_formulas", "object_id": "a/b"}),
    ("update through ..", {"kind": "proxies", "object_id": ".."}),
    ("update through %2e%2e", {"kind": "applications", "object_id": "%2e%2e"}),
    ("update through %2E%2E/x", {"kind": "applications", "object_id": "%2E%2E/x"}),
    ("a tenant that is not self", {"kind": "tenant", "object_id": "../applications/x"}),
    (
        "create whose after.id escapes",
        {"action": "create", "kind": "proxies", "after": {"id": f"../proxies/{GOOD_ID}"}},
    ),
    (
        "create whose after.id is ..",
        {"action": "create", "kind": "applications", "after": {"id": ".."}},
    ),
    (
        "delete whose application escapes",
        {"action": "delete", "before": {**PROXY, "application_id": "../tenants/self"}},
    ),
    (
        "update whose application escapes",
        {"object_id": GOOD_ID, "before": {**PROXY, "application_id": "../tenants/self"}},
    ),
    (
        "delete whose linked proxy escapes",
        {
            "action": "delete",
            "kind": "applications",
            "before": APPLICATION,
            "related": {"linked_proxies": [{"id": "../tenants/self", "name": "Checkout"}]},
        },
    ),
]


@pytest.fixture
async def listener():  # type: ignore[no-untyped-def]
    stub = await Listener().start()
    yield stub
    await stub.stop()


def crafted(journal: ChangeJournal, base_url: str, **fields: Any) -> int:
    """A change as a hostile journal file could hold it, answered ok."""
    action = fields.get("action", "update")
    change_id = journal.record(
        PendingChange(
            "PUT",
            "/proxies/x",
            fields.get("kind", "proxies"),
            action,
            fields.get("object_id"),
            "Checkout",
            fields.get("before", PROXY if action != "create" else None),
            None,
            "trap",
            base_url,
            "Prod",
            "console",
            related=fields.get("related", {}),
        )
    )
    journal.complete(change_id, outcome=OK, after=fields.get("after", PROXY))
    return change_id


@pytest.mark.parametrize(("case", "fields"), CRAFTED, ids=[c for c, _ in CRAFTED])
async def test_an_id_from_the_journal_is_checked_before_anything_is_sent(
    case: str, fields: dict[str, Any], listener: Listener, journal, add_profile, capsys
) -> None:
    add_profile("trap", listener.base_url, "k" * 32)
    change_id = crafted(journal, listener.base_url, **fields)
    assert await asyncio.to_thread(main, ["undo", str(change_id), "--yes"]) == 1
    err = capsys.readouterr().err
    assert "not an id of the service" in err or "always self" in err, case
    assert "nothing was sent" in err
    assert listener.heard == []
    assert [c.id for c in journal.list()] == [change_id]  # no undo was recorded either


async def test_a_good_id_does_reach_the_listener(listener: Listener, journal, add_profile) -> None:
    """The control: the same journal entry with a real id is sent (so silence means refusal)."""
    add_profile("trap", listener.base_url, "k" * 32)
    change_id = crafted(journal, listener.base_url, kind="proxies", object_id=GOOD_ID)
    assert await asyncio.to_thread(main, ["undo", str(change_id), "--yes"]) == 1
    assert any(GOOD_ID in line for line in listener.heard)
