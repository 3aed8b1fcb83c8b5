"""Fixtures for the log archive (issue 36): a tenant of its own per test on the shared local
service, a client on its key, entries seeded straight into the service's data dir (as the
demo and the benchmarks do), and a data directory of the test's own for the archives."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import Counting, Seeder, seed_into

from console.client import AdminClient


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Archives in a data directory of this test's own (never the user's, never shared)."""
    folder = tmp_path / "data"
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(folder))
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    return folder


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Audit tenant")


@pytest.fixture
def counting() -> Counting:
    return Counting()


@pytest.fixture
async def client(service: Any, tenant: Any, counting: Counting) -> AsyncIterator[AdminClient]:
    async with AdminClient(service.base_url, tenant.key, transport=counting) as c:
        yield c


@pytest.fixture
def seed(service: Any, tenant: Any) -> Seeder:
    return seed_into(service.data_dir, tenant.tenant_id, tenant.application_id)


@pytest.fixture
def cli_env(service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """`tenant-console` reaches the tenant through the environment (no profile, no keyring)."""
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", service.base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", tenant.key)
    monkeypatch.delenv("TENANT_CONSOLE_PROFILE", raising=False)
    yield
