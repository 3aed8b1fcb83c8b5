"""Every estate test runs on a temp config dir and an in-memory keyring, never the user's;
`profiles` adds a profile per tenant of the local service."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from estate_helpers import Tenant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "profiles"))
from private_profiles import (  # noqa: F401  (autouse fixtures, and add_profile)
    add_profile_fixture,
    config_dir,
    memory_keyring,
)


@pytest.fixture
def tenants(service, add_profile) -> Iterator[tuple[Tenant, Tenant]]:
    """Two tenants of the shared service, as profiles "staging" (seeded) and "prod" (empty)."""
    staging_info, prod_info = service.new_tenant("Staging"), service.new_tenant("Prod")
    add_profile("staging", service.base_url, staging_info.key)
    add_profile("prod", service.base_url, prod_info.key)
    staging = Tenant(service.base_url, staging_info.key)
    prod = Tenant(service.base_url, prod_info.key)
    staging.seed()
    try:
        yield staging, prod
    finally:
        staging.close()
        prod.close()
