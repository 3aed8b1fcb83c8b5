"""Issue 34: a kind is named as a literal by at most 12 product modules (its declaration,
model, service routes and store, form, demo seed, look), and a table of kinds by none: the
rest of the console derives what it needs from the registry (tests/kind_literals.py)."""

from __future__ import annotations

from functools import cache

import pytest
from kind_literals import modules_naming

from console.kinds import KINDS

LIMIT = 12

naming = cache(modules_naming)


@pytest.mark.parametrize("kind", [k.key for k in KINDS])
def test_few_modules_name_a_kind(kind: str) -> None:
    modules = naming().get(kind, {})
    assert len(modules) <= LIMIT, sorted(modules)


def test_the_count_sees_a_table_of_kinds() -> None:
    """The rule that leaves field names out still counts a table keyed by kinds."""
    import ast

    import kind_literals

    tree = ast.parse('TABLE = {"applications": 1, "proxies": 2}\nFIELDS = ("name", "proxies")')
    skipped = kind_literals._field_reads(tree, set().union(*map(kind_literals.names_of, KINDS)))
    table = next(n for n in ast.walk(tree) if isinstance(n, ast.Dict))
    fields = next(n for n in ast.walk(tree) if isinstance(n, ast.Tuple))
    assert not any(id(k) in skipped for k in table.keys)
    assert all(id(e) in skipped for e in fields.elts)
