"""Each error class, produced for real, and the sentence a person reads."""

from __future__ import annotations

import uuid

import httpx
import pytest
from client_helpers import FAST_RETRY, proxy_payload
from client_stub import Hang, Respond, problem

from console.client import (
    AdminClient,
    ApiError,
    Forbidden,
    NotFound,
    RateLimited,
    RetryPolicy,
    ServerError,
    ServiceUnreachable,
    Unauthorized,
    UnexpectedResponse,
    ValidationFailed,
)

NO_RETRY = RetryPolicy(max_attempts=1)


async def test_validation_failed_names_the_field(client: AdminClient) -> None:
    with pytest.raises(ValidationFailed) as caught:
        await client.proxies.create(
            {"name": "x" * 201, "destination_url": "http://plain.example.com"}
        )
    error = caught.value
    assert isinstance(error, ApiError)
    assert error.status == 400
    assert {"name", "destination_url"} <= set(error.errors)
    assert all(isinstance(s, str) and s for s in error.errors["name"])
    sentence = str(error)
    assert sentence.startswith("Invalid ")
    assert sentence.endswith("(400)")
    first_path = next(iter(error.errors))
    assert first_path in sentence
    assert "1 more problem" in sentence or "more problems" in sentence


async def test_validation_failed_on_a_bad_query(client: AdminClient) -> None:
    with pytest.raises(ValidationFailed) as caught:
        await client.proxies.list(page=0, size=500)
    assert caught.value.status == 400
    assert str(caught.value).endswith("(400)")


async def test_unauthorized_for_an_unknown_key(service) -> None:  # type: ignore[no-untyped-def]
    async with AdminClient(service.base_url, "not-a-real-key-000000", retry=FAST_RETRY) as c:
        with pytest.raises(Unauthorized) as caught:
            await c.tenant.get()
    assert caught.value.status == 401
    assert str(caught.value) == (
        "The API key was not accepted: it is unknown, expired or was regenerated (401)"
    )


FORBIDDEN_CALLS = {
    "proxy:create": lambda c: c.proxies.create(proxy_payload()),
    "proxy:read": lambda c: c.proxies.list(),
    "proxy:delete": lambda c: c.proxies.delete(uuid.uuid4()),
    "application:read": lambda c: c.applications.list(),
    "application:update": lambda c: c.applications.regenerate(uuid.uuid4()),
    "reactor:update": lambda c: c.reactor_formulas.update(uuid.uuid4(), {}),
    "tenant:read": lambda c: c.tenant.get(),
    "report:read": lambda c: c.tenant.usage(),
}


@pytest.mark.parametrize("permission", FORBIDDEN_CALLS)
async def test_forbidden_names_the_missing_permission(service, tenant, permission) -> None:  # type: ignore[no-untyped-def]
    # A key holding one unrelated permission: everything else is forbidden to it.
    granted = ["log:read"]
    key = service.new_key(granted, tenant_key=tenant.key)
    async with AdminClient(service.base_url, key, retry=FAST_RETRY) as c:
        with pytest.raises(Forbidden) as caught:
            await FORBIDDEN_CALLS[permission](c)
    error = caught.value
    assert error.status == 403
    assert error.permission == permission
    assert str(error) == f"This key lacks the permission {permission} (403)"


async def test_forbidden_for_an_official_formula_says_why(client: AdminClient) -> None:
    official = [f async for f in client.reactor_formulas.iterate() if f.type == "official"]
    assert official, "the service ships official formulas"
    with pytest.raises(Forbidden) as caught:
        await client.reactor_formulas.delete(official[0].id)
    error = caught.value
    assert "lacks" not in str(error), "the key holds reactor:delete: say the real reason"
    assert str(error) == f"{error.detail.rstrip('.')} (403)"


async def test_not_found_for_an_unknown_id(client: AdminClient) -> None:
    missing = uuid.uuid4()
    with pytest.raises(NotFound) as caught:
        await client.proxies.get(missing)
    assert caught.value.status == 404
    assert str(caught.value) == f"The proxy {missing} does not exist in this tenant (404)"


async def test_not_found_for_another_tenants_object(service, client: AdminClient) -> None:  # type: ignore[no-untyped-def]
    other = service.new_tenant("Other tenant")
    async with AdminClient(service.base_url, other.key, retry=FAST_RETRY) as theirs:
        proxy = await theirs.proxies.create(proxy_payload())
    with pytest.raises(NotFound):
        await client.proxies.get(proxy.id)
    with pytest.raises(NotFound):
        await client.proxies.update(proxy.id, proxy_payload())
    with pytest.raises(NotFound):
        await client.applications.get(other.application_id)


