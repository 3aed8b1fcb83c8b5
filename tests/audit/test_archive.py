"""The log archive (console.audit.archive): what it keeps and how, its queries, and its sync
against the real local service: picking up where it stopped, keeping entries past the
service's retention, recording the gap a late sync finds, pruning."""

from __future__ import annotations

import itertools
import os
import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import Counting, ago, seed_into

from console.audit.archive import (
    SYNC_IN_FLIGHT,
    LogArchive,
    Window,
    archive_path,
    plan_windows,
    split_rest,
)
from console.client import AdminClient
from console.files import UnsafeFileError
from console.models.logs import Log

T = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def entry(n: int, at: datetime, **fields: Any) -> Log:
    values: dict[str, Any] = {
        "id": f"00000000-0000-4000-8000-{n:012d}",
        "tenant_id": "t",
        "actor_id": "app-1",
        "actor_type": "application",
        "entity_type": "proxy",
        "entity_id": f"proxy-{n}",
        "operation": "create",
        "message": "Proxy created",
        "created_at": at,
    }
    values.update(fields)
    return Log.model_validate(values)


def test_store_keeps_each_entry_once_and_query_answers_newest_first(data_dir: Path) -> None:
    with LogArchive.open("prod") as archive:
        entries = [entry(n, T + timedelta(minutes=n)) for n in range(5)]
        assert archive.store(entries) == 5
        assert archive.store([*entries[2:], entry(9, T + timedelta(hours=1))]) == 1
        # Without an id an entry is known by what it says: the same twice is one.
        anonymous = entry(0, T, id=None, message="Tenant updated")
        assert archive.store([anonymous, anonymous.model_copy()]) == 1
        assert [e.entity_id for e in archive.query(limit=3)] == ["proxy-9", "proxy-4", "proxy-3"]
        assert archive.reach().count == 7
        assert [e.message for e in archive.query(since=T, until=T + timedelta(minutes=1))] == [
            "Tenant updated",
            "Proxy created",
        ]  # since inclusive, until exclusive; the same time: the later stored first
        assert archive.query(entity_id="proxy-2")[0].created_at == T + timedelta(minutes=2)
        assert archive.query(actor_id="nobody") == []


def test_query_filters_by_entity_actor_and_time(data_dir: Path) -> None:
    with LogArchive.open("prod") as archive:
        archive.store(
            [
                entry(1, T, entity_type="application", actor_id="a"),
                entry(2, T + timedelta(hours=1), actor_id="b"),
                entry(3, T + timedelta(hours=2), actor_id="a"),
            ]
        )
        assert [e.entity_id for e in archive.query(actor_id="a")] == ["proxy-3", "proxy-1"]
        assert [e.entity_id for e in archive.query(entity_type="proxy")] == ["proxy-3", "proxy-2"]
        assert [
            e.entity_id for e in archive.query(since=T + timedelta(minutes=30), actor_id="a")
        ] == ["proxy-3"]
        assert archive.last_activity(["a", "b", "c"]) == {
            "a": T + timedelta(hours=2),
            "b": T + timedelta(hours=1),
        }
        reach = archive.reach()
        assert (reach.oldest, reach.newest, reach.count) == (T, T + timedelta(hours=2), 3)
        assert reach.last_synced is None and reach.gaps == []
        assert archive.size_bytes() > 0


def test_the_file_is_private_and_never_reached_through_a_link(data_dir: Path) -> None:
    with LogArchive.open("prod/2") as archive:
        archive.store([entry(1, T)])
        path = archive.path
        assert path == archive_path("prod/2") and path.name == "prod_2.sqlite3"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        for side in (Path(f"{path}-wal"), Path(f"{path}-shm")):
            if side.exists():
                assert stat.S_IMODE(side.stat().st_mode) == 0o600
    other = data_dir / "elsewhere.sqlite3"
    other.write_bytes(b"")
    os.symlink(other, archive_path("linked"))
    with pytest.raises(UnsafeFileError, match="symbolic link"):
        LogArchive.open("linked")


