"""Fixtures of the service tests: a demo service of a module's own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from demo_service import FROZEN
from local_service import RunningService, serving


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningService]:
    """A demo service (`--demo-data`, its clock frozen at FROZEN) for the module alone: its
    tests add tenants to it and compare it with fresh ones."""
    with serving(
        RunningService(tmp_path_factory.mktemp("demo"), demo_data=True, frozen_now=FROZEN)
    ) as running:
        yield running
