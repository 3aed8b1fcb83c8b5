"""No import cycle anywhere in `console/`: every import counts, top-level, inside a function
or under `if TYPE_CHECKING:`, because a cycle the type checker sees is still a knot in the
design (the GUIDE's rule; issue 24)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "console"


def module_names(root: Path = ROOT) -> dict[str, Path]:
    """Every module under console/, by dotted name (a package by its own name)."""
    modules: dict[str, Path] = {}
    for path in sorted((root / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _imported(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The console modules that module `name` (at `path`) imports, anywhere in its text."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _known(alias.name, modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            # `from pkg import name` reads name from pkg: pkg counts, and pkg.name if a module
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in modules:
                    yield submodule
                yield from _known(base, modules)


def _known(dotted: str, modules: dict[str, Path]) -> Iterator[str]:
    """`dotted` if it is a console module (else its nearest console package)."""
    while dotted:
        if dotted in modules:
            yield dotted
            return
        dotted = dotted.rpartition(".")[0]


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the console modules it imports (itself excluded)."""
    modules = module_names(root)
    return {
        name: {target for target in _imported(name, path, modules) if target != name}
        for name, path in modules.items()
    }


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def describe(found: list[list[str]], graph: dict[str, set[str]]) -> str:
    """Each cycle with the imports that close it, for the failure message."""
    lines: list[str] = []
    for component in found:
        members = set(component)
        lines.append(f"cycle of {len(component)} modules:")
        for module in component:
            inside = sorted(graph[module] & members)
            lines.append(f"  {module} -> {', '.join(inside)}")
    return "\n".join(lines)


def test_the_checker_finds_a_cycle(tmp_path: Path) -> None:
    """The checker itself: a relative, a function-level and a TYPE_CHECKING import close a
    circle of three modules; `from pkg import name` counts as importing pkg."""
    package = tmp_path / PACKAGE
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("VALUE = 1\n")
    (package / "a.py").write_text("from .sub import b\n")
    (package / "sub" / "b.py").write_text("def f():\n    from console import c\n")
    (package / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from console.a import X\n"
    )
    (package / "d.py").write_text("from console.sub import VALUE\n")
    graph = import_graph(tmp_path)
    assert graph["console.d"] == {"console.sub"}
    assert cycles(graph) == [["console.a", "console.c", "console.sub.b"]]
    (package / "sub" / "__init__.py").write_text("from console.sub.e import VALUE\n")
    (package / "sub" / "e.py").write_text("from console.sub import f\nVALUE = 1\n")
    (package / "sub" / "f.py").write_text("")
    assert ["console.sub", "console.sub.e"] in cycles(import_graph(tmp_path))


def test_no_import_cycle_in_console() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, describe(found, graph)


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The same imports between the console's top-level packages and modules (console.journal
    for console.journal.store): a loop between two packages is a knot too, even where no two
    of their modules import each other."""

    def top(module: str) -> str:
        return ".".join(module.split(".")[:2])

    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        source = top(module)
        if source == PACKAGE:
            continue
        packages.setdefault(source, set()).update(
            top(target) for target in targets if top(target) not in (source, PACKAGE)
        )
    return packages


def test_no_import_cycle_between_the_console_s_packages() -> None:
    graph = package_graph(import_graph())
    found = cycles(graph)
    assert not found, describe(found, graph)


def test_the_package_checker_finds_a_loop_no_two_modules_close() -> None:
    """journal.diff -> code_files.diff and code_files.cli -> journal.store: no module cycle,
    a package loop (issue 34)."""
    graph = {
        "console.journal.diff": {"console.code_files.diff"},
        "console.code_files.cli": {"console.journal.store"},
        "console.code_files.diff": set(),
        "console.journal.store": set(),
    }
    assert cycles(graph) == []
    assert cycles(package_graph(graph)) == [["console.code_files", "console.journal"]]


if __name__ == "__main__":
    graph = import_graph()
    print(describe(cycles(graph), graph) or "no cycle")
