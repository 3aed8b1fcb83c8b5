"""Journal tests: a data directory (so a journal) of the test's own, temp profiles and an
in-memory keyring, and tenants of the shared service seeded over HTTP."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "profiles"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "estate"))
from estate_helpers import Tenant
from private_profiles import (  # noqa: F401  (autouse fixtures, and add_profile)
    add_profile_fixture,
    config_dir,
    memory_keyring,
)

from console.client import AdminClient
from console.journal.store import ChangeJournal, open_journal


@pytest.fixture
def journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ChangeJournal:
    """The user's journal, in a data directory of this test's own."""
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    return open_journal()


@pytest.fixture
def prod(service: Any, add_profile: Any) -> Iterator[tuple[Tenant, str]]:
    """A seeded tenant saved as profile "prod": the tenant over HTTP, and its key."""
    info = service.new_tenant("Prod")
    add_profile("prod", service.base_url, info.key)
    tenant = Tenant(service.base_url, info.key)
    tenant.seed()
    try:
        yield tenant, info.key
    finally:
        tenant.close()


@pytest.fixture
async def client(service: Any, prod: Any, journal: ChangeJournal) -> AsyncIterator[AdminClient]:
    """A client on profile prod whose changes go in the journal, as the console's do."""
    async with AdminClient(service.base_url, prod[1]) as c:
        c.record_changes(journal, profile="prod", origin="console")
        yield c
