"""verify_key against the real local service: whose key is it, and what if it is refused."""

from __future__ import annotations

import pytest
from profiles_helpers import closed_port_url

from console.client import ServiceUnreachable, Unauthorized
from console.profiles.verify import KeyInfo, verify_key


async def test_full_key_names_application_and_tenant(service) -> None:
    tenant = service.new_tenant("Verify Prod")
    info = await verify_key(service.base_url, tenant.key)
    assert info == KeyInfo(
        application_id=tenant.application_id,
        application_name=info.application_name,
        application_type="management",
        tenant_id=tenant.tenant_id,
        tenant_name="Verify Prod",
    )
    assert info.application_name
    assert info.describe() == (
        f'Key belongs to application "{info.application_name}" (management) '
        'in tenant "Verify Prod".'
    )


async def test_no_tenant_read_leaves_the_tenant_unknown(service) -> None:
    tenant = service.new_tenant("Verify Narrow")
    key = service.new_key(["application:read"], tenant_key=tenant.key)
    info = await verify_key(service.base_url, key)
    assert info.application_type == "management"
    assert info.tenant_id == tenant.tenant_id, "the tenant id still comes from the application"
    assert info.tenant_name is None
    assert "its tenant is not readable with this key" in info.describe()


async def test_no_read_permission_at_all_is_still_a_valid_key(service) -> None:
    tenant = service.new_tenant("Verify Blind")
    key = service.new_key(["proxy:read"], tenant_key=tenant.key)
    info = await verify_key(service.base_url, key)
    assert info == KeyInfo(None, None, None, None, None)
    assert info.describe().startswith("The service accepts the key, but it may not read")


async def test_rejected_key_raises_unauthorized(service) -> None:
    with pytest.raises(Unauthorized):
        await verify_key(service.base_url, "not-a-real-key-0123456789")


async def test_unreachable_service_raises(service) -> None:
    from console.client import RetryPolicy

    with pytest.raises(ServiceUnreachable):
        await verify_key(closed_port_url(), "whatever", retry=RetryPolicy(max_attempts=1))
