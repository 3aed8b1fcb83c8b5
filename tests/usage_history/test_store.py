"""The usage history file (issue 28): per tenant (base URL + tenant id), oldest first, private
(0600 in a 0700 folder), never a key (one is injected where it must not reappear), a damaged
file said in a sentence, and the recorder never failing its reader."""

from __future__ import annotations

import stat
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from console.models.tenants import UsageReport
from console.usage_history.recorder import record_and_forecast, record_report, snapshot_of
from console.usage_history.store import (
    HISTORY_FILE,
    HistoryError,
    HistoryStore,
    Snapshot,
    default_path,
    tenant_url,
)

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)
KEY = "injected-key-7f3a9c1e5b2d4f6a8c0e"
TENANT = "5b1f2a2e-0000-4000-8000-000000000001"


def report(used: int, **extra: object) -> UsageReport:
    return UsageReport.model_validate(
        {
            "token_report": {
                "metrics_by_type": {"card": {"count": used * 2}, "bank": {"count": 7}},
                "included_monthly_active_tokens": 10_000,
                "monthly_active_tokens": used,
                **extra,
            }
        }
    )


def test_the_default_file_is_in_the_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / HISTORY_FILE


def test_snapshots_are_kept_per_tenant_oldest_first(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite3")
    assert store.snapshots("http://a", TENANT) == []  # nothing yet, no file made
    assert not store.path.exists()
    for hours, used in ((3, 300), (1, 500), (2, 400)):
        snapshot = snapshot_of(report(used), NOW - timedelta(hours=hours), reader="header")
        assert store.record("http://a.example/", TENANT, snapshot)
    store.record("http://a.example", "other-tenant", snapshot_of(report(9), NOW, reader="cli"))
    store.record("http://b.example", TENANT, snapshot_of(report(8), NOW, reader="cli"))
    kept = store.snapshots("HTTP://A.example", TENANT)
    assert [s.monthly_active for s in kept] == [300, 400, 500]
    assert kept[0].by_type == {"bank": 7, "card": 600} and kept[0].included == 10_000
    assert kept[0].total == 607 and kept[0].reader == "header" and not kept[0].demo
    assert store.tenants("http://a.example") == ["other-tenant", TENANT]
    assert [
        s.monthly_active
        for s in store.snapshots("http://a.example", TENANT, since=NOW - timedelta(hours=2))
    ] == [400, 500]


def test_the_same_figures_read_at_once_are_kept_once(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite3")
    first = snapshot_of(report(100), NOW, reader="header")
    assert store.record("http://a", TENANT, first)
    assert not store.record("http://a", TENANT, snapshot_of(report(100), NOW, reader="dashboard"))
    later = NOW + timedelta(minutes=5)
    assert store.record("http://a", TENANT, snapshot_of(report(100), later, reader="dashboard"))
    assert store.record("http://a", TENANT, snapshot_of(report(101), later, reader="overview"))
    assert [s.reader for s in store.snapshots("http://a", TENANT)] == [
        "header",
        "dashboard",
        "overview",
    ]


def test_the_file_is_private(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "new" / "h.sqlite3")
    store.record("http://a", TENANT, snapshot_of(report(1), NOW, reader="cli"))
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    for extra in store.path.parent.iterdir():
        assert stat.S_IMODE(extra.stat().st_mode) & 0o077 == 0, extra


def test_no_key_reaches_the_file(tmp_path: Path) -> None:
    """A key injected into the base URL (user info, query, fragment) and into the report's
    unknown fields is nowhere in the file."""
    store = HistoryStore(tmp_path / "h.sqlite3")
    hostile = UsageReport.model_validate(
        {
            "api_key": KEY,
            "token_report": {
                "monthly_active_tokens": 5,
                "included_monthly_active_tokens": 10,
                "metrics_by_type": {"card": {"count": 1, "key": KEY}},
                "echo": KEY,
            },
        }
    )
    url = f"https://admin:{KEY}@Tenant.Example.com:8443/api/?key={KEY}#{KEY}"
    assert record_report(url, TENANT, hostile, reader="header", at=NOW, store=store)
    assert tenant_url(url) == "https://tenant.example.com:8443/api"
    for path in store.path.parent.iterdir():
        assert KEY.encode() not in path.read_bytes(), path
    (kept,) = store.snapshots("https://tenant.example.com:8443/api", TENANT)
    assert kept.monthly_active == 5 and kept.by_type == {"card": 1}


def test_a_damaged_file_is_a_sentence_and_the_recorder_carries_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    store = HistoryStore(path)
    with pytest.raises(HistoryError, match="Cannot use the usage history"):
        store.snapshots("http://a", TENANT)
    assert not record_report("http://a", TENANT, report(3), reader="header", store=store)
    assert "could not be kept in the history" in caplog.text
    snapshots, result = record_and_forecast("http://a", TENANT, report(3), reader="x", store=store)
    assert snapshots == [] and not result.available


def test_a_demo_history_marks_everything_it_keeps(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "demo.sqlite3", demo=True)
    store.record("http://a", TENANT, Snapshot(at=NOW, monthly_active=1, included=2))
    (kept,) = store.snapshots("http://a", TENANT)
    assert kept.demo


def test_no_tenant_id_records_nothing(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "h.sqlite3")
    assert not record_report("http://a", None, report(3), reader="dashboard", store=store)
    assert not store.path.exists()


def test_a_symlinked_history_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"precious\n")
    path = tmp_path / "data" / "usage-history.sqlite3"
    path.parent.mkdir()
    path.symlink_to(victim)
    store = HistoryStore(path)
    snapshot = snapshot_of(report(5), datetime(2026, 3, 1, tzinfo=UTC), reader="cli")
    for attempt in (
        lambda: store.record("http://127.0.0.1:1", "t", snapshot),
        lambda: store.snapshots("http://127.0.0.1:1", "t"),
        lambda: store.tenants("http://127.0.0.1:1"),
    ):
        with pytest.raises(HistoryError, match="symbolic link") as refused:
            attempt()
        assert str(path) in str(refused.value)
    assert victim.read_bytes() == b"precious\n" and path.is_symlink()


def test_a_history_others_can_write_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "usage-history.sqlite3"
    store = HistoryStore(path)
    moment = datetime(2026, 3, 1, tzinfo=UTC)
    store.record("http://127.0.0.1:1", "t", snapshot_of(report(5), moment, reader="cli"))
    path.chmod(0o646)
    with pytest.raises(HistoryError, match="can be written by other users"):
        store.snapshots("http://127.0.0.1:1", "t")
