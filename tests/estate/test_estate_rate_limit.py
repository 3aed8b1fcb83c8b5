"""Issue 33: `apply` waits out a 429 on a create and completes. A 429 means the service
refused the request without acting on it, so the create is sent again after Retry-After
(the one case a POST is repeated); no real time is waited (an injected sleep)."""

from __future__ import annotations

import httpx
from estate_helpers import Tenant

from console.client import AdminClient, RetryPolicy
from console.client.budget import RequestBudget
from console.estate.apply import apply_plan
from console.estate.document import FORMAT, checked
from console.estate.plan import compute_plan
from console.estate.tenant import read_tenant


class RefusesCreates(httpx.AsyncBaseTransport):
    """The real local service behind it; the first `refusals` POSTs to /applications are
    answered 429 with Retry-After and never reach the service (that is what a 429 is)."""

    def __init__(self, refusals: int, retry_after: str) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.refusals = refusals
        self.retry_after = retry_after
        self.posts: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.method == "POST":
            self.posts.append(request.url.path)
            if request.url.path == "/applications" and self.refusals > 0:
                self.refusals -= 1
                return httpx.Response(
                    429,
                    headers={"Retry-After": self.retry_after},
                    json={"title": "Too Many Requests", "status": 429},
                )
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


async def test_apply_waits_out_a_429_on_a_create_and_completes(service) -> None:
    prod_info = service.new_tenant("Prod")
    prod = Tenant(service.base_url, prod_info.key)
    waits: list[float] = []
    now = [1000.0]

    async def sleep(seconds: float) -> None:  # the budget's wait: recorded, and no real time
        waits.append(seconds)
        now[0] += seconds

    transport = RefusesCreates(refusals=2, retry_after="7")
    apps = [
        {"name": "Auditor", "type": "private", "permissions": ["token:read"]},
        {"name": "Web", "type": "private", "permissions": ["token:create"]},
    ]
    source = checked({"format": FORMAT, "applications": apps}, "the file")
    client = AdminClient(
        service.base_url,
        prod_info.key,
        transport=transport,
        budget=RequestBudget(None, clock=lambda: now[0], sleep=sleep),
    )
    try:
        async with client:
            plan = compute_plan(source, await read_tenant(client))
            result = await apply_plan(client, plan)
            assert result.complete, result.error
            assert result.done == ["created application Auditor", "created application Web"]
            assert [k.application for k in result.new_keys] == ["Auditor", "Web"]
        # Refused twice, then sent again: three POSTs for Auditor, one for Web; each
        # application created exactly once, after the service's Retry-After was waited out.
        assert transport.posts == ["/applications"] * 4
        assert [len(prod.named("/applications", n)) for n in ("Auditor", "Web")] == [1, 1]
        assert waits == [7.0, 7.0]  # each Retry-After waited out, before the create again
    finally:
        prod.close()


async def test_a_create_refused_429_every_time_stops_after_its_tries(service, monkeypatch):
    from console.estate import apply as apply_module

    monkeypatch.setattr(apply_module, "RATE_LIMITED_TRIES", 3)
    prod_info = service.new_tenant("Prod")

    async def sleep(seconds: float) -> None:
        return None

    transport = RefusesCreates(refusals=1000, retry_after="0")
    source = checked(
        {
            "format": FORMAT,
            "applications": [{"name": "A", "type": "private", "permissions": ["token:read"]}],
        },
        "the file",
    )
    client = AdminClient(
        service.base_url, prod_info.key, transport=transport, retry=RetryPolicy(sleep=sleep)
    )
    async with client:
        plan = compute_plan(source, await read_tenant(client))
        result = await apply_plan(client, plan)
    assert not result.complete
    assert "Too many requests" in result.error
    assert transport.posts == ["/applications"] * 3
