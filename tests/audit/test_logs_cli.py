"""`tenant-console logs` against the local service: formats, filters (the actor's applied by
the console), the archive read and synced, following, escaped text, exit codes, and a
reader that goes away."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import subprocess
import sys

import pytest
from audit_helpers import ago

from console.cli import main
from console.closed_output import READER_GONE


async def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = await asyncio.to_thread(main, ["logs", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as ended:
        main(["logs", *argv])
    assert ended.value.code == 2
    return capsys.readouterr().err


async def test_a_table_newest_first(cli_env, seed, capsys) -> None:
    seed([ago(minutes=3)], message="Oldest")
    seed([ago(minutes=2)], message="Middle")
    seed([ago(minutes=1)], message="Newest")
    code, out, err = await cli(capsys)
    assert (code, err) == (0, "")
    header, *rows = out.splitlines()
    assert header.split()[:3] == ["TIME", "ACTOR", "TYPE"]
    assert [row.split()[-1] for row in rows] == ["Newest", "Middle", "Oldest"]
    assert all(" application " in row and " create " in row for row in rows)


async def test_json_and_csv(cli_env, seed, tenant, capsys) -> None:
    (proxy,) = seed([ago(minutes=1)])
    code, out, _ = await cli(capsys, "--format", "json")
    assert code == 0
    (entry,) = json.loads(out)
    assert entry["entity_id"] == proxy and entry["actor_id"] == tenant.application_id
    assert entry["message"] == "Proxy created" and entry["created_at"].endswith("+00:00")
    code, out, _ = await cli(capsys, "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:3] == ["created_at", "id", "tenant_id"] and rows[1][7] == proxy


async def test_an_empty_list(cli_env, capsys) -> None:
    assert await cli(capsys) == (0, "No log entries.\n", "")
    assert await cli(capsys, "--format", "json") == (0, "[]\n", "")
    code, out, _ = await cli(capsys, "--format", "csv")
    assert code == 0 and out.startswith("created_at,")


async def test_filters_by_entity_time_and_actor(cli_env, seed, tenant, capsys) -> None:
    (old,) = seed([ago(hours=3)], entity_type="application", message="Old")
    seed([ago(minutes=20)], message="Recent")
    seed([ago(minutes=10)], actor="other-app", message="Other")

    async def messages(*argv: str) -> list[str]:
        code, out, err = await cli(capsys, "--format", "json", *argv)
        assert code == 0, err
        return [e["message"] for e in json.loads(out)]

    assert await messages("--entity-type", "application") == ["Old"]
    assert await messages("--entity-id", old) == ["Old"]
    assert await messages("--since", "1h") == ["Other", "Recent"]
    assert await messages("--until", "1h") == ["Old"]
    assert await messages("--actor", tenant.application_id) == ["Recent", "Old"]
    assert await messages("--actor", "other-app", "--since", "30m") == ["Other"]
    assert await messages("--limit", "1") == ["Other"]


async def test_what_the_service_sends_is_escaped(cli_env, seed, capsys) -> None:
    seed([ago(minutes=1)], message="Evil \x1b]52;c;owned\x07 \u202e")
    for fmt in ("table", "json", "csv"):
        code, out, _ = await cli(capsys, "--format", fmt)
        assert code == 0
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
        assert "52;c;owned" in out


async def test_reading_keeps_what_was_read_and_from_archive_reads_it_back(
    cli_env, seed, capsys
) -> None:
    code, out, err = await cli(capsys, "--from-archive")
    assert (code, out) == (3, "")
    assert "has no log archive yet" in err and "logs --archive" in err
    seed([ago(minutes=2)], message="First")
    seed([ago(minutes=1)], entity_type="application", message="Second")
    assert (await cli(capsys, "--entity-type", "application"))[0] == 0
    code, out, _ = await cli(capsys, "--from-archive", "--format", "json")
    assert code == 0 and [e["message"] for e in json.loads(out)] == ["Second"]
    await cli(capsys)
    code, out, _ = await cli(capsys, "--from-archive", "--format", "json", "--since", "90s")
    assert [e["message"] for e in json.loads(out)] == ["Second"]
    code, out, _ = await cli(capsys, "--from-archive")
    assert [row.split()[-1] for row in out.splitlines()[1:]] == ["Second", "First"]


async def test_archive_syncs_and_says_one_line(cli_env, seed, capsys, data_dir) -> None:
    seed([ago(hours=n + 1) for n in range(3)])
    code, out, err = await cli(capsys, "--archive")
    assert (code, err) == (0, "")
    assert out.startswith("Archived 3 new log entries (read 3); 3 kept, back to ")
    assert await cli(capsys, "--archive", "--quiet") == (0, "", "")
    code, out, _ = await cli(capsys, "--archive", "--format", "json")
    document = json.loads(out)
    assert (document["new"], document["total"], document["gap"]) == (0, 3, None)
    assert document["keep_days"] == 400
    assert (data_dir / "log-archive").is_dir()


async def test_follow_prints_new_entries_until_ctrl_c(cli_env, seed, capsys, monkeypatch) -> None:
    import console.audit.cli as logs_cli

    seed([ago(minutes=30)], message="Long ago")
    seed([ago(minutes=5)], message="Backlog")
    ticks: list[float] = []

    async def sleep(seconds: float) -> None:
        ticks.append(seconds)
        if len(ticks) == 1:
            seed([ago(seconds=1)], message="Arrived")
            return
        raise KeyboardInterrupt  # ctrl+c

    monkeypatch.setattr(logs_cli, "follow_sleep", sleep)
    code, out, err = await cli(capsys, "--follow", "--since", "10m", "--interval", "2")
    assert (code, err) == (0, "")
    assert [row.split()[-1] for row in out.splitlines()[1:]] == ["Backlog", "Arrived"]
    assert ticks[0] <= 2.0 and len(ticks) == 2
    code, out, _ = await cli(capsys, "--from-archive", "--format", "json")
    assert {e["message"] for e in json.loads(out)} >= {"Backlog", "Arrived"}


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--archive", "--entity-type", "proxy"], "--archive syncs the whole archive"),
        (["--archive", "--format", "csv"], "--format table or json"),
        (["--quiet"], "--quiet goes with --archive only"),
        (["--follow", "--from-archive"], "does not go with --from-archive"),
        (["--interval", "5"], "--interval goes with --follow only"),
        (["--follow", "--until", "1h"], "does not go with --until"),
        (["--since", "1h", "--until", "2h"], "--since must be before --until"),
    ],
)
async def test_options_that_do_not_go_together_exit_2(cli_env, capsys, argv, says) -> None:
    code, out, err = await cli(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("tenant-console logs: ") and says in err


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--since", "yesterday"], "'yesterday' is not a time"),
        (["--since", "2026-02-30"], "not a real date"),
        (["--until", "24 h"], "is not a time"),
        (["--since", "10y"], "is not a time"),
        (["--interval", "0.5"], "at least 1 second"),
        (["--entity-type", "pro xy"], "is not an entity type"),
        (["--entity-id", "a\x1bb"], "without control characters"),
        (["--limit", "0"], "at least 1"),
        (["--format", "yaml"], "invalid choice"),
    ],
)
def test_bad_values_exit_2_with_a_clear_message(capsys, argv, says) -> None:
    err = usage_error(capsys, *argv)
    assert says in err and err.startswith("tenant-console logs: error: ")


def test_when_takes_dates_date_times_and_spans() -> None:
    from datetime import UTC, datetime

    from console.audit.when import parse_when

    now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    assert parse_when("2026-11-01", now=now) == datetime(2026, 11, 1, tzinfo=UTC)
    assert parse_when("2026-11-01T10:30", now=now) == datetime(2026, 11, 1, 10, 30, tzinfo=UTC)
    assert parse_when("2026-11-01T10:30:00+02:00") == datetime(2026, 11, 1, 8, 30, tzinfo=UTC)
    assert parse_when("2026-11-01T10:30:00.5Z").microsecond == 500_000
    assert parse_when("30m", now=now) == datetime(2026, 11, 28, 11, 30, tzinfo=UTC)
    assert parse_when("7d", now=now) == datetime(2026, 11, 21, 12, 0, tzinfo=UTC)


async def test_a_failing_service_exits_1(tenant, monkeypatch, capsys) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", tenant.key)
    code, out, err = await cli(capsys)
    assert (code, out) == (1, "")
    assert err.startswith("tenant-console logs: ") and tenant.key not in err


def test_a_reader_that_goes_away_ends_it_quietly(cli_env, seed) -> None:
    """`tenant-console logs | head -1` over more than a pipe holds."""
    seed([ago(seconds=n + 1) for n in range(1500)])
    with subprocess.Popen(
        [sys.executable, "-m", "console", "logs"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ},
    ) as process:
        assert process.stdout is not None
        first = process.stdout.readline()
        process.stdout.close()
        _, err = process.communicate(timeout=60)
    assert first.startswith(b"TIME")
    assert process.returncode == READER_GONE, err
    assert b"Traceback" not in err and b"BrokenPipe" not in err


async def test_follow_as_json_is_one_object_a_line(cli_env, seed, capsys, monkeypatch) -> None:
    import console.audit.cli as logs_cli

    ticks: list[float] = []

    async def sleep(seconds: float) -> None:
        ticks.append(seconds)
        if len(ticks) == 1:
            seed([ago(seconds=2), ago(seconds=1)], message="Arrived")
            return
        raise KeyboardInterrupt

    monkeypatch.setattr(logs_cli, "follow_sleep", sleep)
    seed([ago(minutes=1)], message="Already there")  # before following: not printed
    code, out, err = await cli(capsys, "--follow", "--format", "json")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert len(lines) == 2 and all(json.loads(line)["message"] == "Arrived" for line in lines)
    assert 0 < ticks[0] <= 5.0  # the default interval, less the request's time
