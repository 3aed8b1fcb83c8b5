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

FORMULA_REQUEST = {"args": {"card": {"number": "4242424242424242"}}, "configuration": {}}
TRANSFORM_REQUEST = {
    "args": {"body": {"card_number": "4242"}, "headers": {"content-type": "application/json"}},
    "configuration": {"KEY": "value"},
}