def test_prune_drops_entries_older_than_the_days_kept(data_dir: Path) -> None:
    with LogArchive.open("prod", clock=lambda: T) as archive:
        archive.store(
            [
                entry(1, T - timedelta(days=500)),
                entry(2, T - timedelta(days=401)),
                entry(3, T - timedelta(days=399)),
            ]
        )
        assert archive.prune(400) == 2
        assert [e.entity_id for e in archive.query()] == ["proxy-3"]
        with pytest.raises(ValueError):
            archive.prune(0)


def test_windows_cover_the_period_without_overlap() -> None:
    horizon = T - timedelta(days=1)
    windows = plan_windows(None, T, horizon)
    assert len(windows) == 24 and windows[0].start is None and windows[-1].end is None
    for before, after in itertools.pairwise(windows):
        assert before.end == after.start
    # Minutes after the last sync: one window, one request.
    assert plan_windows(T - timedelta(minutes=3), T, horizon) == [
        Window(T - timedelta(minutes=3), None)
    ]
    # Where the service no longer answers, the period is not split.
    old = plan_windows(T - timedelta(days=30), T, horizon)
    assert old[0].start == T - timedelta(days=30) and old[1].start > horizon


async def test_a_second_sync_reads_only_from_where_the_first_stopped(
    client: AdminClient, seed: Any, counting: Counting, data_dir: Path
) -> None:
    seed([ago(minutes=7 * n + 1) for n in range(150)])  # over some 17 hours
    with LogArchive.open("prod") as archive:
        first = await archive.sync(client)
        assert (first.new, first.read, first.total, first.gap) == (150, 150, 150, None)
        assert 1 < counting.most_in_flight <= SYNC_IN_FLIGHT
        assert first.requests == len(counting.logs_requests())
        seed([ago(seconds=1) for _ in range(3)])
        counting.requests.clear()
        second = await archive.sync(client)
        assert (second.new, second.total) == (3, 153)
        assert second.read < 10  # from the newest entry the first saw (less a minute)
        assert second.requests == len(counting.logs_requests()) == 1
        assert archive.reach().last_synced is not None


async def test_sync_reads_every_page_of_a_busy_window(
    client: AdminClient, seed: Any, data_dir: Path
) -> None:
    seed([ago(seconds=n * 0.01 + 1) for n in range(450)])  # all in one window, 5 pages
    with LogArchive.open("prod") as archive:
        result = await archive.sync(client)
        assert (result.new, result.total) == (450, 450)
        assert result.read - result.new <= 6  # a split re-reads the instant it split at


async def test_no_key_reaches_the_archive(client: AdminClient, tenant: Any, data_dir: Path) -> None:
    made = await client.applications.create(
        {"name": "Keyed", "type": "private", "permissions": ["token:read"]}
    )
    assert made.key
    await client.applications.regenerate(made.id)
    with LogArchive.open("prod") as archive:
        result = await archive.sync(client)
        assert result.new >= 2
        path = archive.path
    stored = b"".join(
        Path(f"{path}{suffix}").read_bytes()
        for suffix in ("", "-wal")
        if Path(f"{path}{suffix}").exists()
    )
    assert tenant.key.encode() not in stored
    assert made.key.encode() not in stored


async def test_entries_outlive_the_services_retention_and_a_late_sync_records_a_gap(
    start_service: Any, data_dir: Path
) -> None:
    running = start_service(frozen_now=T.isoformat(), log_retention=3600)
    seed = seed_into(running.data_dir, running.tenant_id, running.application_id)
    seed([T - timedelta(minutes=n) for n in range(1, 11)])
    now = [T]
    path = data_dir / "late.sqlite3"

    async def sync(at: datetime) -> Any:
        now[0] = at
        with LogArchive.open("late", path=path, clock=lambda: now[0]) as archive:
            async with AdminClient(running.base_url, running.key) as client:
                return await archive.sync(client, retention_seconds=3600)

    first = await sync(T)
    assert (first.new, first.gap) == (10, None)

    later = T + timedelta(hours=3)
    running.stop()
    running.frozen_now = later.isoformat()
    running.start()
    seed([later - timedelta(minutes=1)])
    second = await sync(later)
    assert second.new == 1 and second.total == 11  # the first ten only in the archive now
    assert second.gap == (T, later - timedelta(hours=1))
    with LogArchive.open("late", path=path, clock=lambda: later) as archive:
        reach = archive.reach()
        assert reach.gaps == [second.gap] and reach.opened_at_last_sync == second.gap
        assert len(archive.query(until=T)) == 10
    third = await sync(later + timedelta(minutes=10))
    assert third.gap is None and third.new == 0
    with LogArchive.open("late", path=path) as archive:
        assert archive.reach().opened_at_last_sync is None
        assert len(archive.reach().gaps) == 1


