"""`tenant-console review` in-process against the real local service: the profile and key found
as the console finds them (keyring, environment), CSV and JSON, usage errors (2) and service
failures (1) in one line, and never any key material."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from profiles_helpers import closed_port_url

from console.cli import main
from console.profiles.config import Profile, ProfilesFile


@pytest.fixture
def tenant(service):  # type: ignore[no-untyped-def]
    """A tenant with a revealing application and a read-only one; their keys (returned by
    create) are kept to check that no export carries them."""
    info = service.new_tenant("Review CLI")
    keys = [info.key]
    bodies = [
        {
            "name": "Payouts",
            "type": "private",
            "permissions": ["token:create"],
            "rules": [
                {
                    "description": "Bank accounts",
                    "priority": 1,
                    "container": "/bank/",
                    "transform": "reveal",
                    "permissions": ["token:read"],
                }
            ],
        },
        {
            "name": "Reader",
            "type": "management",
            "permissions": ["application:read"],
            "expires_at": "2099-01-01T00:00:00+00:00",
        },
    ]
    with httpx.Client(base_url=service.base_url, headers={"SVC-API-KEY": info.key}) as http:
        for body in bodies:
            created = http.post("/applications", json=body)
            assert created.status_code == 201, created.text
            keys.append(created.json()["key"])
    return info, keys


def env_connection(monkeypatch: pytest.MonkeyPatch, base_url: str, key: str) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", key)


def save_profile(name: str, base_url: str) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile(name, base_url))
    profiles.save()


def test_csv_to_standard_output_with_the_key_from_the_environment(
    service, tenant, monkeypatch, capsys
) -> None:
    info, keys = tenant
    env_connection(monkeypatch, service.base_url, info.key)
    assert main(["review"]) == 0
    out, err = capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out)))
    by_name = {row["name"]: row for row in rows}
    assert set(by_name) == {"Bootstrap management", "Payouts", "Reader"}
    assert by_name["Payouts"]["flags"] == "reveal;never-expires"
    assert by_name["Reader"]["flags"] == ""
    assert by_name["Bootstrap management"]["flags"] == (
        "management-write;never-expires;changes-keys"
    )
    assert err == ""
    for key in keys:
        assert key not in out


def test_json_to_a_file_with_the_profile_and_its_stored_key(
    service, tenant, memory_keyring, capsys, tmp_path: Path
) -> None:
    info, keys = tenant
    save_profile("prod", service.base_url)
    memory_keyring.set_password("tenant-console", "prod", info.key)
    target = tmp_path / "review.json"
    assert main(["review", "--profile", "prod", "-o", str(target)]) == 0  # JSON by its name
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == f"Wrote the access review to {target}."
    text = target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    document = json.loads(text)
    assert document["complete"] is True
    names = [a["name"] for a in document["applications"]]
    assert names == ["Bootstrap management", "Payouts", "Reader"]
    payouts = document["applications"][1]
    assert payouts["flags"] == ["reveal", "never-expires"]
    assert payouts["rules"][0]["transform"] == "reveal"
    for key in keys:
        assert key not in text


def test_the_profile_with_the_key_from_the_environment(
    service, tenant, monkeypatch, capsys
) -> None:
    """`--profile` before the command, the key in TENANT_CONSOLE_API_KEY (nothing stored)."""
    info, _keys = tenant
    save_profile("staging", service.base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", info.key)
    assert main(["--profile", "staging", "review", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["applications"]) == 3


@pytest.mark.parametrize(
    "args",
    [["review", "--format", "xml"], ["review", "--output"], ["review", "--bogus"]],
)
def test_bad_usage_exits_2_with_one_line(args: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err


def test_an_output_in_a_missing_folder_is_bad_usage(capsys, tmp_path: Path) -> None:
    assert main(["review", "-o", str(tmp_path / "missing" / "r.csv")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err


def test_an_unreachable_service_exits_1_with_one_line_and_writes_nothing(
    monkeypatch, capsys, tmp_path: Path
) -> None:
    url = closed_port_url()
    env_connection(monkeypatch, url, "some-key-0123456789abcdef")
    target = tmp_path / "review.csv"
    assert main(["review", "-o", str(target)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("tenant-console review: Cannot reach the service")
    assert err.rstrip().endswith("Nothing was written.")
    assert err.count("\n") == 1
    assert "some-key" not in err
    assert not target.exists()


def test_a_rejected_key_exits_1_without_showing_it(service, monkeypatch, capsys) -> None:
    env_connection(monkeypatch, service.base_url, "rejected-key-0123456789abcdef")
    assert main(["review"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "401" in err and err.count("\n") == 1
    assert "rejected-key" not in err


def test_an_unknown_profile_exits_1(capsys) -> None:
    assert main(["review", "--profile", "nope"]) == 1
    assert "nope" in capsys.readouterr().err


def test_the_command_loads_no_textual(service, tenant, tmp_path: Path) -> None:
    """The review is shared with the console, but the command stays a command-line tool."""
    info, _keys = tenant
    code = (
        "import json, sys\n"
        "from console.cli import main\n"
        f"assert main(['review', '-o', {str(tmp_path / 'r.csv')!r}]) == 0\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    env = {
        **os.environ,
        "TENANT_CONSOLE_BASE_URL": service.base_url,
        "TENANT_CONSOLE_API_KEY": info.key,
    }
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert "console.client.review" in loaded
    assert [m for m in loaded if m == "textual" or m.startswith(("textual.", "console.tui"))] == []


def test_an_existing_output_is_left_as_it_is_unless_force(
    service, tenant, memory_keyring, capsys, tmp_path: Path
) -> None:
    """No command replaces a file it did not create in this run: exit 2 before the tenant is
    read, the file's bytes kept; --force replaces it."""
    save_profile("prod", service.base_url)
    memory_keyring.set_password("tenant-console", "prod", tenant[0].key)
    target = tmp_path / "review.csv"
    target.write_text("someone else's file\n")
    assert main(["review", "--profile", "prod", "-o", str(target)]) == 2
    _, err = capsys.readouterr()
    assert "already exists; it is left as it is" in err and "--force" in err
    assert target.read_text() == "someone else's file\n"
    assert main(["review", "--profile", "prod", "-o", str(target), "--force"]) == 0
    assert "Payouts" in target.read_text()
