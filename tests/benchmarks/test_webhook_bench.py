"""The webhooks benchmark runs, tiny (the timed run is `python -m tests.benchmarks --only
webhooks`): writes on a tenant with five webhooks against one with none, deliveries
received, and the rows made of them."""

from __future__ import annotations

import pytest
from local_service import RunningService

from .webhook_rows import p95, write_rows
from .webhooks import writes


def test_writes_with_five_webhooks_are_timed_and_delivered(service: RunningService) -> None:
    quiet = service.new_tenant("Webhooks bench smoke, none")
    hooked = service.new_tenant("Webhooks bench smoke, five")
    data = writes(service.base_url, quiet.key, hooked.key, 5)
    assert len(data["quiet_s"]) == len(data["hooked_s"]) == 5
    assert data["delivered"] == data["expected"] == 20
    rows = write_rows(data)
    assert [row.limit for row in rows] == [1.2, 1.2]
    assert all(row.value > 0 and row.baseline for row in rows)


def test_p95_falls_between_the_values_around_it() -> None:
    values = [float(n) for n in range(1, 101)]
    assert p95(values) == pytest.approx(95.05)
    assert p95([0.5]) == 0.5
