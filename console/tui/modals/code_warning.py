"""Asked before saving code that will not run: syntax errors, or no exported function."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from console.tui.modals.confirm import ConfirmModal
from console.tui.widgets.line_diff import LineDiff, fit_scroll


class CodeWarningModal(ConfirmModal):
    """`problems` are sentences such as "The code has 2 syntax errors (first at 3:14).";
    `diffs` are (label, unified diff lines) of the code about to replace the saved code, so
    "save anyway" is said knowing what it changes."""

    def __init__(
        self, problems: list[str], diffs: list[tuple[str, list[str]]] | None = None
    ) -> None:
        body = "\n".join(problems)
        super().__init__(
            "Problems in the code",
            body,
            confirm_label="Save anyway",
            cancel_label="Fix the code",
            warning="The service stores the code as it is; it fails when it runs. Save anyway?",
        )
        self.diffs = diffs or []
        self.set_class(bool(self.diffs), "-with-diff")

    def compose(self) -> ComposeResult:
        if not self.diffs:
            yield from super().compose()
            return
        with Vertical(id="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(id="code-diffs"):
                yield Static(self.body_text, classes="dialog-body", markup=False)
                for label, lines in self.diffs:
                    yield Static(
                        f"{label}: - saved, + this form", classes="diff-title", markup=False
                    )
                    yield LineDiff(lines, classes="change")
            if self.warning_text:
                yield Static(self.warning_text, classes="dialog-warning", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.cancel_label, id="cancel")
                yield Button(self.confirm_label, id="confirm", variant="error")

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """The problems and the diff take what the screen has to spare, and scroll."""
        if self.diffs:
            fit_scroll(self.query_one("#dialog"), self.query_one("#code-diffs"), self.size.height)
