"""Profiles whose key comes from an environment variable or a command, never the keyring:
added, resolved, listed, checked by `status` and removed, against the real local service;
the key is never written, and a failing source says why in one line without the key."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path
from typing import Any

import pytest
from keyring.backends import fail

from console.cli import main
from console.profiles.config import Profile, ProfileError, ProfilesFile
from console.profiles.key_source import KeySourceError, read_external_key
from console.profiles.resolve import resolve_connection

VAR = "ACME_STAGING_KEY"


def printer(path: Path, text: str, *, exit_code: int = 0, stderr: str = "") -> str:
    """A key command: a small script printing `text` (and `stderr`), exiting `exit_code`."""
    script = path / "print_key.py"
    script.write_text(
        "import sys\n"
        f"sys.stdout.write({text!r})\n"
        f"sys.stderr.write({stderr!r})\n"
        f"sys.exit({exit_code})\n"
    )
    return f"{sys.executable} {script}"


def test_add_with_key_env_checks_the_key_and_never_stores_it(
    service: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    use_keyring: Any,
    config_dir: Path,
) -> None:
    use_keyring(fail.Keyring())  # no keyring at all: the variable is enough
    tenant = service.new_tenant("Env Corp")
    monkeypatch.setenv(VAR, tenant.key)
    assert (
        main(["profile", "add", "staging", "--base-url", service.base_url, "--key-env", VAR]) == 0
    )
    out, err = capsys.readouterr()
    assert err == ""
    assert 'in tenant "Env Corp"' in out
    assert f"key read from ${VAR} at each start, never stored" in out
    text = (config_dir / "config.toml").read_text()
    assert f'key_env = "{VAR}"' in text and tenant.key not in text
    assert stat.S_IMODE((config_dir / "config.toml").stat().st_mode) == 0o600

    resolved = resolve_connection("staging")
    assert (resolved.key, resolved.key_source, resolved.key_origin) == (
        tenant.key,
        "variable",
        f"${VAR}",
    )


def test_add_with_key_command_runs_it_without_a_shell(
    service: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    memory_keyring: Any,
    config_dir: Path,
) -> None:
    tenant = service.new_tenant("Vault Corp")
    command = printer(tmp_path, f"\n{tenant.key}\nsecond line ignored\n")
    code = main(
        ["profile", "add", "vault", "--base-url", service.base_url, "--key-command", command]
    )
    _out, err = capsys.readouterr()
    assert code == 0, err
    assert memory_keyring.entries == {}  # nothing in the keyring
    assert tenant.key not in (config_dir / "config.toml").read_text()
    resolved = resolve_connection("vault")
    assert resolved.key == tenant.key and resolved.key_source == "command"

    assert main(["profile", "list"]) == 0
    listed = capsys.readouterr().out
    assert "from its command" in listed and tenant.key not in listed
    assert main(["profile", "remove", "vault"]) == 0
    assert "nothing was stored" in capsys.readouterr().out


def test_a_failing_command_says_why_in_one_line_and_stores_nothing(
    service: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], config_dir: Path
) -> None:
    command = printer(tmp_path, "key_leaked_on_stdout", exit_code=3, stderr="vault is locked\n")
    args = ["profile", "add", "vault", "--base-url", service.base_url, "--key-command", command]
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert err == (
        'tenant-console: The key command of profile "vault" failed (exit 3): vault is locked\n'
    )
    assert "key_leaked_on_stdout" not in out + err
    assert not (config_dir / "config.toml").exists()


def test_an_unset_variable_is_a_key_problem_not_a_crash(
    monkeypatch: pytest.MonkeyPatch, config_dir: Path
) -> None:
    monkeypatch.delenv(VAR, raising=False)
    profiles = ProfilesFile.load()
    profiles.add(Profile("staging", "http://127.0.0.1:9", key_env=VAR))
    profiles.save()
    resolved = resolve_connection("staging")
    assert resolved.key is None and resolved.key_source == "none"
    assert resolved.key_problem is not None and f"${VAR}" in resolved.key_problem
    assert "not set" in resolved.key_problem


@pytest.mark.parametrize(
    ("output", "why"),
    [("", "printed no key"), ("two words\n", "not an API key"), ("\x1b]52;c;x\x07\n", "not")],
)
def test_what_a_command_prints_must_be_a_key(tmp_path: Path, output: str, why: str) -> None:
    profile = Profile("p", "http://127.0.0.1:9", key_command=printer(tmp_path, output))
    with pytest.raises(KeySourceError, match=why):
        read_external_key(profile)


def test_a_missing_command_and_a_slow_one_say_so(tmp_path: Path) -> None:
    missing = Profile("p", "http://127.0.0.1:9", key_command="/nonexistent/key-helper get")
    with pytest.raises(KeySourceError, match="was not found"):
        read_external_key(missing)
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(30)\n")
    sleeper = Profile("p", "http://127.0.0.1:9", key_command=f"{sys.executable} {slow}")
    with pytest.raises(KeySourceError, match=r"did not finish within 0\.5 s"):
        read_external_key(sleeper, timeout=0.5)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"key_env": "1BAD"}, "not an environment variable's name"),
        ({"key_command": "  "}, "the key command is empty"),
        ({"key_command": "get 'unclosed"}, "cannot be split"),
        ({"key_env": "A", "key_command": "b"}, "not both"),
    ],
)
def test_a_bad_key_source_is_refused(extra: dict[str, str], message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        Profile("p", "http://127.0.0.1:9", **extra)


def test_key_env_and_key_stdin_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(
            [
                "profile",
                "add",
                "p",
                "--base-url",
                "http://127.0.0.1:9",
                "--key-env",
                "A",
                "--key-stdin",
            ]
        )
    assert exit_info.value.code == 2
    assert "not allowed with" in capsys.readouterr().err


def test_status_reads_a_profiles_variable_and_the_environment_without_profiles(
    service: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tenant = service.new_tenant("Status Env")
    monkeypatch.setenv(VAR, tenant.key)
    profiles = ProfilesFile.load()
    profiles.add(Profile("staging", service.base_url, key_env=VAR))
    profiles.save()
    assert main(["status", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [p["name"] for p in document["profiles"]] == ["staging"]
    assert document["profiles"][0]["tenant_name"] == "Status Env"

    ProfilesFile.load().path.unlink()  # no profile at all: the environment's tenant alone
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", service.base_url)
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", tenant.key)
    assert main(["status", "--format", "json"]) == 0
    out = capsys.readouterr().out
    document = json.loads(out)
    assert [p["name"] for p in document["profiles"]] == ["(environment)"]
    assert document["ok"] is True and tenant.key not in out
