"""Fixtures that run the real local service as a subprocess on a free loopback port.

`service` is shared by the whole session: create a tenant per test (`service.new_tenant()`)
for isolation, and never regenerate or delete its bootstrap key. `fresh_service` and
`start_service(...)` give a test its own service (stop/start, rate limits, demo data).
The class itself lives in tests/local_service.py (`from local_service import RunningService`).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import textual_css_cache
from local_service import RunningService, ServiceFailed, TenantInfo, serving

SLOW_FIXTURES = {
    "snap_compare",
    "start_service",
    "fresh_service",
    "widget_service",
    "sdk_service",
}

SUBPROCESS_HEAVY = {
    "runner/test_hostile_code.py",
    "runner/test_runner_engines.py",
    "runner/test_runner_cli.py",
    "runner/test_sandbox_runs.py",
    "service/test_stalled_connections.py",
    "profiles/test_profiles_subprocess.py",
    "profiles/test_closed_output.py",
    "tui/test_demo_signals.py",
    "test_import_hygiene.py",
}
"""Modules whose tests start engine, console or service processes (sandboxed test-runs,
fresh interpreters): slow as a whole (docs/development/index.md, "CI and test speed")."""

FIRST = (
    "service/test_schemathesis.py",
    "profiles/test_closed_output.py",
    "tui/test_test_run.py",
    "tui/test_forms.py",
    "tui/test_list_keys.py",
)
"""Modules holding the longest single tests, started first so that no worker is left running
one of them alone at the end of the run (xdist hands tests out in collection order)."""

TESTS = Path(__file__).parent


@pytest.fixture(autouse=True)
def no_real_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test reaches the user's keyring, and none waits on one another test left behind:
    the change journal reads a key of its own there on a change's way out (issue 33). Every
    test starts with no keyring (keyring's fail backend); suites that need one (profiles,
    journal, estate...) install theirs over it."""
    import keyring.core
    from keyring.backends import fail

    monkeypatch.setattr(keyring.core, "_keyring_backend", fail.Keyring())


def _module(item: pytest.Item) -> str:
    try:
        return item.path.relative_to(TESTS).as_posix()
    except ValueError:
        return ""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark as slow what compares snapshots, starts a service of its own or is subprocess-
    heavy, so that `pytest -m "not slow"` is the fast lane (modules may also mark
    themselves); then move the modules of the longest tests to the front, whole."""
    for item in items:
        own_service = SLOW_FIXTURES & set(getattr(item, "fixturenames", ()))
        if own_service or _module(item) in SUBPROCESS_HEAVY:
            item.add_marker(pytest.mark.slow)
    rank = {module: place for place, module in enumerate(FIRST)}
    items.sort(key=lambda item: rank.get(_module(item), len(FIRST)))  # stable: order kept


GC_THRESHOLDS = (20_000, 20, 20)
"""The collector's thresholds while the tests run (Python's default: 700, 10, 10)."""


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freezes what collection built and collects less often while the tests run.

    Textual allocates heavily: under the default thresholds a TUI test's objects reach the
    oldest generation within the test, and full collections over the worker's heap (0.3 s
    each) took about a third of the TUI tests' CPU (22 of 60 s over the forms and actions
    modules; 6 s with these thresholds). Only when collection happens changes, not what is
    collected.

    Textual's parsed CSS is shared by the apps of the process (tests/textual_css_cache.py):
    each app parsed every stylesheet again, about a fifth of a TUI test's CPU.
    """
    textual_css_cache.install()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist: `-p no:xdist` still works
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers a core. A worker spends about a third of its time asleep
    (Pilot's idle waits, engine time limits, round trips to its service), so one a core
    leaves the cores idle that long; $PYTEST_XDIST_AUTO_NUM_WORKERS still decides."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if chosen:
        return int(chosen)
    return 2 * (
        len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    )


@pytest.fixture(scope="session", autouse=True)
def log_dir_for_tests(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Consoles started by tests (in this process or a child) log to a temporary directory,
    never the user's log directory, and keep test-run samples in a temporary data directory."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TENANT_CONSOLE_LOG_DIR", str(tmp_path_factory.mktemp("logs")))
        patch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
        yield


@pytest.fixture(autouse=True)
def private_cache_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The profiles' local indexes (console.client.index) in a cache directory of the test's
    own: never the user's, and never one test's tenant seen by the next."""
    monkeypatch.setenv("TENANT_CONSOLE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    """The session's shared service. Make your own tenant per test: `service.new_tenant()`."""
    with serving(RunningService(tmp_path_factory.mktemp("service"))) as running:
        yield running


@pytest.fixture
def start_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A factory: `start_service(rate_limit=5)`, `start_service(demo_data=True,
    frozen_now="2026-11-22T10:00:00+00:00")`; every service it starts is stopped afterwards."""
    started: list[RunningService] = []

    def start(**options: Any) -> RunningService:
        running = RunningService(tmp_path_factory.mktemp("own-service"), **options)
        started.append(running)
        running.start()
        return running

    try:
        yield start
    finally:
        for running in started:
            running.stop()


@pytest.fixture(scope="session")
def widget_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The local service serving issue 34's proof kind too (tests/proof_kind: `/widgets`
    beside the specification's routes): one a worker, a tenant per test."""
    from proof_kind.service import WidgetService

    with serving(WidgetService(tmp_path_factory.mktemp("widget-service"))) as running:
        yield running


@pytest.fixture
def fresh_service(start_service: Any) -> RunningService:
    """A service of the test's own: safe to stop, start or exhaust."""
    return start_service()


def pytest_report_header() -> str:
    return "tenant-console: services run as `python -m console serve` subprocesses on loopback"


__all__ = ["RunningService", "ServiceFailed", "TenantInfo"]
