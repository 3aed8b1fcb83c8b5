"""Asked when a linked code file changed on disk while the console's editor has edits of its
own: reloading would lose them, so the person chooses, after seeing the diff if they wish."""

from __future__ import annotations

from typing import Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from console.code_diff import line_diff
from console.tui.modals.base import Dialog
from console.tui.widgets.line_diff import LineDiff, fit_scroll

FileChoice = Literal["mine", "file"]


class FileChangedModal(Dialog[FileChoice]):
    """Dismisses with "mine" (keep the editor's code; also escape) or "file" (take the
    file's). "Show the diff" shows, in place, the editor's code against the file's."""

    BINDINGS = [
        Binding("escape", "keep", "Keep mine"),
        Binding("d", "toggle_diff", "Show the diff", show=False),
    ]

    DEFAULT_CSS = """
    FileChangedModal > #dialog {
        width: 110;
    }
    FileChangedModal #file-diff {
        height: auto;
        max-height: 16;
        margin-bottom: 1;
    }
    """

    def __init__(self, file_name: str, mine: str, theirs: str) -> None:
        super().__init__(classes="-danger")
        self.file_name = file_name
        self.diff = line_diff(
            mine, theirs, old_label="the console's code", new_label=f"{file_name} on disk"
        )

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"{self.file_name} changed on disk", classes="dialog-title", markup=False)
            yield Static(
                "The code in the console has edits that are not in the file. Taking the "
                "file's code replaces them (ctrl+z in the editor brings them back); keeping "
                "yours leaves the file as it is.",
                classes="dialog-body",
                markup=False,
            )
            with VerticalScroll(id="file-diff"):
                yield Static(
                    "- the console's code, + the file's", classes="diff-title", markup=False
                )
                yield LineDiff(self.diff)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Show the diff", id="show-diff")
                yield Button("Take the file's", id="take")
                yield Button("Keep mine", id="keep", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#file-diff").display = False
        self.query_one("#keep", Button).focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        scroll = self.query_one("#file-diff")
        if scroll.display:
            fit_scroll(self.query_one("#dialog"), scroll, self.size.height)

    @property
    def diff_shown(self) -> bool:
        return bool(self.query_one("#file-diff").display)

    @on(Button.Pressed, "#show-diff")
    def action_toggle_diff(self) -> None:
        scroll = self.query_one("#file-diff")
        scroll.display = not scroll.display
        self.query_one("#show-diff", Button).label = (
            "Hide the diff" if scroll.display else "Show the diff"
        )
        self.call_after_refresh(self._fit)

    @on(Button.Pressed, "#keep")
    def action_keep(self) -> None:
        self.dismiss("mine")

    @on(Button.Pressed, "#take")
    def _take(self) -> None:
        self.dismiss("file")
