"""What the forms say about a code field before saving: syntax errors, a missing export.

The sentences are the one code check's (console.code_files.problems), which `push` and the
plans use too; here only the editor's own (incrementally parsed) problems are fed to it."""

from __future__ import annotations

from typing import Protocol

from console.code_files.problems import CodeProblem, problem_sentences


class CheckedCode(Protocol):
    """A code field as the check reads it (console.tui.widgets.code_editor.CodeEditor)."""

    @property
    def text(self) -> str: ...

    def problems(self) -> list[CodeProblem]: ...


def code_problem_sentences(label: str, editor: CheckedCode) -> list[str]:
    """What to warn about before saving this editor's code: syntax errors, missing export."""
    if not editor.text.strip():
        return []
    return problem_sentences(label, editor.problems())
