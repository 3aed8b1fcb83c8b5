"""Helpers of the log archive's tests: a counting transport, seeding entries into the
service's data dir, times back from now."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx


class Counting(httpx.AsyncBaseTransport):
    """The real transport, counting the requests it sends and the most in flight at once."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.requests: list[httpx.Request] = []
        self.in_flight = 0
        self.most_in_flight = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            return await self.inner.handle_async_request(request)
        finally:
            self.in_flight -= 1

    async def aclose(self) -> None:
        await self.inner.aclose()

    def logs_requests(self) -> list[httpx.Request]:
        return [r for r in self.requests if r.url.path == "/logs"]


Seeder = Callable[..., list[str]]


def seed_into(data_dir: Path, tenant_id: str, actor_id: str | None) -> Seeder:
    def seed(
        times: list[datetime],
        *,
        entity_type: str = "proxy",
        entity_id: str | None = None,
        actor: str | None = None,
        message: str = "Proxy created",
    ) -> list[str]:
        """Entries at `times` (one each); their entity ids."""
        from console.service.changes import Actor, Change
        from console.service.store import Store
        from console.service.timestamps import stamp

        ids = [entity_id or str(uuid.uuid4()) for _ in times]
        changes = [
            Change(
                tenant_id,
                entity_type,
                ids[n],
                "create",
                message,
                Actor(actor or actor_id, "application"),
                stamp(at),
            )
            for n, at in enumerate(times)
        ]
        store = Store(data_dir)
        try:
            store.add_logs(changes)
        finally:
            store.close()
        return ids

    return seed


def ago(**delta: float) -> datetime:
    return datetime.now(UTC) - timedelta(**delta)
