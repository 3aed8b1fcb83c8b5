"""A change made without a profile (TENANT_CONSOLE_BASE_URL and TENANT_CONSOLE_API_KEY) is
undone through the same connection when it reaches the service and tenant the change was
made on, and refused, naming both, when it does not (issue 33)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from estate_helpers import Tenant

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from loopback_stub import Listener
from undo_support import undo

from console.cli import main


def connect(monkeypatch: pytest.MonkeyPatch, base_url: str, key: str) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", key)


def prune_checkout(tmp_path: Path) -> None:
    """`export`, then `apply --prune` of the file without proxy "Checkout": through the
    environment's connection, no profile."""
    exported = tmp_path / "tenant.json"
    assert main(["export", "-o", str(exported)]) == 0
    document = json.loads(exported.read_text())
    document["proxies"] = [p for p in document["proxies"] if p["name"] != "Checkout"]
    exported.write_text(json.dumps(document))
    assert main(["apply", str(exported), "--prune", "--yes"]) == 0


@pytest.fixture
def pruned(service: Any, journal, tmp_path: Path, monkeypatch) -> Any:
    """A seeded tenant whose proxy "Checkout" `apply --prune` deleted through the
    environment; (tenant, its key, the Checkout as it was, the delete's change)."""
    info = service.new_tenant("Env tenant")
    tenant = Tenant(service.base_url, info.key)
    tenant.seed()
    (checkout,) = tenant.named("/proxies", "Checkout")
    connect(monkeypatch, service.base_url, info.key)
    prune_checkout(tmp_path)
    assert tenant.named("/proxies", "Checkout") == []
    (delete,) = [c for c in journal.list() if c.action == "delete" and c.kind == "proxies"]
    assert (delete.profile, delete.origin, delete.tenant) == (None, "apply", "Env tenant")
    try:
        yield tenant, info.key, checkout, delete
    finally:
        tenant.close()


async def test_an_environment_change_is_undone_through_the_environment(pruned, journal) -> None:
    tenant, _key, checkout, delete = pruned
    assert await undo(delete.id) == 0
    (back,) = tenant.named("/proxies", "Checkout")
    assert back["configuration"] == checkout["configuration"]  # sealed, and opened again
    assert back["request_transform"] == checkout["request_transform"]
    undone = journal.list()[0]
    assert (undone.profile, undone.origin, undone.undoes) == (None, "undo", delete.id)


async def test_another_tenant_on_the_same_service_is_refused_naming_both(
    pruned, service, monkeypatch, capsys
) -> None:
    tenant, _key, _checkout, delete = pruned
    other = service.new_tenant("Other tenant")
    connect(monkeypatch, service.base_url, other.key)
    assert await undo(delete.id) == 1
    err = capsys.readouterr().err
    assert "tenant Env tenant" in err and "tenant Other tenant" in err
    assert service.base_url in err and "nothing was changed" in err
    other_tenant = Tenant(service.base_url, other.key)
    try:
        assert other_tenant.named("/proxies", "Checkout") == []
    finally:
        other_tenant.close()
    assert tenant.named("/proxies", "Checkout") == []


async def test_another_service_is_refused_naming_both_and_hears_nothing(
    pruned, service, monkeypatch, capsys
) -> None:
    _tenant, key, _checkout, delete = pruned
    listener = await Listener().start()
    elsewhere = listener.base_url
    try:
        connect(monkeypatch, elsewhere, key)
        assert await undo(delete.id) == 1
    finally:
        await listener.stop()
    err = capsys.readouterr().err
    assert service.base_url in err and elsewhere in err and "Env tenant" in err
    assert listener.heard == []


async def test_without_the_environment_it_says_what_to_set(pruned, monkeypatch, capsys) -> None:
    _tenant, _key, _checkout, delete = pruned
    monkeypatch.delenv("TENANT_CONSOLE_API_KEY")
    assert await undo(delete.id) == 1
    err = capsys.readouterr().err
    assert "TENANT_CONSOLE_BASE_URL" in err and "TENANT_CONSOLE_API_KEY" in err
    assert delete.base_url in err and "Env tenant" in err
