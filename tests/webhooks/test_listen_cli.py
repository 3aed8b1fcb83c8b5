"""`tenant-console webhooks listen` as a command: its usage errors, the hosted service without
--public-url, and the real process receiving, refusing, forwarding and stopping on Ctrl+C or
SIGTERM (here with `--no-register --signing-key`: no service needed)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from typing import Any

import httpx
import pytest
from hosted_service import KEY as HOSTED_KEY
from hosted_service import HostedService
from listen_helpers import ListenProcess, Recorder, delivery, signed, write_public_key

from console.cli import main
from console.webhooks import signing

pytestmark = pytest.mark.slow  # each test starts a console process


@pytest.fixture(scope="module")
def key() -> Any:
    return signing.new_private_key()


@pytest.fixture
def key_file(key: Any, tmp_path: Any) -> str:
    return str(write_public_key(key, tmp_path / "webhooks.v1.key"))


@pytest.fixture
def env(tmp_path: Any) -> dict[str, str]:
    """No profile, no keyring, nothing of the user's."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TENANT_CONSOLE_")}
    clean["TENANT_CONSOLE_CONFIG_DIR"] = str(tmp_path / "config")
    clean["HOME"] = str(tmp_path / "home")
    return clean


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--events", "reactor.created,nope.nothing"], "--events: 'nope.nothing' is not"),
        (["--forward-to", "ftp://example.com/"], "--forward-to: The URL must be"),
        (["--public-url", "https://t.example.com", "--no-register"], "not with --no-register"),
        (["--public-url", "https://t.example.com"], "--public-url needs --port"),
        (["--no-register", "--signing-key", "/nonexistent/key.pem"], "--signing-key"),
        (["--service-url", "http://127.0.0.1:1"], "use it with --no-register"),
        (["--no-register", "--service-url", "ftp://x"], "--service-url: The URL must be"),
        (
            ["--no-register", "--service-url", "http://127.0.0.1:1", "--signing-key", "k.pem"],
            "one way",
        ),
    ],
)
def test_unusable_options_end_with_2(arguments, said, capsys):
    assert main(["webhooks", "listen", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tenant-console webhooks listen: ") and said in err


def test_a_signing_key_file_that_is_not_a_key_ends_with_2(tmp_path, capsys):
    path = tmp_path / "key.pem"
    path.write_text("-----BEGIN PRIVATE KEY-----\nnope\n")
    assert main(["webhooks", "listen", "--no-register", "--signing-key", str(path)]) == 2
    assert "not a public key in PEM" in capsys.readouterr().err


def test_the_hosted_service_without_a_public_url_ends_with_2(monkeypatch, tmp_path, capsys):
    with HostedService.running() as hosted:
        monkeypatch.setenv("TENANT_CONSOLE_BASE_URL", hosted.base_url)
        monkeypatch.setenv("TENANT_CONSOLE_API_KEY", HOSTED_KEY)
        monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
        assert main(["webhooks", "listen", "--events", "reactor.created"]) == 2
    err = capsys.readouterr().err
    assert "The hosted service cannot reach this machine" in err and "--public-url" in err
    assert [(seen.method, seen.path) for seen in hosted.requests] == [
        ("GET", "/keys/webhooks.v1.key")
    ]
    assert HOSTED_KEY not in json.dumps(hosted.requests[0].headers)  # a public key: no API key


def _post(url: str, body: bytes, headers: dict[str, str]) -> int:
    return httpx.post(url, content=body, headers=headers, timeout=30).status_code


@pytest.mark.parametrize("stop_with", [signal.SIGINT, signal.SIGTERM])
def test_the_command_receives_refuses_and_stops(key, key_file, env, stop_with):
    other = signing.new_private_key()
    listen = ListenProcess("--no-register", "--signing-key", key_file, "--format", "json", env=env)
    try:
        url = listen.ready()
        body, headers = signed(other, delivery("proxy.created"))
        assert _post(url, body, headers) == 400
        assert "(answered 400)" in listen.stderr_line("refused a request")
        body, headers = signed(key, delivery("reactor.created"))
        assert _post(url, body, headers) == 200
        assert json.loads(listen.stdout_line()) == {**delivery("reactor.created"), "verified": True}
        assert listen.stop(stop_with) == 0
    finally:
        listen.kill()
    assert listen.out_seen == [listen.out_seen[0]]  # the forged one printed nothing
    assert not any("Traceback" in line for line in listen.err_seen), listen.err_seen


async def test_the_command_forwards_and_says_the_answer(key, key_file, env):
    recorder = await Recorder(status=503).start()
    listen = ListenProcess(
        "--no-register", "--signing-key", key_file, "--forward-to", recorder.base_url, env=env
    )
    try:
        url = await asyncio.to_thread(listen.ready)
        body, headers = signed(key, delivery("reactor.created", name="Fwd"))
        assert await asyncio.to_thread(_post, url + "/", body, headers) == 200
        line = await asyncio.to_thread(listen.stdout_line, "reactor.created")
        assert '"Fwd"' in line
        assert await asyncio.to_thread(listen.stdout_line, "→") == "  reactor.created → 503"
        [(_request_line, forwarded, forwarded_body)] = recorder.requests
        assert forwarded_body == body and forwarded["BT-SIGNATURE"] == headers["BT-SIGNATURE"]
        assert await asyncio.to_thread(listen.stop) == 0
    finally:
        listen.kill()
        await recorder.stop()
