"""What the forms say about a code field before saving: syntax errors, a missing export."""

from __future__ import annotations

from textual.widget import Widget


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
