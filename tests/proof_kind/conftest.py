"""The proof's fixtures: the widgets' kind registered for a test, and a service serving it.

`widgets_registered` puts WIDGETS in console.kinds.KINDS for the test's length (every layer
of the console then knows widgets); `widget_service` (tests/conftest.py) is the session's
local service with the widgets' routes (tests/proof_kind/serve.py). Make a tenant per test:
`new_tenant()`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from console.kinds import KINDS, Kind
from proof_kind.kind import WIDGETS


@pytest.fixture
def widgets_registered() -> Iterator[Kind]:
    """WIDGETS registered in KINDS while the test runs, and gone after it."""
    with KINDS.registered(WIDGETS) as kind:
        yield kind
