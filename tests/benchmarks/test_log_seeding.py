"""The logs benchmark's bulk entries: a day seeded into the service is answered by `GET /logs`
as logged entries are, and a year's entries go into an archive and are found by entity and
time (tiny sizes here; the timed runs are `python -m tests.benchmarks --only logs`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from local_service import RunningService

from .log_seeding import (
    entity_id,
    entry_fields,
    max_per_minute,
    seed_service_logs,
    year_of_entries,
)


def test_seeded_logs_are_answered_newest_first_with_their_fields(
    service: RunningService,
) -> None:
    tenant = service.new_tenant("Log seeding")
    seed_service_logs(service.data_dir, tenant.tenant_id, 120)
    headers = {"SVC-API-KEY": tenant.key}
    answer = httpx.get(
        f"{service.base_url}/logs",
        params={"entity_type": "proxy", "size": 100},
        headers=headers,
    )
    assert answer.status_code == 200, answer.text
    entries = answer.json()["data"]
    proxies = [index for index in range(120) if entry_fields(index)["entity_type"] == "proxy"]
    assert len(entries) == len(proxies) > 20
    assert [entry["created_at"] for entry in entries] == sorted(
        (entry["created_at"] for entry in entries), reverse=True
    )
    newest = entry_fields(proxies[-1])
    assert {key: entries[0][key] for key in newest} == newest
    assert entries[0]["tenant_id"] == tenant.tenant_id


def test_a_year_of_entries_is_stored_and_found_by_entity_and_time(tmp_path: Path) -> None:
    from console.audit.archive import LogArchive

    end = datetime(2026, 11, 28, 12, tzinfo=UTC)
    archive = LogArchive.open("bench", path=tmp_path / "year.sqlite3")
    try:
        assert archive.store(year_of_entries("tenant-1", 2_000, end=end)) == 2_000
        proxy = entity_id("proxy", 0)
        by_entity = archive.query(entity_type="proxy", entity_id=proxy)
        assert by_entity and {entry.entity_id for entry in by_entity} == {proxy}
        day = archive.query(since=end - timedelta(days=1), until=end)
        assert 3 <= len(day) <= 7  # 2,000 over 365 days: five or six a day
        assert archive.reach().count == 2_000
    finally:
        archive.close()


def test_requests_a_minute_are_counted_in_any_minute() -> None:
    assert max_per_minute([0.0, 5.0, 59.9, 60.0, 61.0, 119.0]) == 4
    assert max_per_minute([]) == 0