async def test_rate_limited_carries_retry_after(limited) -> None:  # type: ignore[no-untyped-def]
    async with AdminClient(limited.base_url, limited.key, retry=NO_RETRY) as c:
        with pytest.raises(RateLimited) as caught:
            for _ in range(10):
                await c.permissions.list()
    error = caught.value
    assert error.status == 429
    assert error.retry_after is not None and 0 < error.retry_after <= 60
    assert str(error).startswith("Too many requests with this key: try again in ")
    assert str(error).endswith("seconds (429)")


async def test_server_error_from_a_failing_service(stub) -> None:  # type: ignore[no-untyped-def]
    server = await stub(Respond(500, problem(500, "Internal Server Error", "boom")))
    async with AdminClient(server.base_url, "k" * 32, retry=FAST_RETRY) as c:
        with pytest.raises(ServerError) as caught:
            await c.tenant.get()
    assert caught.value.status == 500
    assert str(caught.value) == "The service failed with an internal error (500)"
    assert server.count() == 1, "500 is not retried"


async def test_unreachable_when_the_service_is_stopped(fresh_service) -> None:  # type: ignore[no-untyped-def]
    fresh_service.stop()
    try:
        async with AdminClient(fresh_service.base_url, fresh_service.key, retry=FAST_RETRY) as c:
            with pytest.raises(ServiceUnreachable) as caught:
                await c.tenant.get()
    finally:
        fresh_service.start()
    error = caught.value
    assert error.status is None
    assert str(error) == f"Cannot reach the service at {fresh_service.base_url}: connection refused"

    async with AdminClient(fresh_service.base_url, fresh_service.key) as c:
        assert (await c.tenant.get()).id, "the same client code works once it is back"


async def test_unreachable_when_the_host_does_not_resolve() -> None:
    async with AdminClient("http://no-such-host.invalid:8400", "k" * 32, retry=NO_RETRY) as c:
        with pytest.raises(ServiceUnreachable) as caught:
            await c.permissions.list()
    assert str(caught.value) == (
        "Cannot reach the service at http://no-such-host.invalid:8400: "
        "the host name could not be resolved"
    )


async def test_unreachable_on_a_read_timeout(stub) -> None:  # type: ignore[no-untyped-def]
    server = await stub(Hang())
    timeout = httpx.Timeout(0.3, connect=2.0)
    async with AdminClient(server.base_url, "k" * 32, timeout=timeout, retry=FAST_RETRY) as c:
        with pytest.raises(ServiceUnreachable) as caught:
            await c.proxies.list()
    assert str(caught.value) == (
        f"Cannot reach the service at {server.base_url}: no answer within 0.3 seconds"
    )
    assert server.count() == 1, "a read timeout is not retried: the service is up but slow"


async def test_an_answer_that_is_not_the_api(stub) -> None:  # type: ignore[no-untyped-def]
    server = await stub(Respond(200, {"hello": "world"}))
    async with AdminClient(server.base_url, "k" * 32, retry=FAST_RETRY) as c:
        with pytest.raises(UnexpectedResponse) as caught:
            await c.tenant.get()
    assert "does not match the API" in str(caught.value)


async def test_other_statuses_are_plain_api_errors(stub) -> None:  # type: ignore[no-untyped-def]
    detail = "The request body must be application/json."
    server = await stub(Respond(415, problem(415, "Unsupported Media Type", detail)))
    async with AdminClient(server.base_url, "k" * 32, retry=FAST_RETRY) as c:
        with pytest.raises(ApiError) as caught:
            await c.tenant.update({"name": "x"})
    assert type(caught.value) is ApiError
    assert str(caught.value) == "The request body must be application/json (415)"


def test_constructor_refuses_a_base_url_without_scheme() -> None:
    with pytest.raises(ValueError, match="http:// or https://"):
        AdminClient("localhost:8400", "k" * 32)


def test_timeouts_default_and_configurable() -> None:
    default = AdminClient("http://127.0.0.1:8400", "k" * 32)
    assert (default.timeout.connect, default.timeout.read) == (5.0, 20.0)
    short = AdminClient("http://127.0.0.1:8400", "k" * 32, timeout=2.5)
    assert (short.timeout.connect, short.timeout.read) == (2.5, 2.5)
