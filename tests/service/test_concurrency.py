"""100 concurrent writers: nothing acknowledged is lost, nothing fails with a 5xx.

Threads share one key per tenant and a few tenants, so the service sees writes to the same
tenant racing each other and writes to different tenants interleaving.
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import httpx
import pytest
from service_http import (
    Caller,
    application_body,
    describe,
    http_client,
    ids,
    private_application_body,
    proxy_body,
)

WRITERS = 100
WRITES = 300
TENANTS = 3


@dataclass(frozen=True)
class Write:
    tenant: int
    path: str
    body: dict


@dataclass(frozen=True)
class Outcome:
    write: Write
    status: int
    object_id: str | None
    text: str


@pytest.fixture
def client(service) -> httpx.Client:
    """A new pool per test: no keep-alive connection left idle long enough for the server
    to close it under a request (a client-side race, not the service's)."""
    limits = httpx.Limits(max_connections=WRITERS, max_keepalive_connections=WRITERS)
    with http_client(service.base_url, limits=limits) as c:
        yield c


def plan() -> list[Write]:
    writes = []
    for n in range(WRITES):
        tenant = n % TENANTS
        if n % 3 == 0:
            writes.append(Write(tenant, "/proxies", proxy_body(name=f"concurrent proxy {n}")))
        elif n % 3 == 1:
            body = application_body(name=f"concurrent app {n}")
            writes.append(Write(tenant, "/applications", body))
        else:
            body = private_application_body(name=f"concurrent private {n}")
            writes.append(Write(tenant, "/applications", body))
    return writes


def test_concurrent_writers_lose_nothing(service, client: httpx.Client) -> None:
    tenants = [service.new_tenant(f"Concurrent {i}") for i in range(TENANTS)]
    callers = [Caller(client, t.key) for t in tenants]
    before = {
        (i, path): ids(caller.list_all(path))
        for i, caller in enumerate(callers)
        for path in ("/proxies", "/applications")
    }

    def send(write: Write) -> Outcome:
        try:
            response = callers[write.tenant].post(write.path, json=write.body)
        except httpx.HTTPError as exc:
            return Outcome(write, -1, None, repr(exc))
        object_id = response.json().get("id") if response.status_code == 201 else None
        return Outcome(write, response.status_code, object_id, describe(response))

    with ThreadPoolExecutor(max_workers=WRITERS) as pool:
        outcomes = list(pool.map(send, plan()))

    statuses = Counter(o.status for o in outcomes)
    server_errors = [o.text for o in outcomes if o.status >= 500 or o.status < 0]
    assert not server_errors, f"{len(server_errors)} writes failed: {server_errors[:3]}"
    assert statuses == {201: WRITES}, f"statuses: {dict(statuses)}"

    acknowledged = [o for o in outcomes if o.status == 201]
    assert len({o.object_id for o in acknowledged}) == len(acknowledged), "duplicate ids"
    for i, caller in enumerate(callers):
        for path in ("/proxies", "/applications"):
            listed = caller.list_all(path)
            mine = {
                o.object_id for o in acknowledged if o.write.tenant == i and o.write.path == path
            }
            missing = mine - ids(listed)
            assert not missing, f"{len(missing)} acknowledged writes missing from {path}"
            # Nothing extra either: exactly what existed before plus what was acknowledged.
            assert ids(listed) == before[(i, path)] | mine
            names = [item["name"] for item in listed if item["id"] in mine]
            assert len(names) == len(set(names)), "a write was stored twice"


def test_concurrent_reads_and_writes_on_one_object(service, client: httpx.Client) -> None:
    """Racing updates and reads of one proxy: every response is whole, the last write wins."""
    tenant = service.new_tenant("Concurrent updates")
    caller = Caller(client, tenant.key)
    proxy = caller.created("/proxies", proxy_body())

    def update(n: int) -> int:
        body = proxy_body(name=f"version {n}", configuration={"n": str(n)})
        return caller.put(f"/proxies/{proxy['id']}", json=body).status_code

    def read(_: int) -> int:
        response = caller.get(f"/proxies/{proxy['id']}")
        if response.status_code == 200:
            body = response.json()
            # Name and configuration were written together: a read never sees half of it.
            if body["configuration"] is not None:
                assert body["name"] == f"version {body['configuration']['n']}", body
        return response.status_code

    with ThreadPoolExecutor(max_workers=50) as pool:
        writes = pool.map(update, range(100))
        reads = pool.map(read, range(100))
        statuses = Counter([*writes, *reads])
    assert statuses == {200: 200}, dict(statuses)
    final = caller.get(f"/proxies/{proxy['id']}").json()
    assert final["name"] == f"version {final['configuration']['n']}"
