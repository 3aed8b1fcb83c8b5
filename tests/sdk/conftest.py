"""A local service as the vendor's SDKs expect it (keys in `BT-API-KEY`, reactors provisioned
at once), and a tenant a module with the keys its calls need."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from local_service import RunningService, TenantInfo, serving
from sdk_clients import SDK_HEADER, SdkTenant, python_client

PROVISION_DELAY = 0.2
"""Seconds a reactor's provisioning takes on the SDK service. Not 0: with no delay the service
settles a change before it answers (`active` at once), and the SDKs are to read the answers
of a change being provisioned (`creating`, `updating`, `requested`) too; the tests wait for
`active` as a condition, so this is what a reactor's first call waits at most."""

WEBHOOK_DELIVERY = {"retry_base": 0.05, "max_attempts": 2, "disable_after": 2}
"""The deliverer's settings on the SDK service (`serve --webhook-<name>`): an unreachable
webhook is disabled after one event's two attempts, 50 ms apart, so the SDKs read a webhook
the service disabled (with its `disabled_reason`) at once. The receivers of the signature
tests answer each delivery: those never fail."""


@pytest.fixture(scope="session")
def sdk_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    """One service a worker for every SDK module (a tenant each): the SDKs' key header, a
    short provisioning delay (PROVISION_DELAY) and quick webhook disabling (WEBHOOK_DELIVERY)."""
    with serving(
        RunningService(
            tmp_path_factory.mktemp("sdk-service"),
            key_header=SDK_HEADER,
            provision_delay=PROVISION_DELAY,
            webhooks=WEBHOOK_DELIVERY,
        )
    ) as running:
        yield running


@pytest.fixture(scope="module")
def sdk_tenant(sdk_service: RunningService, request: pytest.FixtureRequest) -> SdkTenant:
    """A tenant of the module's own, and its private `reactor:invoke` application (made over
    plain HTTP: the SDKs are what the tests look at, not how they are set up)."""
    tenant = sdk_service.new_tenant(f"SDK {request.module.__name__}")
    answer = httpx.post(
        f"{sdk_service.base_url}/applications",
        json={"name": "Invoker", "type": "private", "permissions": ["reactor:invoke"]},
        headers={SDK_HEADER: tenant.key},
        timeout=30.0,
    )
    assert answer.status_code == 201, answer.text
    invoker = answer.json()
    return SdkTenant(
        base_url=sdk_service.base_url,
        tenant_id=tenant.tenant_id,
        management_key=tenant.key,
        invoke_key=invoker["key"],
        invoke_application_id=invoker["id"],
    )


@pytest.fixture
def tenant(sdk_service: RunningService, request: pytest.FixtureRequest) -> TenantInfo:
    """A tenant of the test's own: the limit of five counts a tenant's webhooks, and the
    events a test waits for are its own tenant's only."""
    return sdk_service.new_tenant(f"SDK {request.node.name}")


@pytest.fixture
def bt(sdk_service: RunningService, tenant: TenantInfo) -> Any:
    """The vendor's Python SDK with the key of the test's own `tenant` (a module whose
    tenant is shared defines its own `bt` on `sdk_tenant`)."""
    return python_client(sdk_service.base_url, tenant.key)
