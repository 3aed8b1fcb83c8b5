"""The TUI's folders by layer (pyproject's import contracts, run by lint-imports in CI): the
one exception those contracts allow, the shell's imports of layers above it, must stay
imports for the type checker only."""

from __future__ import annotations

import ast
from pathlib import Path

SHELL = Path(__file__).resolve().parents[1] / "console" / "tui" / "base" / "shell.py"
BASE = "console.tui.base."


def runtime_imports_of_the_tui(source: str) -> list[str]:
    """The console.tui modules a module imports when it runs (outside `if TYPE_CHECKING:`)."""
    tree = ast.parse(source)
    checking: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in {
            "TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        }:
            checking.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    found = []
    for node in ast.walk(tree):
        if id(node) in checking:
            continue
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [name for name in names if name.startswith("console.tui")]
    return found


def test_the_check_sees_an_import_that_runs() -> None:
    source = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import console.tui.x\n"
    assert runtime_imports_of_the_tui(source) == []
    assert runtime_imports_of_the_tui(source + "import console.tui.y\n") == ["console.tui.y"]


def test_the_shell_runs_no_import_above_the_base() -> None:
    above = [
        name for name in runtime_imports_of_the_tui(SHELL.read_text()) if not name.startswith(BASE)
    ]
    assert above == []
