"""Fixtures for the client tests: a fresh tenant per test on the shared real service.

The `service`, `fresh_service` and `start_service` fixtures come from tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from client_helpers import FAST_RETRY, CountingTransport, Limited, RecordedSleeps
from client_stub import Action, StubServer

from console.client import AdminClient


@pytest.fixture
def tenant(service):  # type: ignore[no-untyped-def]
    """A tenant of its own for this test, with its bootstrap management key."""
    return service.new_tenant("Client test tenant")


@pytest.fixture
def counting() -> CountingTransport:
    return CountingTransport()


@pytest.fixture
async def client(service, tenant, counting) -> AsyncIterator[AdminClient]:  # type: ignore[no-untyped-def]
    """A client on the tenant's bootstrap key, retrying fast, counting its requests."""
    async with AdminClient(service.base_url, tenant.key, transport=counting, retry=FAST_RETRY) as c:
        yield c


@pytest.fixture
def sleeps() -> RecordedSleeps:
    return RecordedSleeps()


@pytest.fixture
async def stub() -> AsyncIterator:  # type: ignore[type-arg]
    """`await stub(Respond(503), Respond(200, {...}))`: a scripted server, stopped after."""
    servers: list[StubServer] = []

    async def start(*script: Action) -> StubServer:
        server = await StubServer(*script).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()


@pytest.fixture(scope="session")
def limited_service(service, tmp_path_factory) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    """A rate-limited service shared by the client tests, allowing 4 requests a minute per key.

    Each test takes a new tenant of it (written to the data dir, no request spent), so each
    starts with a full allowance. The class is the session service's RunningService.
    """
    running = type(service)(tmp_path_factory.mktemp("limited"), rate_limit=4)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def limited(limited_service) -> Limited:  # type: ignore[no-untyped-def]
    """A fresh tenant on the rate-limited service, and a spare key of it made beforehand."""
    tenant = limited_service.new_tenant("Rate limited")
    spare = limited_service.new_key(["application:read"], tenant_key=tenant.key)  # 1 of 4
    return Limited(limited_service.base_url, tenant.key, str(tenant.application_id), spare)
