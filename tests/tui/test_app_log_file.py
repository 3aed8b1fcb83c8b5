"""The log file: every swallowed exception with its traceback, private, and never a key."""

from __future__ import annotations

import logging
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from console_support import SIZE, console, make_app, settle

from console.client import AdminClient
from console.client._http import NO_RETRY
from console.models.contract import DEFAULT_KEY_HEADER
from console.tui.app import unexpected_error_message
from console.tui.base.logs import LOG_DIR_ENV, configure_logging, log_file, stop_logging


@pytest.fixture
def log_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(LOG_DIR_ENV, str(tmp_path / "logs"))
    stop_logging()
    path = configure_logging()
    assert path is not None
    try:
        yield path
    finally:
        stop_logging()


class LeakyProxies(httpx.AsyncBaseTransport):
    """The real service, except that /proxies refuses with the caller's key in the problem's
    detail: a service (or a proxy in between) that echoes what it was sent."""

    def __init__(self) -> None:
        self.real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/proxies"):
            key = request.headers.get(DEFAULT_KEY_HEADER, "")
            body = {
                "type": "about:blank",
                "title": "Forbidden",
                "status": 403,
                "detail": f"key {key} may not read proxies",
            }
            return httpx.Response(
                403, json=body, headers={"content-type": "application/problem+json"}
            )
        return await self.real.handle_async_request(request)

    async def aclose(self) -> None:
        await self.real.aclose()


def test_the_log_is_private(log_path: Path) -> None:
    assert log_path.parent.name == "logs" and log_file() == log_path
    assert stat.S_IMODE(log_path.stat().st_mode) == 0o600
    assert stat.S_IMODE(log_path.parent.stat().st_mode) == 0o700


def test_a_rotated_log_stays_private(log_path: Path) -> None:
    (handler,) = logging.getLogger("console").handlers
    logging.getLogger("console.tui").warning("before the rotation")
    handler.doRollover()  # type: ignore[attr-defined]
    logging.getLogger("console.tui").warning("after the rotation")
    assert "before" in log_path.with_name("console.log.1").read_text(encoding="utf-8")
    assert "after" in log_path.read_text(encoding="utf-8")
    assert stat.S_IMODE(log_path.stat().st_mode) == 0o600


def test_an_unexpected_error_names_the_log_file(log_path: Path) -> None:
    assert str(log_path) in unexpected_error_message(RuntimeError("boom"))


async def test_a_swallowed_failure_is_logged_with_its_traceback_but_not_the_key(
    service: Any, log_path: Path
) -> None:
    info = service.new_tenant("Leaky Corp")

    def client(base_url: str, key: str) -> AdminClient:
        return AdminClient(base_url, key, transport=LeakyProxies(), retry=NO_RETRY)

    app = make_app(service.base_url, info.key, client_factory=client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert console(app).section_widget("proxies") is not None
        # A bug that puts the key in a message or an exception: the log still masks it.
        try:
            raise RuntimeError(f"a bug holding {info.key}")
        except RuntimeError:
            logging.getLogger("console.tui.somewhere").exception("oops %s", info.key)
    text = log_path.read_text(encoding="utf-8")
    assert "proxies-page-1 could not be read" in text  # the failed load, by its worker
    assert "Traceback (most recent call last)" in text
    assert "may not read proxies" in text  # the refusal's detail, key and all, was logged
    assert "a bug holding ***" in text and "oops ***" in text
    assert info.key not in text
