"""`tenant-console status` says how far back each profile's log archive reaches, and warns on
stderr when the last sync found a gap or is older than the service keeps logs."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from console.audit import archive_summary
from console.audit.archive import LogArchive
from console.cli import main
from console.models.logs import Log
from console.profiles.config import Profile, ProfilesFile

T = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def profile(name: str, base_url: str) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile(name=name, base_url=base_url))
    profiles.save()


def archived(name: str, clock: Any, *at: datetime) -> None:
    with LogArchive.open(name, clock=clock) as archive:
        archive.store(
            Log(id=f"log-{n}", entity_type="proxy", message="Proxy created", created_at=when)
            for n, when in enumerate(at)
        )


async def test_status_shows_the_archives_reach_and_warns_of_a_gap(
    service: Any, tenant: Any, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    profile("prod", service.base_url)
    profile("stage", service.base_url)
    archived("prod", lambda: T, T - timedelta(days=30), T - timedelta(days=1))
    # A last sync three days ago, of a service keeping logs a day: a gap opened.
    with LogArchive.open("prod", clock=lambda: T - timedelta(days=3)) as archive:
        await _synced(archive, service, tenant)
    with LogArchive.open("prod", clock=lambda: T) as archive:
        result = await _synced(archive, service, tenant)
        assert result.gap is not None
    monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", (T + timedelta(hours=1)).isoformat())
    await asyncio.to_thread(main, ["status"])
    out, err = capsys.readouterr()
    assert "Log archives:" in out
    line = next(row for row in out.splitlines() if row.strip().startswith("prod  logs"))
    assert "logs archived back to 2026-10-23 10:00 UTC (2 entries)" in line
    assert "gap 2026-11-19 10:00 UTC to 2026-11-21 10:00 UTC" in line
    assert "stage" not in out.split("Log archives:")[1]  # no archive, no line
    assert "tenant-console: warning: prod: the log archive misses 2026-11-19 10:00 UTC" in err

    await asyncio.to_thread(main, ["status", "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    by_name = {p["name"]: p for p in document["profiles"]}
    assert by_name["stage"]["log_archive"] is None
    prod = by_name["prod"]["log_archive"]
    assert prod["entries"] == 2 and prod["gap_opened"] is True and prod["stale"] is False
    assert prod["gaps"] == [
        {"from": "2026-11-19T10:00:00+00:00", "to": "2026-11-21T10:00:00+00:00"}
    ]

    # Two days on without a sync: the archive is stale, and says so.
    monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", (T + timedelta(days=2)).isoformat())
    summary = archive_summary("prod")
    assert summary is not None and "last synced 2 days ago" in summary
    assert archive_summary("stage") is None


async def _synced(archive: LogArchive, service: Any, tenant: Any) -> Any:
    from console.client import AdminClient

    async with AdminClient(service.base_url, tenant.key) as client:
        return await archive.sync(client)
