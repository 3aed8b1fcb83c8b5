"""`profile add` against a service that answers as the hosted one does, and against one that
reads the key from another header (`--key-header`, shown by `profile list`)."""

from __future__ import annotations

import io

import pytest
from hosted_service import KEY, HostedService

from console.cli import main
from console.profiles.config import ProfilesFile
from console.profiles.resolve import resolve_connection

SERVICE_NAME = "tenant-console"


@pytest.fixture
def stdin(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def feed(text: str) -> None:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))

    return feed


def test_add_reads_a_hosted_shaped_tenant_and_application(stdin, capsys, memory_keyring) -> None:
    with HostedService.running() as hosted:
        stdin(KEY + "\n")
        assert main(["profile", "add", "hosted", "--base-url", hosted.base_url, "--key-stdin"]) == 0
    out = capsys.readouterr().out
    assert 'Key belongs to application "Console admin" (management) in tenant "My Tenant".' in out
    assert memory_keyring.entries == {(SERVICE_NAME, "hosted"): KEY}


def test_a_profile_with_another_key_header(start_service, stdin, capsys, memory_keyring) -> None:
    service = start_service(key_header="X-Admin-Key")
    stdin(service.key + "\n")
    url = service.base_url
    assert main(["profile", "add", "other", "--base-url", url, "--key-stdin"]) == 1
    assert "The API key was not accepted" in capsys.readouterr().err, "sent in SVC-API-KEY"
    stdin(service.key + "\n")
    argv = ["profile", "add", "other", "--base-url", url, "--key-stdin"]
    assert main([*argv, "--key-header", "X-Admin-Key"]) == 0
    assert ProfilesFile.load().profiles["other"].key_header == "X-Admin-Key"
    assert resolve_connection("other").key_header == "X-Admin-Key"
    capsys.readouterr()
    assert main(["profile", "list"]) == 0
    listed = capsys.readouterr().out
    assert "X-Admin-Key" in listed and service.key not in listed


def test_the_environment_overrides_the_key_header(monkeypatch, stdin, capsys) -> None:
    with HostedService.running(key_header="X-Admin-Key") as hosted:
        monkeypatch.setenv("TENANT_CONSOLE_KEY_HEADER", "X-Admin-Key")
        stdin(KEY + "\n")
        assert main(["profile", "add", "env", "--base-url", hosted.base_url, "--key-stdin"]) == 0
        assert resolve_connection("env").key_header == "X-Admin-Key"
        monkeypatch.setenv("TENANT_CONSOLE_KEY_HEADER", "not a header")
        with pytest.raises(Exception, match="TENANT_CONSOLE_KEY_HEADER is not usable"):
            resolve_connection("env")


def test_a_bad_key_header_is_a_usage_error(stdin, capsys) -> None:
    stdin("some-key-0123456789\n")
    argv = ["profile", "add", "x", "--base-url", "https://a.example", "--key-stdin"]
    assert main([*argv, "--key-header", "Bad Header:"]) == 2
    assert "not a valid header name" in capsys.readouterr().err
