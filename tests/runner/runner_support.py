"""Engines to run each test on: Node.js where installed (skipped, saying so, elsewhere) and
the embedded V8 that installs with the project."""

from __future__ import annotations

import shutil

import pytest

NODE_MISSING = "Node.js is not installed here (shutil.which('node') is None): Node tests skipped"

ENGINES = [
    pytest.param(
        "node", marks=pytest.mark.skipif(shutil.which("node") is None, reason=NODE_MISSING)
    ),
    pytest.param("embedded"),
]

SPIN_LIMIT = 0.3
"""The time limit, in seconds, for code that spins until it is stopped: each such run costs
its engine that much CPU, so a short one keeps the suite quick (the engines measure it from
the code's start, after their own start-up)."""
SPIN_LIMIT_SAID = f"the time limit ({SPIN_LIMIT:g} s)"

FORMULA_REQUEST = {"args": {"card": {"number": "4242424242424242"}}, "configuration": {}}
TRANSFORM_REQUEST = {
    "args": {"body": {"card_number": "4242"}, "headers": {"content-type": "application/json"}},
    "configuration": {"KEY": "value"},
}
