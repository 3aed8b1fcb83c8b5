"""Issue #15: the handlers' preamble (clock, transaction, key and permission, query) has one
name, `serving`, and no handler repeats it by hand."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

from fastapi.routing import APIRoute

from console.service import app as service_app
from console.service.app import create_app
from console.service.store import Store

PREAMBLE_PIECES = {"authenticate", "Clock", "store_of", "json_body", "parse", "path_id"}
"""What `serving` puts together; a handler that calls one of these hand-rolls the preamble."""


def _calls(function: object) -> list[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))  # type: ignore[arg-type]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            names.append(func.id if isinstance(func, ast.Name) else getattr(func, "attr", ""))
    return names


def test_every_handler_is_served_by_the_one_preamble(tmp_path: Path) -> None:
    store = Store(tmp_path)
    try:
        routes = create_app(store).state.api_routes
    finally:
        store.close()
    # the spec's 22, the 4 of Application Keys, 9 of Reactors, PATCH /proxies/{id}, 2 of Logs,
    # the 13 of the tenant's people, the 6 of Webhooks and their trigger
    assert len(routes) == 26 + 9 + 1 + 2 + 13 + 6 + 1
    for route in routes:
        assert isinstance(route, APIRoute), route
        calls = _calls(route.endpoint)
        assert calls.count("serving") == 1, (route.path, route.methods, calls)
        assert not PREAMBLE_PIECES & set(calls), (route.path, route.methods, calls)
        assert not {"read", "write"} & set(calls), (route.path, route.methods, calls)


def test_only_serving_opens_a_transaction_or_reads_the_clock_for_a_request() -> None:
    api = Path(service_app.__file__).parent / "api"
    for module in sorted(api.glob("*.py")):
        if module.name in ("serving.py", "common.py"):
            continue
        tree = ast.parse(module.read_text(encoding="utf-8"))
        called = {
            node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
        }
        assert not (PREAMBLE_PIECES | {"read", "write", "now"}) & called, (module.name, called)
