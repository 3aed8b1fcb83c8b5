"""Which product modules name a kind as a string literal (issue 34's count).

A kind's names are those its declaration gives (console.kinds): its key, its path and the
paths below it, the path's first segment, its nouns and title, its name in the local index.
A literal used to read a field (`item["permissions"]`, `item.get("name")`) or held among
other fields' names is a field's name, not the kind's; docstrings are prose and `__all__`
names Python objects: none of these counts. `--strict` counts every literal but docstrings
and `__all__`.

    python -m tests.kind_literals [-v] [--strict]
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

from console.kinds import KINDS, Kind

ROOT = Path(__file__).resolve().parents[1] / "console"


def names_of(kind: Kind) -> set[str]:
    names = {kind.key, kind.path, kind.segment, kind.nouns.singular, kind.nouns.plural}
    names.add(kind.nouns.title)
    if kind.index:
        names.add(kind.index.name)
    return {n.lower() for n in names}


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def _exported_names(tree: ast.AST) -> set[int]:
    """The strings of `__all__`: names of Python objects, not of a kind."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            found.update(id(c) for c in ast.walk(node.value) if isinstance(c, ast.Constant))
    return found


def _field_reads(tree: ast.AST, all_names: set[str]) -> set[int]:
    """Constants that name a field: subscripts, `.get(...)`, `.pop(...)`'s first argument,
    `getattr`'s second, and the strings of a record or a list of fields (a dict's keys, a
    tuple, list or set) that also holds a string naming no kind: `{"name": ..., "permissions":
    ...}` is an object's fields, where a table of kinds holds kind names only."""
    found: set[int] = set()
    for node in ast.walk(tree):
        elements: list[ast.expr | None] = []
        if isinstance(node, ast.Dict):
            elements = list(node.keys)
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            elements = list(node.elts)
        strings = [e for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if any(str(e.value).strip().lower() not in all_names for e in strings):  # type: ignore[union-attr]
            found.update(id(e) for e in strings)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr")
            and len(node.args) > 1
        ):
            found.add(id(node.args[1]))
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            found.add(id(node.slice))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("get", "pop", "setdefault")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(id(node.args[0]))
    return found


def _names_kind(value: str, names: set[str], path: str) -> bool:
    text = value.strip().lower()
    return text in names or text.startswith(path.lower() + "/")


def modules_naming(root: Path = ROOT, *, strict: bool = False) -> dict[str, dict[str, set[str]]]:
    """For each registered kind: module (relative to the package) -> the literals found."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    kinds = [(k, names_of(k)) for k in KINDS]
    all_names = set().union(*(names for _, names in kinds))
    for module in sorted(root.rglob("*.py")):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        skip = _docstrings(tree) | _exported_names(tree)
        if not strict:
            skip |= _field_reads(tree, all_names)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
                continue
            if id(node) in skip:
                continue
            for kind, names in kinds:
                if _names_kind(node.value, names, kind.path):
                    found[kind.key][str(module.relative_to(root.parent))].add(node.value)
    return found


def main() -> None:
    found = modules_naming(strict="--strict" in sys.argv)
    for kind in KINDS:
        modules = found.get(kind.key, {})
        print(f"{kind.key}: {len(modules)}")
        if "-v" in sys.argv:
            for name, literals in sorted(modules.items()):
                print(f"    {name}: {sorted(literals)}")


if __name__ == "__main__":
    main()
