"""`tenant-console status`: a table or JSON on stdout, one line per profile not ok on stderr,
exit 0 / 1 / 2; never a key. In process (the in-memory keyring), against the local service."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from memory_keyring import MemoryKeyring

from console.cli import main
from console.profiles.config import Profile, ProfilesFile
from console.profiles.keys import SERVICE

REJECTED = "not-a-key-of-this-service-000000"


def save(name: str, base_url: str, key: str | None, backend: MemoryKeyring, **extra: Any) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile(name=name, base_url=base_url, **extra))
    profiles.save()
    if key is not None:
        backend.entries[(SERVICE, name)] = key


@pytest.fixture
def two_profiles(service: Any, memory_keyring: MemoryKeyring) -> Any:
    """ "good" (the active one, labelled) and "bad" (a key the service rejects)."""
    tenant = service.new_tenant("Status Corp")
    save("good", service.base_url, tenant.key, memory_keyring, label="PROD", color="red")
    save("bad", service.base_url, REJECTED, memory_keyring)
    return tenant


def test_table_names_each_profile_and_the_failures_on_stderr(
    two_profiles: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["status"]) == 1
    out, err = capsys.readouterr()
    header, good, bad = out.splitlines()
    assert header.split() == [
        *("PROFILE", "LABEL", "BASE", "URL", "TENANT", "KEY", "MAT", "/", "PLAN"),
        *("APPS", "PROXIES", "FORMULAS", "REACTORS"),
    ]
    assert good.startswith("*  good") and "PROD" in good and "Status Corp" in good
    # applications, proxies, private formulas, reactors
    assert good.split()[-4:] == ["1", "0", "0", "0"]
    assert " ok " in good
    assert bad.split()[:3] == ["bad", two_profiles_url(out), "rejected"]
    assert err.splitlines() == [
        "tenant-console: bad: rejected: The API key was not accepted: it is unknown, "
        "expired or was regenerated (401)"
    ]
    assert two_profiles.key not in out + err


def two_profiles_url(out: str) -> str:
    return out.splitlines()[1].split()[3]


def test_json_for_the_profiles_named_and_exit_0_when_all_are_ok(
    two_profiles: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["status", "good", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert document["ok"] is True and err == ""
    (good,) = document["profiles"]
    assert good["name"] == "good" and good["active"] is True
    assert good["tenant_name"] == "Status Corp" and good["status"] == "ok"
    assert good["applications"] == {"state": "ok", "count": 1, "exact": True, "note": None}
    assert good["usage"]["state"] == "ok"
    assert good["reactors"] == {"state": "ok", "count": 0, "exact": True, "note": None}
    assert two_profiles.key not in out

    assert main(["status", "bad", "good", "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in document["profiles"]] == ["bad", "good"]  # as asked
    assert document["ok"] is False and document["profiles"][0]["status"] == "rejected"


def test_usage_errors_exit_2_and_no_profile_exits_1(
    service: Any, memory_keyring: MemoryKeyring, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["status"]) == 1
    assert "No profiles yet" in capsys.readouterr().err
    save("only", service.base_url, None, memory_keyring)
    assert main(["status", "nope"]) == 2
    assert 'Unknown profile "nope"' in capsys.readouterr().err
    assert main(["status", "--timeout", "0"]) == 2
    with pytest.raises(SystemExit) as usage:
        main(["status", "--format", "yaml"])
    assert usage.value.code == 2
    capsys.readouterr()
    assert main(["status"]) == 1  # a profile without a key is not ok
    out, err = capsys.readouterr()
    assert "no key" in out and err.startswith("tenant-console: only: no key: No key is stored")


def test_status_never_loads_textual() -> None:
    code = (
        "import sys, console.cli as c, console.estate.status_cli, console.estate.overview;"
        "c.build_parser(); print('textual' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
