"""What the forms say about a code field before saving: syntax errors, a missing export.

The sentences are the one code check's (console.code_files.problems), which `push` and the
plans use too; here only the editor's own (incrementally parsed) problems are fed to it."""

from __future__ import annotations

from textual.widget import Widget

from console.code_files.problems import CodeProblem, problem_sentences


def code_problem_sentences(label: str, editor: Widget) -> list[str]:
    """What to warn about before saving this editor's code: syntax errors, missing export."""
    problems_of = getattr(editor, "problems", None)
    text: str = getattr(editor, "text", "")
    if problems_of is None or not text.strip():
        return []
    problems: list[CodeProblem] = list(problems_of())
    return problem_sentences(label, problems)
