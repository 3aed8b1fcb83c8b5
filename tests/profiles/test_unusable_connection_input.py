"""What the user gives for a connection, refused without being echoed: a base URL holding a
password (shown masked) and a key holding a line break (exit 2 before any request, a key
stored so refused as the profile's key problem), never a traceback."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from private_profiles import add_profile_fixture  # noqa: F401  (the add_profile fixture)

from console.cli import main
from console.profiles.config import ProfileError, normalize_base_url, without_password

PASSWORD = "hunter2-pw"
KEY = "k3y-s3cr3t-0123456789"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"http://admin:{PASSWORD}@example.com/api", "http://admin:***@example.com/api"),
        (f"https://admin:{PASSWORD}@h:8443", "https://admin:***@h:8443"),
        (f"https://{PASSWORD}@h", "https://***@h"),  # a lone user info: often a token
        (f"http://a:{PASSWORD}@b@h/x", "http://a:***@h/x"),  # the host after the last @
        (f"admin:{PASSWORD}@example.com/api", "admin:***@example.com/api"),  # no scheme
        (f"ftp://admin:{PASSWORD}@h", "ftp://admin:***@h"),
        (f"http://h/?token={PASSWORD}", "http://h/?***"),
        (f"http://h/#{PASSWORD}", "http://h/#***"),
        ("http://h:8400/a//b", "http://h:8400/a//b"),
    ],
)
def test_a_url_is_shown_without_its_password(url: str, shown: str) -> None:
    assert without_password(url) == shown


@pytest.mark.parametrize(
    "url",
    [
        f"http://admin:{PASSWORD}@example.com",
        f"ftp://admin:{PASSWORD}@example.com",
        f"http://admin:{PASSWORD}@exa mple.com",
        f"http://admin:{PASSWORD}@example.com/?x=1",
        f"http://example.com/?token={PASSWORD}",
        f"admin:{PASSWORD}@example.com",
    ],
)
def test_a_refused_base_url_never_echoes_its_password(url: str, capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProfileError) as refused:
        normalize_base_url(url)
    assert PASSWORD not in str(refused.value) and "***" in str(refused.value)
    assert main(["profile", "add", "prod", "--base-url", url, "--key-stdin"]) == 2
    out, err = capsys.readouterr()
    assert PASSWORD not in out + err and "***" in err and "Traceback" not in err


def test_a_password_in_the_environments_base_url_is_not_echoed(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", f"http://admin:{PASSWORD}@127.0.0.1:1")
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", KEY)
    for argv in (["usage"], ["keys", "list", "App"], ["search", "x"], ["status"]):
        assert main(argv) in (1, 2), argv
        out, err = capsys.readouterr()
        assert PASSWORD not in out + err and "admin:***@" in err, argv


@pytest.fixture
def listener() -> Iterator[socket.socket]:
    """A loopback listener that must hear nothing: no request may leave with a bad key."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        sock.setblocking(False)
        yield sock


def heard(sock: socket.socket) -> bool:
    try:
        connection, _ = sock.accept()
    except BlockingIOError:
        return False
    connection.close()
    return True


@pytest.mark.parametrize("bad", ["\r\n", "\n", "\r", "\x1b[2J", "é"])
def test_an_environment_key_no_header_can_carry_is_refused_before_any_request(
    listener, monkeypatch, capsys, tmp_path: Path, bad: str
) -> None:  # type: ignore[no-untyped-def]
    """The injected header never reaches the service; each command ends with one line, exit
    2, and the key is not shown (nor the console opened)."""
    host, port = listener.getsockname()
    monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", f"http://{host}:{port}")
    monkeypatch.setenv("TENANT_CONSOLE_API_KEY", f"{KEY}{bad}X-Injected: 1")
    code = tmp_path / "f.js"
    code.write_text("module.exports = () => ({ raw: 1 });\n")
    commands = [
        [],  # the console itself: refused before any screen
        ["keys", "list", "App"],
        ["keys", "create", "App"],
        ["search", "x"],
        ["usage"],
        ["review"],
        ["export"],
        ["status"],
        ["push", "formula", "F", "--code", str(code)],
    ]
    for argv in commands:
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert err.startswith("tenant-console: TENANT_CONSOLE_API_KEY is not usable"), argv
        assert len(err.strip().splitlines()) == 1, err
        assert KEY not in out + err and "X-Injected" not in out + err
    assert not heard(listener)


def test_a_stored_key_no_header_can_carry_is_the_profiles_key_problem(
    add_profile, memory_keyring, capsys, listener
) -> None:  # type: ignore[no-untyped-def]
    """A key another tool (or an older console) put in the keyring: refused as the profile's
    key problem (exit 1, as a missing key is), never sent, never shown."""
    host, port = listener.getsockname()
    add_profile("prod", f"http://{host}:{port}", KEY)
    memory_keyring.entries[("tenant-console", "prod")] = f"{KEY}\nX-Injected: 1"
    for argv in (["usage"], ["keys", "list", "App"], ["search", "x"], ["review"]):
        assert main(argv) == 1, argv
        out, err = capsys.readouterr()
        assert 'The key stored for profile "prod" holds a line break' in err, argv
        assert "Traceback" not in err and KEY not in out + err and "X-Injected" not in err
    assert not heard(listener)
