"""`tenant-console review --evidence DIR` and `review --verify DIR` in-process against the real
local service: the pack's files (0600, in a 0700 folder), the manifest's digests, no key or
configuration value in any byte of it, the period's logs, and a changed, removed or added file
named by --verify."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path
from typing import Any

import pytest
from people_tenant import PeopleTenant

from console.cli import main
from console.evidence.manifest import (
    CONFIGURATION,
    LOG_FIELDS,
    LOGS,
    MANIFEST,
    PACK_FILES,
    REVIEW_CSV,
    REVIEW_JSON,
    canonical,
)
from console.profiles.config import Profile, ProfilesFile

PROXY_SECRET = "proxy-config-value-must-never-leave-0123456789"
REACTOR_SECRET = "reactor-config-value-must-never-leave-9876543210"


@pytest.fixture
def pack_tenant(service: Any, memory_keyring: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path):  # type: ignore[no-untyped-def]
    """A profile "prod" on a tenant with people (one without MFA, a pending invitation), a
    proxy whose configuration holds a secret, and the profile's own data dir (its archive)."""
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    tenant = PeopleTenant.make(service, "Evidence")
    tenant.member("nomfa@example.com", "READ_ONLY", mfa=False)
    tenant.invite("pending@example.com")
    secrets = [tenant.key]
    with tenant.http() as http:
        proxy = http.post(
            "/proxies",
            json={
                "name": "Checkout",
                "destination_url": "https://example.com/checkout",
                "configuration": {"API_TOKEN": PROXY_SECRET},
                "require_auth": True,
            },
        )
        assert proxy.status_code == 201, proxy.text
        if proxy.json().get("key"):
            secrets.append(proxy.json()["key"])
        made = http.post(
            "/applications",
            json={"name": "Payouts", "type": "private", "permissions": ["token:read"]},
        )
        assert made.status_code == 201, made.text
        secrets.append(made.json()["key"])
    profiles = ProfilesFile.load()
    profiles.add(Profile("prod", service.base_url))
    profiles.save()
    memory_keyring.set_password("tenant-console", "prod", tenant.key)
    return tenant, secrets


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def test_the_pack_is_written_complete_private_and_without_secrets(
    pack_tenant: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tenant, secrets = pack_tenant
    folder = tmp_path / "pack"
    assert main(["review", "--profile", "prod", "--evidence", str(folder)]) == 0
    err = capsys.readouterr().err
    assert "Wrote the evidence pack" in err and "manifest_sha256" in err
    files = files_of(folder)
    assert set(files) == {*PACK_FILES, MANIFEST}
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in files:
        assert stat.S_IMODE((folder / name).stat().st_mode) == 0o600, name

    manifest = json.loads(files[MANIFEST])
    for name in PACK_FILES:
        about = manifest["files"][name]
        assert about == {
            "sha256": hashlib.sha256(files[name]).hexdigest(),
            "bytes": len(files[name]),
        }
    without = {k: v for k, v in manifest.items() if k != "manifest_sha256"}
    assert manifest["manifest_sha256"] == hashlib.sha256(canonical(without)).hexdigest()
    assert manifest["profile"] == "prod"
    assert manifest["tenant_id"] == tenant.tenant_id
    assert manifest["tool"]["name"] == "tenant-console" and manifest["tool"]["version"]
    assert manifest["period"]["until"] and manifest["created_at"]

    for name, data in files.items():  # every byte of every file
        for secret in (*secrets, PROXY_SECRET):
            assert secret.encode() not in data, f"{name} holds a secret"

    configuration = json.loads(files[CONFIGURATION])
    (proxy,) = configuration["proxies"]
    assert proxy["configuration"] == {"API_TOKEN": "<redacted>"}

    lines = [json.loads(line) for line in files[LOGS].decode().splitlines()]
    assert lines and all(list(line) == list(LOG_FIELDS) for line in lines)
    assert manifest["logs"]["entries"] == len(lines)
    messages = {line["message"] for line in lines}
    assert any("Proxy created" in (m or "") for m in messages)
    times = [line["created_at"] for line in lines]
    assert times == sorted(times), "oldest first"

    review = json.loads(files[REVIEW_JSON])
    by_email = {person["email"]: person["flags"] for person in review["people"]}
    assert by_email["nomfa@example.com"] == ["mfa-missing"]
    assert by_email["pending@example.com"] == ["invitation-pending"]
    assert by_email["owner@example.com"] == ["owner"]
    apps = {app["name"]: app for app in review["applications"]}
    assert apps["Bootstrap management"]["last_activity_at"] is not None
    assert b"mfa-missing" in files[REVIEW_CSV]

    assert main(["review", "--verify", str(folder)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and "intact" in err


def test_verify_names_a_changed_a_missing_and_an_extra_file(
    pack_tenant: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()  # an empty folder is fine
    assert main(["review", "--profile", "prod", "--evidence", str(folder)]) == 0
    capsys.readouterr()

    logs = folder / LOGS
    original = logs.read_bytes()
    logs.write_bytes(original.replace(b"created", b"CREATED", 1))
    (folder / CONFIGURATION).unlink()
    (folder / "notes.txt").write_text("added later\n")
    assert main(["review", "--verify", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [
        f"changed: {LOGS}",
        f"missing: {CONFIGURATION}",
        "extra: notes.txt",
    ]
    assert "NOT intact" in err

    assert main(["review", "--verify", str(folder), "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)
    assert found["intact"] is False
    assert (found["changed"], found["missing"], found["extra"]) == (
        [LOGS],
        [CONFIGURATION],
        ["notes.txt"],
    )

    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["files"][LOGS]["sha256"] = hashlib.sha256(logs.read_bytes()).hexdigest()
    (folder / MANIFEST).write_text(json.dumps(manifest))  # the file "fixed" in the manifest
    assert main(["review", "--verify", str(folder)]) == 1
    assert f"changed: {MANIFEST}" in capsys.readouterr().out.splitlines()


def test_a_folder_with_anything_in_it_is_refused_and_left_alone(
    pack_tenant: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / MANIFEST).write_text("mine\n")
    assert main(["review", "--profile", "prod", "--evidence", str(folder)]) == 2
    assert "not empty" in capsys.readouterr().err
    assert files_of(folder) == {MANIFEST: b"mine\n"}
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert main(["review", "--profile", "prod", "--evidence", str(a_file)]) == 2
    assert a_file.read_text() == "x"


def test_the_period_chooses_the_logs(
    pack_tenant: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = tmp_path / "before"
    assert main(["review", "--profile", "prod", "--evidence", str(before), "--until", "1h"]) == 0
    assert (before / LOGS).read_bytes() == b""
    manifest = json.loads((before / MANIFEST).read_text())
    assert manifest["logs"]["entries"] == 0
    recent = tmp_path / "recent"
    args = ["review", "--profile", "prod", "--evidence", str(recent), "--since", "1h"]
    assert main(args) == 0
    assert json.loads((recent / MANIFEST).read_text())["logs"]["entries"] > 0


@pytest.mark.parametrize(
    "args",
    [
        ["--evidence", "DIR", "--since", "yesterday-ish"],
        ["--evidence", "DIR", "--since", "1h", "--until", "2h"],
        ["--evidence", "DIR", "--verify", "DIR"],
        ["--since", "1h"],
        ["--evidence", "DIR", "-o", "x.csv"],
        ["--evidence", "DIR", "--format", "json"],
    ],
)
def test_misused_options_are_usage_errors(
    args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(tmp_path / "pack") if a == "DIR" else a for a in args]
    assert main(["review", *args]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "pack").exists()


def test_a_pack_from_the_environment_alone(
    pack_tenant: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No profile: the logs go through an archive of this run only."""
    tenant, _secrets = pack_tenant
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", tenant.service.base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", tenant.key)
    folder = tmp_path / "pack"
    assert main(["review", "--evidence", str(folder)]) == 0
    manifest = json.loads((folder / MANIFEST).read_text())
    assert manifest["profile"] is None and manifest["logs"]["entries"] > 0
    assert main(["review", "--verify", str(folder)]) == 0


def test_verify_without_a_manifest_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "pack"
    folder.mkdir()
    (folder / LOGS).write_text("")
    assert main(["review", "--verify", str(folder)]) == 1
    assert f"missing: {MANIFEST}" in capsys.readouterr().out


def test_the_review_counts_the_archives_activity(
    pack_tenant: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """91 days on (the project clock): Payouts acted 5 days ago by the profile's archive, so it
    is not inactive; the bootstrap application's last activity (today's writes) is 91 days old,
    so it is; `--inactive-days 100` flags neither."""
    from datetime import UTC, datetime, timedelta

    from console.audit.archive import LogArchive
    from console.clock import FROZEN_NOW_ENV
    from console.models.logs import Log

    tenant, _secrets = pack_tenant
    later = datetime.now(UTC) + timedelta(days=91)
    monkeypatch.setenv(FROZEN_NOW_ENV, later.isoformat())
    assert main(["review", "--profile", "prod", "--format", "json"]) == 0
    apps = {a["name"]: a for a in json.loads(capsys.readouterr().out)["applications"]}
    payouts = apps["Payouts"]
    assert "inactive" in payouts["flags"] and payouts["last_activity_at"] is None

    acted = later - timedelta(days=5)
    with LogArchive.open("prod") as archive:
        archive.store(
            [
                Log(
                    id="6f1c1f0e-3a43-4b8e-9b8a-0d6c1b1e0a01",
                    tenant_id=tenant.tenant_id,
                    actor_id=payouts["id"],
                    actor_type="application",
                    entity_type="token",
                    entity_id="6f1c1f0e-3a43-4b8e-9b8a-0d6c1b1e0a02",
                    operation="read",
                    message="Token retrieved",
                    created_at=acted,
                )
            ]
        )
    assert main(["review", "--profile", "prod", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    apps = {a["name"]: a for a in document["applications"]}
    assert "inactive" not in apps["Payouts"]["flags"]
    assert datetime.fromisoformat(apps["Payouts"]["last_activity_at"]) == acted
    assert "inactive" in apps["Bootstrap management"]["flags"]
    assert document["activity"]["known_since"] is not None

    assert main(["review", "--profile", "prod", "--format", "csv", "--inactive-days", "100"]) == 0
    assert "inactive" not in capsys.readouterr().out


def test_another_tenants_entries_in_the_archive_stay_out(pack_tenant: Any, tmp_path: Path) -> None:
    """A profile whose key once reached another tenant has that tenant's entries archived."""
    from datetime import UTC, datetime

    from console.audit.archive import LogArchive
    from console.models.logs import Log

    other = "0d9a3c52-4f0e-4a8e-8c3e-2b5a6f1d7e90"
    with LogArchive.open("prod") as archive:
        archive.store(
            [
                Log(
                    id="0d9a3c52-4f0e-4a8e-8c3e-2b5a6f1d7e91",
                    tenant_id=other,
                    actor_id=other,
                    actor_type="application",
                    entity_type="proxy",
                    entity_id=other,
                    operation="create",
                    message="Another tenant's proxy created",
                    created_at=datetime.now(UTC),
                )
            ]
        )
    folder = tmp_path / "pack"
    assert main(["review", "--profile", "prod", "--evidence", str(folder)]) == 0
    text = (folder / LOGS).read_text()
    assert "Another tenant" not in text and other not in text
    assert "Proxy created" in text


def test_a_key_that_may_not_read_logs_judges_no_inactivity(
    pack_tenant: Any,
    service: Any,
    memory_keyring: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """91 days on, without `log:read` and with an empty archive: nothing is flagged inactive
    (an empty archive would make every application look so), and stderr says why."""
    from datetime import UTC, datetime, timedelta

    from console.clock import FROZEN_NOW_ENV

    tenant, _secrets = pack_tenant
    permissions = ["application:read", "reactor:read", "tenant:member:read"]
    key = service.new_key([*permissions, "tenant:invitation:read"], tenant.key)
    profiles = ProfilesFile.load()
    profiles.add(Profile("limited", service.base_url))
    profiles.save()
    memory_keyring.set_password("tenant-console", "limited", key)
    monkeypatch.setenv(FROZEN_NOW_ENV, (datetime.now(UTC) + timedelta(days=91)).isoformat())
    assert main(["review", "--profile", "limited", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert not any("inactive" in app["flags"] for app in document["applications"])
    assert document["activity"]["problem"] and "could not be read" in err
