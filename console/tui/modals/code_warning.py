"""Asked before saving code that will not run: syntax errors, or no exported function."""

from __future__ import annotations

from console.tui.modals.confirm import ConfirmModal


class CodeWarningModal(ConfirmModal):
    """`problems` are sentences such as "The code has 2 syntax errors (first at 3:14)."."""

    def __init__(self, problems: list[str]) -> None:
        body = "\n".join(problems)
        super().__init__(
            "Problems in the code",
            body,
            confirm_label="Save anyway",
            cancel_label="Fix the code",
            warning="The service stores the code as it is; it fails when it runs. Save anyway?",
        )