async def test_sync_prunes_to_the_days_kept(client: AdminClient, seed: Any, data_dir: Path) -> None:
    seed([ago(minutes=5)])
    with LogArchive.open("prod") as archive:
        archive.store([entry(1, datetime.now(UTC) - timedelta(days=30))])
        result = await archive.sync(client, keep_days=7)
        assert (result.new, result.pruned, result.total) == (1, 1, 1)


def test_a_busy_windows_rest_is_split_only_when_much_fuller() -> None:
    window = Window(T, T + timedelta(hours=1))
    # The first page covers the window's last minute: the rest looks like 59 pages more.
    busy = [T + timedelta(minutes=59, seconds=n * 0.5) for n in range(100)]
    parts = split_rest(window, busy, horizon=T - timedelta(days=1), now=T, parts=6)
    assert len(parts) == 6 and parts[0].start == T
    assert parts[-1].end == T + timedelta(minutes=59, microseconds=1)
    for before, after in itertools.pairwise(parts):
        assert before.end == after.start
    # A page covering half the window: one more page or so, read on by cursor.
    even = [T + timedelta(minutes=30, seconds=n * 18) for n in range(100)]
    assert split_rest(window, even, horizon=T - timedelta(days=1), now=T, parts=6) == []


async def test_a_burst_is_read_by_several_windows_at_once(
    client: AdminClient, seed: Any, counting: Counting, data_dir: Path
) -> None:
    seed([ago(hours=5, seconds=n * 0.05) for n in range(1500)])  # 15 pages within 75 s
    with LogArchive.open("prod") as archive:
        result = await archive.sync(client)
        assert (result.new, result.total) == (1500, 1500)
        assert result.read - result.new <= 12
        assert result.requests <= 24 + 15 + 2 * 6
        assert counting.most_in_flight > 1


@pytest.mark.parametrize(
    "item",
    [
        {
            "id": "log-1",
            "actor_id": "a",
            "message": "Proxy created",
            "created_at": "2026-11-22T10:00:00+00:00",
        },
        {"id": "log-2", "created_at": "2026-11-22T12:00:00.5+02:00", "extra": 1},
        {"id": "log-3", "created_at": "2026-11-22T10:00:00"},
        {"message": "No id", "created_at": "2026-11-22T10:00:00Z"},
        {"id": "log-5", "created_at": "2026-11-22T10:00:00Z", "operation": None},
    ],
)
def test_an_entry_is_stored_as_its_log_would_be(item: dict[str, Any]) -> None:
    from console.audit.archive import _row, _row_as_sent

    assert _row_as_sent(item) == _row(Log.model_validate(item))


def test_an_unreadable_entry_is_skipped_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    from console.audit.archive import _row_as_sent

    assert _row_as_sent({"id": "x", "created_at": "not a time"}) is None
    assert _row_as_sent({"id": 7, "created_at": "2026-11-22T10:00:00Z"}) is None
    assert "cannot read" in caplog.text


async def test_a_failed_sync_raises_the_clients_error_and_moves_nothing(
    tenant: Any, data_dir: Path
) -> None:
    from console.client import RetryPolicy, ServiceUnreachable

    no_retry = RetryPolicy(max_attempts=1)
    async with AdminClient("http://127.0.0.1:9", tenant.key, retry=no_retry) as dead:
        with LogArchive.open("prod") as archive:
            with pytest.raises(ServiceUnreachable):
                await archive.sync(dead)
            assert archive.last_synced is None and archive.synced_through is None
