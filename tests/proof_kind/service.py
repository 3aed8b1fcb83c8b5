"""The proof's local service as a test sees it: `RunningService` with the widgets' routes.

It runs the launcher (`python -m proof_kind.serve`, with tests/ on PYTHONPATH) instead of
`python -m console serve`; everything else is RunningService's (tests/local_service.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from local_service import RunningService, TenantInfo

from console.kinds import KINDS, Kind
from proof_kind.kind import WIDGETS

TESTS = Path(__file__).resolve().parents[1]


@contextmanager
def widgets_known() -> Iterator[Kind]:
    """WIDGETS in the registry for the block's length, unless a test registered it already."""
    if KINDS.find(WIDGETS.key) is WIDGETS:
        yield WIDGETS
        return
    with KINDS.registered(WIDGETS) as kind:
        yield kind


class WidgetService(RunningService):
    """One `python -m proof_kind.serve` subprocess: the local service serving `/widgets`."""

    def __init__(self, root: Path, **options: Any) -> None:
        inherited = os.environ.get("PYTHONPATH", "")
        path = os.pathsep.join(p for p in (str(TESTS), inherited) if p)
        env = {**(options.pop("env", None) or {}), "PYTHONPATH": path}
        super().__init__(root, launcher=("proof_kind.serve",), env=env, **options)

    def new_tenant(self, name: str = "Tenant") -> TenantInfo:
        """As RunningService's, its bootstrap application granted the widgets' permissions
        too (the bootstrap grants those of every registered kind)."""
        with widgets_known():
            return super().new_tenant(name)
