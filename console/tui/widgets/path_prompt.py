"""A small dialog asking for a file path: the code editor's load and save, a new key's file,
the access review's export.

It checks the path before closing (the file exists, or its folder does; an existing file is
replaced only after a second Enter), so a typo is fixed in place instead of costing a retry.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static

from console.tui.modals.base import Dialog

PromptMode = Literal["open", "save", "link"]
"""`link`: an existing file (read) or a new one in an existing folder (written)."""


class PathPrompt(Dialog[Path | None]):
    """Dismisses with the chosen path (expanded, absolute), or None when cancelled."""

    DEFAULT_CSS = """
    PathPrompt Input {
        margin-bottom: 1;
    }
    PathPrompt #path-problem {
        width: 100%;
        height: auto;
        margin-bottom: 1;
    }
    PathPrompt #path-problem.-error {
        color: $error;
    }
    PathPrompt #path-problem.-warning {
        color: $warning;
    }
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        title: str,
        *,
        mode: PromptMode,
        initial: str = "",
        action_label: str | None = None,
        placeholder: str = "path/to/code.js",
    ) -> None:
        """`placeholder`: an example path fitting what is written (a key file, code)."""
        super().__init__()
        self.placeholder = placeholder
        self.title_text = title
        self.mode: PromptMode = mode
        self.initial = initial
        self.action_label = action_label or {"open": "Load", "save": "Save", "link": "Link"}[mode]
        self._overwrite_confirmed_for: Path | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Input(self.initial, placeholder=self.placeholder, id="path")
            yield Static("", id="path-problem", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(self.action_label, id="accept", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#path", Input).focus()

    @on(Input.Changed, "#path")
    def _edited(self) -> None:
        self._overwrite_confirmed_for = None
        self._show_problem("", "")

    @on(Input.Submitted, "#path")
    @on(Button.Pressed, "#accept")
    def _accept(self) -> None:
        raw = self.query_one("#path", Input).value.strip()
        if not raw:
            self._show_problem("Type a file path.", "-error")
            return
        path = Path(raw).expanduser().absolute()
        problem = self._problem_with(path)
        if problem is not None:
            self._show_problem(*problem)
            return
        self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    def _problem_with(self, path: Path) -> tuple[str, str] | None:
        """(sentence, class) when the path will not do yet; None to accept it."""
        if path.is_dir():
            return f"{path} is a folder; type a file name.", "-error"
        if self.mode == "open":
            if not path.exists():
                return f"There is no file at {path}.", "-error"
            return None
        if not path.parent.is_dir():
            return f"The folder {path.parent} does not exist.", "-error"
        if self.mode == "link":  # an existing file is read, not replaced: nothing to confirm
            return None
        if path.exists() and self._overwrite_confirmed_for != path:
            self._overwrite_confirmed_for = path
            return f"{path.name} exists. {self.action_label} again to replace it.", "-warning"
        return None

    def _show_problem(self, sentence: str, css_class: str) -> None:
        problem = self.query_one("#path-problem", Static)
        problem.update(sentence)
        problem.set_class(css_class == "-error", "-error")
        problem.set_class(css_class == "-warning", "-warning")
