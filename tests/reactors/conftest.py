"""Fixtures for the reactors' command line: a tenant of its own per test on the shared
service, a client on its key, and the environment that points `tenant-console` at it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from console.client import AdminClient


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Reactors tenant")


@pytest.fixture
async def client(service: Any, tenant: Any) -> AsyncIterator[AdminClient]:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


@pytest.fixture
def cli_env(service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """`tenant-console` reaches the tenant through the environment (no profile, no keyring),
    and never reads the user's config directory."""
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", service.base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", tenant.key)
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("TENANT_CONSOLE_PROFILE", raising=False)
