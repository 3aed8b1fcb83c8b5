"""Fixtures for every console test."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def no_system_clipboard(monkeypatch: pytest.MonkeyPatch) -> None:
    """Copies never reach the developer's real clipboard (xclip, pbcopy ...): only OSC 52,
    which a headless test run sends nowhere. A test that wants a tool patches in its own."""
    monkeypatch.setattr("console.tui.base.clipboard.clipboard_tool", lambda: None)


@pytest.fixture(autouse=True)
def utc_local_time(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The console shows (and reads typed) times in local time: every console test runs in
    UTC, so snapshots and typed times mean the same on every machine. A test may set another
    zone (`monkeypatch.setenv("TZ", ...)` then `time.tzset()`); it is put back after it."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def private_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A console data dir of the test's own (its journal, archives and samples): what one
    test records is never read by another."""
    from console.data_dir import DATA_DIR_ENV

    data = tmp_path / "data"
    monkeypatch.setenv(DATA_DIR_ENV, str(data))
    return data


@pytest.fixture(scope="module")
def demo() -> Iterator[Any]:
    """The deterministic demo's service (frozen time, fixed ids) for the snapshot modules that
    replay the screenshots' scenes; one per module, so no module sees another's changes."""
    from console.tui.start.screenshots import deterministic_env, start_demo_service

    with deterministic_env():
        service = start_demo_service()
        try:
            yield service
        finally:
            service.stop()


@pytest.fixture
def frozen(demo: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The deterministic demo's environment for one test (with its service running), and a
    data dir of its own: what one scene keeps (the log archive the Logs section fills) is
    never seen by the next (the overview says how far each profile's archive reaches)."""
    from console.data_dir import DATA_DIR_ENV
    from console.tui.start.screenshots import deterministic_env

    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "console-data"))
    with deterministic_env():
        yield


@pytest.fixture
def widgets() -> Iterator[Any]:
    """The widgets' declaration, look and form registered: all the proof adds to the console."""
    from proof_kind.kind import WIDGETS
    from proof_kind.look import WIDGETS_LOOK, WidgetForm

    from console.kinds import KINDS
    from console.tui.browse.kinds import LOOKS

    with KINDS.registered(WIDGETS), LOOKS.registered(WIDGETS_LOOK, form=lambda: WidgetForm):
        yield WIDGETS_LOOK
