"""Every estate test runs on a temp config dir and an in-memory keyring, never the user's;
`profiles` adds a profile per tenant of the local service."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from estate_helpers import Tenant

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "profiles"))
from private_profiles import config_dir, memory_keyring  # noqa: F401  (autouse fixtures)


@pytest.fixture
def add_profile() -> Callable[[str, str, str], None]:
    """Saves a profile and its key (in the test keyring) without asking the service."""
    from console.profiles.config import Profile, ProfilesFile
    from console.profiles.keys import set_key

    def add(name: str, base_url: str, key: str) -> None:
        profiles = ProfilesFile.load()
        profiles.add(Profile(name, base_url))
        if profiles.active is None:
            profiles.use(name)
        profiles.save()
        set_key(name, key)

    return add


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
