"""Retries: idempotent calls are repeated with backoff, POST never is.

Requests are counted at a counting transport (against the real service) or at the stub
server (for 502/503 and dropped connections, which the service cannot produce).
"""

from __future__ import annotations

import dataclasses
import uuid
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from client_helpers import (
    CountingTransport,
    Limited,
    RecordedSleeps,
    application_payload,
    closed_port_url,
    proxy_payload,
)
from client_stub import Drop, Respond, problem

from console.client import (
    AdminClient,
    RateLimited,
    RetryPolicy,
    ServerError,
    ServiceUnreachable,
)
from console.models import Tenant

TENANT = {
    "id": str(uuid.uuid4()),
    "owner_id": str(uuid.uuid4()),
    "name": "Stubbed",
    "settings": {"fingerprint_tokens": "true", "deduplicate_tokens": "true"},
}
UNAVAILABLE = problem(503, "Service Unavailable", "Restarting.")


def policy(sleeps: RecordedSleeps, **changes: object) -> RetryPolicy:
    """Three attempts, five minutes of budget, waits recorded instead of spent."""
    base = RetryPolicy(max_attempts=3, base_delay=0.1, max_delay=2.0, max_total_wait=300.0)
    return dataclasses.replace(base, sleep=sleeps, **changes)


async def exhaust(running: Limited, key: str) -> None:
    """Spends the key's allowance with requests that are not retried."""
    async with AdminClient(running.base_url, key, retry=RetryPolicy(max_attempts=1)) as c:
        with pytest.raises(RateLimited):
            for _ in range(10):
                await c.permissions.list()


async def test_get_waits_as_told_and_retries_on_429(limited, sleeps) -> None:  # type: ignore[no-untyped-def]
    """A GET answered 429 is waited out, however often, up to `rate_limited_attempts`
    (the limit slows a walk down, it does not fail it); max_attempts does not apply."""
    await exhaust(limited, limited.key)
    counting = CountingTransport()
    patient = policy(sleeps, rate_limited_attempts=6)
    async with AdminClient(limited.base_url, limited.key, transport=counting, retry=patient) as c:
        with pytest.raises(RateLimited) as caught:
            await c.tenant.get()
    assert counting.count("GET", "/tenants/self") == 6, "waited out five times, not three"
    assert len(sleeps.waits) == 5
    retry_after = caught.value.retry_after
    assert retry_after is not None
    assert all(wait >= retry_after - 1 for wait in sleeps.waits), "Retry-After is honoured"


async def test_put_and_delete_are_retried_too(limited, sleeps) -> None:  # type: ignore[no-untyped-def]
    await exhaust(limited, limited.key)
    counting = CountingTransport()
    async with AdminClient(
        limited.base_url, limited.key, transport=counting, retry=policy(sleeps)
    ) as c:
        with pytest.raises(RateLimited):
            await c.tenant.update({"name": "Never applied"})
        with pytest.raises(RateLimited):
            await c.proxies.delete(uuid.uuid4())
    assert counting.count("PUT") == 3
    assert counting.count("DELETE") == 3


async def test_post_is_never_retried_on_429(limited, sleeps) -> None:  # type: ignore[no-untyped-def]
    await exhaust(limited, limited.key)
    counting = CountingTransport()
    async with AdminClient(
        limited.base_url, limited.key, transport=counting, retry=policy(sleeps)
    ) as c:
        with pytest.raises(RateLimited):
            await c.applications.create(application_payload(name="Must not exist"))
        with pytest.raises(RateLimited):
            await c.applications.regenerate(limited.application_id)
        with pytest.raises(RateLimited):
            await c.proxies.create(proxy_payload())
    assert counting.count("POST") == 3, "one request per call"
    # The 429's Retry-After is waited out before the next call is sent (a wait before
    # sending, not a repeat): the second and third POSTs waited, the first was not resent.
    assert len(sleeps.waits) == 2

    async with AdminClient(limited.base_url, limited.spare_key) as other:
        names = [a.name async for a in other.applications.iterate()]
    assert "Must not exist" not in names


async def test_a_wait_beyond_the_budget_raises_at_once(limited, sleeps) -> None:  # type: ignore[no-untyped-def]
    """For a PUT (a GET waits a 429 out, see above), a wait beyond max_total_wait is not taken."""
    await exhaust(limited, limited.key)
    counting = CountingTransport()
    tight = policy(sleeps, max_total_wait=0.5)
    async with AdminClient(limited.base_url, limited.key, transport=counting, retry=tight) as c:
        with pytest.raises(RateLimited) as caught:
            await c.tenant.update({"name": "Never applied"})
    assert caught.value.retry_after and caught.value.retry_after > 0.5
    assert counting.total == 1
    assert sleeps.waits == []


