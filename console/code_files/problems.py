"""Find problems in JavaScript code from its tree-sitter syntax tree: the one code check.

No Textual here: the editor runs it on its TextArea's own (incrementally parsed) tree, and
everything else that sends code (the forms' save, `push`, the promotion and `apply` plans, the
lost-update dialog) on a fresh parse of the text through `code_check_sentences`, so every path
warns about the same problems in the same words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from tree_sitter import Language, Node

Severity = Literal["error", "warning"]

MAX_REPORTED_ERRORS = 20
"""A broken file can hold hundreds of ERROR nodes; the first few are what a person can act on."""

_ASSIGNMENT_QUERY = (
    "(assignment_expression left: [(member_expression) (subscript_expression)] @left)"
)

_EXPORTS_TEXT = re.compile(r"\bmodule\s*\.\s*exports\b\s*(?:[.\[]|=(?!=))|\bexports\s*[.\[]")
"""Text fallback for the module.exports check, used only when the syntax tree cannot say."""

_EXPORTS_TARGET = re.compile(
    r"""^(?:module(?:\.exports|\[(["'])exports\1\])(?:$|[.\[])|exports[.\[])"""
)


@dataclass(frozen=True, slots=True)
class CodeProblem:
    """One thing wrong with the code, at a 1-based line and column (columns count characters)."""

    line: int
    column: int
    message: str
    severity: Severity = "error"
    title: str = ""
    """Short form without the location, for one-line summaries ("Missing ')'")."""

    @property
    def summary(self) -> str:
        """One short line for a status strip: "Syntax error at 3:14"."""
        if not self.title:
            return self.message
        return f"{self.title} at {self.line}:{self.column}"


def describe_problems(problems: Iterable[CodeProblem]) -> str | None:
    """A sentence for a save confirmation, or None when there is nothing to warn about."""
    problems = list(problems)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warning"]
    parts: list[str] = []
    if len(errors) == 1:
        parts.append(f"The code has an error: {errors[0].message}.")
    elif errors:
        parts.append(f"The code has {len(errors)} errors; the first: {errors[0].message}.")
    parts.extend(f"Warning: {warning.message}." for warning in warnings)
    return " ".join(parts) or None


def problem_sentences(label: str, problems: Iterable[CodeProblem]) -> list[str]:
    """What to warn about before sending code: one sentence for its syntax errors (how many,
    the first's place), one per warning; `label` names the code ("The code", "The request
    transform")."""
    problems = list(problems)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity != "error"]
    found: list[str] = []
    if errors:
        first = errors[0]
        noun = "syntax error" if len(errors) == 1 else "syntax errors"
        found.append(
            f"The {label} has {len(errors)} {noun} (first at {first.line}:{first.column})."
        )
    for warning in warnings:
        if "module.exports" in warning.message:
            found.append(
                f"The {label} never assigns module.exports: the service finds no function to run."
            )
        else:
            found.append(f"The {label}: {warning.message}.")
    return found


def code_check_sentences(label: str, code: str | None) -> list[str]:
    """The check the forms run before saving, on code held as text: nothing for no code."""
    if code is None or not code.strip():
        return []
    return problem_sentences(label, check_javascript(code))


class JavaScriptChecker:
    """Finds syntax errors and a missing module.exports in a JavaScript syntax tree.

    Cheap enough to run after each pause in typing on a 2,000-line formula: errors are found by
    descending only into subtrees that hold one (`has_error`), and the exports query runs only
    on the rows that mention "exports".
    """

    MAX_EXPORT_ROWS = 50
    """Rows mentioning "exports" that are looked at; past that, the text fallback decides."""

    def __init__(self, language: Language) -> None:
        from tree_sitter import Query

        self.language = language
        self._assignments = Query(language, _ASSIGNMENT_QUERY)

    def check_tree(
        self,
        root: Node,
        line_at: Callable[[int], str],
        text: str,
        *,
        max_length: int | None = None,
    ) -> list[CodeProblem]:
        """Problems in a parsed document.

        line_at returns a line's text by 0-based row: tree-sitter columns are bytes, problems
        report characters.
        """
        errors = self._syntax_errors(root, line_at, text)
        problems = list(errors)
        if max_length is not None and len(text) > max_length:
            problems.append(_too_long(text, max_length))
        if not self._assigns_exports(root, line_at, text, has_errors=bool(errors)):
            problems.append(_exports_warning(text))
        return problems

    def check_text(self, text: str, *, max_length: int | None = None) -> list[CodeProblem]:
        """Problems in plain text, parsed afresh (for code not held in a TextArea)."""
        from tree_sitter import Parser

        tree = Parser(self.language).parse(text.encode("utf-8"))
        lines = text.split("\n")

        def line_at(row: int) -> str:
            return lines[row] if row < len(lines) else ""

        return self.check_tree(tree.root_node, line_at, text, max_length=max_length)

    def _syntax_errors(
        self, root: Node, line_at: Callable[[int], str], text: str
    ) -> list[CodeProblem]:
        problems: list[CodeProblem] = []
        for node in _error_nodes(root):
            if node.is_error and node.end_byte >= len(text.rstrip().encode("utf-8")):
                unclosed = _unclosed_bracket(node)
                if unclosed is not None:
                    problems.append(_problem_for(unclosed, line_at, unclosed=True))
                    continue
            problems.append(_problem_for(node, line_at))
        return problems

    def _assigns_exports(
        self, root: Node, line_at: Callable[[int], str], text: str, *, has_errors: bool
    ) -> bool:
        if "exports" not in text:
            return False
        from tree_sitter import QueryCursor

        rows = [row for row, line in enumerate(text.split("\n")) if "exports" in line]
        for row in rows[: self.MAX_EXPORT_ROWS]:
            cursor = QueryCursor(self._assignments)
            cursor.set_point_range((row, 0), (row + 1, 0))
            for nodes in cursor.captures(root).values():
                for node in nodes:
                    target = re.sub(r"\s+", "", _node_text(node, line_at))
                    if _EXPORTS_TARGET.match(target):
                        return True
        # Inside a syntax error the assignment may not parse as one, and past MAX_EXPORT_ROWS
        # it is not looked for: the text decides rather than add a misleading complaint.
        return (has_errors or len(rows) > self.MAX_EXPORT_ROWS) and (
            _EXPORTS_TEXT.search(text) is not None
        )


def _error_nodes(root: Node) -> list[Node]:
    """ERROR and MISSING nodes in document order, not descending into a reported ERROR."""
    found: list[Node] = []
    pending = [root]
    while pending and len(found) < MAX_REPORTED_ERRORS:
        node = pending.pop()
        if node.is_missing or node.is_error:
            found.append(node)
        elif node.has_error:
            pending.extend(reversed(node.children))
    return found


@cache
def javascript_checker() -> JavaScriptChecker:
    """A checker on its own JavaScript grammar, for text that is not in a TextArea."""
    import tree_sitter_javascript
    from tree_sitter import Language

    return JavaScriptChecker(Language(tree_sitter_javascript.language()))


def check_javascript(text: str, *, max_length: int | None = None) -> list[CodeProblem]:
    """Problems in JavaScript text (a fresh parse): for code shown outside the editor."""
    return javascript_checker().check_text(text, max_length=max_length)


def _problem_for(
    node: Node, line_at: Callable[[int], str], *, unclosed: bool = False
) -> CodeProblem:
    row, byte_column = node.start_point
    line = row + 1
    column = _character_column(line_at(row), byte_column) + 1
    if unclosed:
        title = f"Unclosed '{node.type}'"
    elif node.is_missing:
        expected = node.type if not node.is_named else node.type.replace("_", " ")
        title = f"Missing '{expected}'" if not node.is_named else f"Missing {expected}"
    else:
        title = "Syntax error"
    return CodeProblem(
        line=line,
        column=column,
        message=f"{title} at line {line}, column {column}",
        severity="error",
        title=title,
    )


_CLOSING = {")": "(", "]": "[", "}": "{"}


def _unclosed_bracket(error: Node) -> Node | None:
    """The innermost bracket left open in an error that runs to the end of the code.

    tree-sitter reports an unclosed block as one ERROR from its start; the open bracket is
    where a person has to look.
    """
    stack: list[Node] = []
    pending = [error]
    while pending:
        node = pending.pop()
        if node.child_count:
            pending.extend(reversed(node.children))
        elif node.type in ("(", "[", "{"):
            stack.append(node)
        elif node.type in _CLOSING and stack and stack[-1].type == _CLOSING[node.type]:
            stack.pop()
    return stack[-1] if stack else None


def _too_long(text: str, max_length: int) -> CodeProblem:
    head = text[:max_length]
    line = head.count("\n") + 1
    column = max_length - (head.rfind("\n") + 1) + 1
    return CodeProblem(
        line=line,
        column=column,
        message=(
            f"The code is {len(text):,} characters long; the service accepts at most {max_length:,}"
        ),
        severity="error",
        title=f"Longer than {max_length:,} characters",
    )


def _exports_warning(text: str) -> CodeProblem:
    """Placed at the end of the code, where the missing assignment usually goes."""
    lines = text.split("\n")
    while len(lines) > 1 and not lines[-1].strip():
        lines.pop()
    return CodeProblem(
        line=len(lines),
        column=len(lines[-1]) + 1,
        message="module.exports is never assigned",
        severity="warning",
    )


def _character_column(line: str, byte_column: int) -> int:
    if line.isascii():
        return byte_column
    return len(line.encode("utf-8")[:byte_column].decode("utf-8", errors="ignore"))


def _node_text(node: Node, line_at: Callable[[int], str]) -> str:
    (start_row, start_byte), (end_row, end_byte) = node.start_point, node.end_point
    if end_row - start_row > 20:
        return ""  # no exports target spans that many lines
    parts = []
    for row in range(start_row, end_row + 1):
        encoded = line_at(row).encode("utf-8")
        begin = start_byte if row == start_row else 0
        end = end_byte if row == end_row else len(encoded)
        parts.append(encoded[begin:end].decode("utf-8", errors="ignore"))
    return "\n".join(parts)
