"""The real `tenant-console profile` command in a subprocess, keyring via PYTHON_KEYRING_BACKEND."""

from __future__ import annotations

import json
import stat
from pathlib import Path


def files_containing(root: Path, secret: str) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if path.is_file() and secret.encode() in path.read_bytes():
            found.append(path)
    return found


def test_add_list_use_remove(service, sandbox) -> None:
    prod, dev = service.new_tenant("Sub Prod"), service.new_tenant("Sub Dev")

    added = sandbox.run("profile", "add", "prod", "--base-url", service.base_url, stdin=prod.key)
    assert added.code == 0, added.stderr
    assert 'in tenant "Sub Prod".' in added.stdout
    assert "key stored in the keyring: JSON-file test keyring" in added.stdout
    added = sandbox.run(
        "profile", "add", "dev", "--base-url", service.base_url, "--key-stdin", stdin=dev.key
    )
    assert added.code == 0, added.stderr

    assert json.loads(sandbox.keyring_file.read_text()) == {
        "tenant-console": {"prod": prod.key, "dev": dev.key}
    }
    config = sandbox.config_dir / "config.toml"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert stat.S_IMODE(sandbox.config_dir.stat().st_mode) == 0o700
    assert files_containing(sandbox.root, prod.key) == [sandbox.keyring_file]

    listed = sandbox.run("profile", "list")
    assert listed.code == 0
    rows = [line.split() for line in listed.stdout.splitlines()]
    assert rows == [
        ["ACTIVE", "NAME", "BASE", "URL", "KEY", "HEADER", "KEY"],
        ["*", "prod", service.base_url, "SVC-API-KEY", "stored"],
        ["dev", service.base_url, "SVC-API-KEY", "stored"],
    ]

    assert sandbox.run("profile", "use", "dev").code == 0
    assert 'active = "dev"' in config.read_text()

    removed = sandbox.run("profile", "remove", "dev")
    assert removed.code == 0, removed.stderr
    assert json.loads(sandbox.keyring_file.read_text()) == {"tenant-console": {"prod": prod.key}}
    assert "dev" not in sandbox.run("profile", "list").stdout


def test_no_keyring_exits_non_zero_and_writes_the_key_nowhere(service, sandbox) -> None:
    tenant = service.new_tenant("Sub No Keyring")
    sandbox.backend = "keyring.backends.fail.Keyring"
    result = sandbox.run(
        "profile", "add", "prod", "--base-url", service.base_url, "--key-stdin", stdin=tenant.key
    )
    assert result.code == 1
    assert result.stdout == ""
    assert result.stderr.startswith("tenant-console: No usable OS keyring")
    assert "install or unlock a keyring backend" in result.stderr
    assert "TENANT_CONSOLE_API_KEY" in result.stderr
    assert len(result.stderr.splitlines()) == 1
    assert files_containing(sandbox.root, tenant.key) == []
    assert not sandbox.config_dir.exists()


def test_rejected_key_stores_nothing(service, sandbox) -> None:
    result = sandbox.run(
        "profile", "add", "prod", "--base-url", service.base_url, stdin="bad-key-0123456789"
    )
    assert result.code == 1
    assert "The API key was not accepted" in result.stderr
    assert not sandbox.keyring_file.exists()
    assert not sandbox.config_dir.exists()


def test_damaged_file_is_reported_and_untouched(sandbox) -> None:
    sandbox.config_dir.mkdir(parents=True)
    config = sandbox.config_dir / "config.toml"
    config.write_text('[profiles.prod]\nbase_url = "https://x.example.com"\n\n[profiles.dev\n')
    before = config.read_bytes()
    result = sandbox.run("profile", "use", "prod")
    assert result.code == 1
    assert result.stderr.startswith(f"tenant-console: Damaged profiles file {config}, line 4:")
    assert len(result.stderr.splitlines()) == 1
    assert config.read_bytes() == before


def test_unknown_profile_and_bad_url(sandbox) -> None:
    unknown = sandbox.run("profile", "use", "nope")
    assert (unknown.code, unknown.stdout) == (1, "")
    assert unknown.stderr.startswith('tenant-console: Unknown profile "nope".')
    bad = sandbox.run("profile", "add", "x", "--base-url", "not a url", stdin="k")
    assert (bad.code, bad.stdout) == (2, "")
    assert bad.stderr.startswith("tenant-console: Invalid base URL 'not a url'")


def test_console_on_an_unknown_profile_ends_with_one_line(sandbox) -> None:
    result = sandbox.run("--profile", "nope")
    assert (result.code, result.stdout) == (1, "")
    assert result.stderr.startswith('tenant-console: Unknown profile "nope".')
    assert len(result.stderr.splitlines()) == 1


def test_console_on_a_damaged_file_ends_with_one_line(sandbox) -> None:
    sandbox.config_dir.mkdir(parents=True)
    config = sandbox.config_dir / "config.toml"
    config.write_text("[profiles.dev\n")
    result = sandbox.run()
    assert result.code == 1
    assert result.stderr.startswith(f"tenant-console: Damaged profiles file {config}, line 1:")
    assert len(result.stderr.splitlines()) == 1