async def test_get_is_retried_when_the_connection_is_refused(sleeps) -> None:  # type: ignore[no-untyped-def]
    counting = CountingTransport()
    async with AdminClient(
        closed_port_url(),
        "k" * 32,
        transport=counting,
        retry=policy(sleeps, random=lambda: 1.0),
    ) as c:
        with pytest.raises(ServiceUnreachable) as caught:
            await c.proxies.get(uuid.uuid4())
        assert caught.value.reason == "connection refused"
        with pytest.raises(ServiceUnreachable):
            await c.proxies.create(proxy_payload())
    assert counting.count("GET") == 3
    assert counting.count("POST") == 1, "a refused POST is not retried either"
    assert sleeps.waits == [0.1, 0.2], "exponential backoff"


async def test_get_is_retried_through_503_until_it_succeeds(stub, sleeps) -> None:  # type: ignore[no-untyped-def]
    server = await stub(
        Respond(503, UNAVAILABLE),
        Respond(502, problem(502, "Bad Gateway", "Upstream."), {"Retry-After": "2"}),
        Respond(200, TENANT),
    )
    async with AdminClient(server.base_url, "k" * 32, retry=policy(sleeps)) as c:
        tenant = await c.tenant.get()
    assert isinstance(tenant, Tenant)
    assert server.count("GET") == 3
    assert len(sleeps.waits) == 2
    assert sleeps.waits[1] >= 2, "Retry-After on a 502 is honoured too"


async def test_retries_stop_after_max_attempts(stub, sleeps) -> None:  # type: ignore[no-untyped-def]
    server = await stub(Respond(504, problem(504, "Gateway Timeout", "Slow.")))
    async with AdminClient(server.base_url, "k" * 32, retry=policy(sleeps)) as c:
        with pytest.raises(ServerError) as caught:
            await c.proxies.list()
    assert caught.value.status == 504
    assert server.count() == 3


async def test_post_is_not_retried_on_503(stub, sleeps) -> None:  # type: ignore[no-untyped-def]
    server = await stub(Respond(503, UNAVAILABLE), Respond(201, {}))
    async with AdminClient(server.base_url, "k" * 32, retry=policy(sleeps)) as c:
        with pytest.raises(ServerError) as caught:
            await c.applications.regenerate(uuid.uuid4())
    assert str(caught.value) == "The service is unavailable at the moment: try again later (503)"
    assert server.count() == 1
    assert sleeps.waits == []


async def test_get_is_retried_after_a_dropped_connection(stub, sleeps) -> None:  # type: ignore[no-untyped-def]
    server = await stub(Drop(), Respond(200, TENANT))
    async with AdminClient(server.base_url, "k" * 32, retry=policy(sleeps)) as c:
        assert (await c.tenant.get()).name == "Stubbed"
    assert server.count() == 2


async def test_post_is_not_retried_after_a_dropped_connection(stub, sleeps) -> None:  # type: ignore[no-untyped-def]
    server = await stub(Drop(), Respond(201, {}))
    async with AdminClient(server.base_url, "k" * 32, retry=policy(sleeps)) as c:
        with pytest.raises(ServiceUnreachable) as caught:
            await c.proxies.create(proxy_payload())
    assert str(caught.value) == (
        f"Cannot reach the service at {server.base_url}: "
        "the connection was closed before the service answered; "
        "the change may or may not have been made"
    )
    assert server.count() == 1


def test_backoff_grows_and_is_capped() -> None:
    top = RetryPolicy(base_delay=0.5, max_delay=3.0, random=lambda: 1.0)
    assert [top.delay(n) for n in (1, 2, 3, 4, 5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    bottom = dataclasses.replace(top, random=lambda: 0.0)
    assert [bottom.delay(n) for n in (1, 2, 3)] == [0.25, 0.5, 1.0], "jitter halves at most"
    assert bottom.delay(1, retry_after=7.0) == 7.0


def test_retry_after_as_an_http_date() -> None:
    from console.client._http import _retry_after

    assert _retry_after("12") == 12.0
    assert _retry_after("") is None
    assert _retry_after("soon") is None
    later = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=30)
    assert 25 <= (_retry_after(format_datetime(later, usegmt=True)) or 0) <= 31
