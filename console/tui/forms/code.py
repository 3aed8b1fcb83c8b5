"""The forms' code fields: the project's CodeEditor, or a plain TextArea until it exists.

Forms only use `.text`, `.read_only` and `.problems()`, so either works behind this adapter.
"""

from __future__ import annotations

from typing import Any, Protocol

from textual.widget import Widget


class CodeField(Protocol):
    text: str
    read_only: bool

    def problems(self) -> list[Any]: ...


def make_code_editor(
    text: str = "",
    *,
    label: str = "Code",
    read_only: bool = False,
    max_length: int | None = None,
    id: str | None = None,
) -> Widget:
    """A JavaScript editor widget with `.text`, `.read_only` and `.problems()`."""
    try:
        from console.tui.widgets.code_editor import CodeEditor
    except ImportError:
        return _plain_code_editor(text, read_only=read_only, id=id)
    return CodeEditor(text, label=label, read_only=read_only, max_length=max_length, id=id)


def _plain_code_editor(text: str, *, read_only: bool, id: str | None) -> Widget:
    from textual.widgets import TextArea

    class PlainCodeEditor(TextArea):
        """Stand-in: a JavaScript TextArea checked with the shared tree-sitter checker."""

        DEFAULT_CSS = "PlainCodeEditor { height: 12; }"

        def problems(self) -> list[Any]:
            from console.tui.widgets.code_problems import check_javascript

            return check_javascript(self.text)

    return PlainCodeEditor.code_editor(
        text, language="javascript", read_only=read_only, id=id, classes="code-field"
    )


def code_problem_sentences(label: str, editor: Widget) -> list[str]:
    """What to warn about before saving this editor's code: syntax errors, missing export."""
    problems_of = getattr(editor, "problems", None)
    text: str = getattr(editor, "text", "")
    if problems_of is None or not text.strip():
        return []
    problems = list(problems_of())
    errors = [p for p in problems if getattr(p, "severity", "error") == "error"]
    warnings = [p for p in problems if getattr(p, "severity", "error") != "error"]
    found: list[str] = []
    if errors:
        first = errors[0]
        noun = "syntax error" if len(errors) == 1 else "syntax errors"
        found.append(
            f"The {label} has {len(errors)} {noun} (first at {first.line}:{first.column})."
        )
    for warning in warnings:
        message = str(getattr(warning, "message", warning))
        if "module.exports" in message:
            found.append(
                f"The {label} never assigns module.exports: the service finds no function to run."
            )
        else:
            found.append(f"The {label}: {message}.")
    return found
