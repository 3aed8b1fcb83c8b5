"""`tenant-console usage [--profile P] [--record] [--history] [--format table|json|csv]`
(issue 28), in process against the local service: each format, recording (never a key in the
file), the history with its forecast, the history when the service does not answer, and
`status` recording what it reads. Time is set with TENANT_CONSOLE_FROZEN_NOW."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from memory_keyring import MemoryKeyring

from console.cli import main
from console.profiles.config import Profile, ProfilesFile
from console.profiles.keys import SERVICE
from console.usage_history.store import HISTORY_FILE, HistoryStore, Snapshot

START = datetime(2026, 11, 10, 9, 0, tzinfo=UTC)
CLOSED_PORT_URL = "http://127.0.0.1:9"


def save(name: str, base_url: str, key: str, backend: MemoryKeyring) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile(name=name, base_url=base_url))
    profiles.save()
    backend.entries[(SERVICE, name)] = key


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "data"
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(directory))
    return directory


@pytest.fixture
def tenant(service: Any, memory_keyring: MemoryKeyring, data_dir: Path) -> Any:
    tenant = service.new_tenant("Usage Corp")
    service.set_usage(tenant.tenant_id, 10_000, 4_000, {"card": (120, None), "=cmd": (3, None)})
    save("main", service.base_url, tenant.key, memory_keyring)
    return tenant


def at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", moment.isoformat())


def test_without_flags_it_prints_the_report_and_records_nothing(
    tenant: Any, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["usage"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0] == "Monthly active tokens  4,000 of 10,000 included (40%)"
    assert lines[1] == "Total tokens           123"
    assert lines[3:] == ["TYPE  COUNT", "card  120", "=cmd  3"]
    assert err == "" and not (data_dir / HISTORY_FILE).exists()

    assert main(["usage", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["profile"] == "main" and document["tenant_id"] == tenant.tenant_id
    assert document["monthly_active_tokens"] == 4_000
    assert document["included_monthly_active_tokens"] == 10_000
    assert document["by_type"] == {"card": 120, "=cmd": 3}

    assert main(["usage", "--profile", "main", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0][:6] == [
        "time",
        "monthly_active_tokens",
        "included_monthly_active_tokens",
        "total_tokens",
        "reader",
        "demo",
    ]
    assert rows[0][6:] == ["'=cmd", "card"]  # a formula-looking type name is defused
    assert rows[1][1:] == ["4000", "10000", "123", "cli", "false", "3", "120"]


def test_record_keeps_each_report_and_history_shows_them_with_the_forecast(
    tenant: Any,
    service: Any,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for day, used in enumerate((4_000, 4_600, 5_200)):
        service.set_usage(tenant.tenant_id, 10_000, used, {"card": (100 + day, None)})
        at(monkeypatch, START + timedelta(days=day))
        assert main(["usage", "--record"]) == 0
        assert f"{used:,} of 10,000" in capsys.readouterr().out
    path = data_dir / HISTORY_FILE
    assert path.stat().st_mode & 0o777 == 0o600
    for file in data_dir.iterdir():
        assert tenant.key.encode() not in file.read_bytes()  # never the key

    at(monkeypatch, START + timedelta(days=2, hours=1))
    assert main(["usage", "--history"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split() == ["TIME", "MAT", "PLAN", "TOTAL", "READ", "BY"]
    assert lines[1].split() == ["2026-11-10", "09:00", "UTC", "4,000", "10,000", "100", "cli"]
    assert lines[3].split()[3] == "5,200"
    assert lines[5] == "Forecast for November 2026"
    # 600 a day from 5,200 on Nov 12 at 09:00, for 18.625 days: 16,375.
    assert lines[6] == (
        "  Month-end estimate 16,375 monthly active tokens (range 16,375 to 16,375),"
        " from 3 snapshots."
    )
    assert (
        lines[7] == "  The plan's 10,000 will be passed on Nov 20 (in 8 days) if the trend holds."
    )

    assert main(["usage", "--history", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert set(document) == {"profile", "base_url", "tenant_id", "snapshots", "forecast"}
    assert [s["monthly_active_tokens"] for s in document["snapshots"]] == [4_000, 4_600, 5_200]
    assert document["snapshots"][0]["at"] == "2026-11-10T09:00:00Z"
    assert document["forecast"]["basis"] == 3 and document["forecast"]["estimate"] == 16_375
    assert document["forecast"]["passes_on"] == "2026-11-20T09:00:00Z"
    assert document["forecast"]["warning"] is False

    assert main(["usage", "--history", "--format", "csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert [row[1] for row in rows] == ["monthly_active_tokens", "4000", "4600", "5200"]
    assert [row[6] for row in rows] == ["card", "100", "101", "102"]


def test_history_with_no_snapshot_cannot_forecast(
    tenant: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["usage", "--history"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "No usage recorded yet for this tenant."
    assert "Cannot forecast yet: no snapshot this month; a trend needs at least two." in out
    assert main(["usage", "--history", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["snapshots"] == [] and document["forecast"]["available"] is False


def test_history_is_read_when_the_service_does_not_answer(
    memory_keyring: MemoryKeyring,
    data_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    save("gone", CLOSED_PORT_URL, "some-key-000000000000000000000000", memory_keyring)
    HistoryStore().record(
        CLOSED_PORT_URL, "t-1", Snapshot(at=START, monthly_active=7, included=10, reader="cli")
    )
    at(monkeypatch, START + timedelta(hours=1))
    assert main(["usage", "--history"]) == 0
    out, err = capsys.readouterr()
    assert "2026-11-10 09:00 UTC" in out and "Cannot forecast yet: one snapshot" in out
    assert "Showing the history last recorded for http://127.0.0.1:9" in err

    assert main(["usage"]) == 1  # the report itself needs the service
    assert "usage:" in capsys.readouterr().err


def test_status_records_what_it_reads(
    tenant: Any, service: Any, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["status"]) == 0
    capsys.readouterr()
    (kept,) = HistoryStore().snapshots(service.base_url, tenant.tenant_id)
    assert (
        kept.reader == "status"
        and kept.monthly_active == 4_000
        and kept.by_type
        == {
            "card": 120,
            "=cmd": 3,
        }
    )


@pytest.mark.parametrize("fmt", ["table", "json", "csv"])
def test_record_with_a_damaged_history_still_prints_the_report(
    tenant: Any, data_dir: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    """As docs/usage-history.md says: the report is printed; the history file's failure is
    said in one line on stderr (exit 1, so a timer notices) and the file is left as it was."""
    data_dir.mkdir(parents=True, exist_ok=True)
    damaged = data_dir / HISTORY_FILE
    damaged.write_bytes(b"this is not an SQLite database\n" * 100)
    before = damaged.read_bytes()
    assert main(["usage", "--record", "--format", fmt]) == 1
    out, err = capsys.readouterr()
    assert "4,000" in out or "4000" in out, out
    assert str(damaged) in err and "not recorded" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert damaged.read_bytes() == before
