"""Asked when someone else changed an object while it was open in a form."""

from __future__ import annotations

from dataclasses import dataclass

from rich import box
from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from console.tui.modals.base import ChoiceDialog
from console.tui.widgets.line_diff import LineDiff, fit_scroll


@dataclass(frozen=True)
class FieldChange:
    """One field changed by someone else: their value now, and the one about to be saved."""

    field: str
    theirs: str
    yours: str
    diff: tuple[str, ...] = ()
    """For code: the unified line diff from their code to yours (what saving changes)."""
    problems: tuple[str, ...] = ()
    """For code: what the code check finds in theirs and in yours, one sentence each."""


class LostUpdateModal(ChoiceDialog):
    """Lists what changed since the form opened; True means overwrite with this form's values."""

    BINDINGS = [Binding("escape", "answer(False)", "Keep editing")]

    def __init__(
        self, what: str, changes: list[FieldChange], *, changed_when: str | None = None
    ) -> None:
        super().__init__(classes="-danger")
        self.what = what
        self.changes = changes
        self.changed_when = changed_when

    def compose(self) -> ComposeResult:
        when = f" ({self.changed_when})" if self.changed_when else ""
        with Vertical(id="dialog"):
            yield Static(
                f"{self.what} was changed by someone else{when}",
                classes="dialog-title",
                markup=False,
            )
            if self.changes:
                yield Static("Saving overwrites their changes:", classes="dialog-body")
                with VerticalScroll(id="changes"):
                    yield Static(self._table(), classes="change")
                    for change in self.changes:
                        if change.diff:
                            yield Static(
                                f"{change.field}: - theirs (saved now), + yours (this form)",
                                classes="diff-title",
                                markup=False,
                            )
                            yield LineDiff(list(change.diff), classes="change")
                        if change.problems:
                            yield Static(
                                "\n".join(f"! {problem}" for problem in change.problems),
                                classes="code-problems dialog-warning",
                                markup=False,
                            )
            else:
                yield Static(
                    "None of the fields in this form differ from theirs, "
                    "but saving replaces their version.",
                    classes="dialog-body",
                )
            with Horizontal(classes="dialog-buttons"):
                yield Button("Keep editing", id="cancel")
                yield Button("Overwrite", id="confirm", variant="error")

    def _table(self) -> Table:
        table = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False)
        table.add_column("Field", style="bold", no_wrap=True)
        table.add_column("Theirs (saved now)", style="yellow", overflow="fold")
        table.add_column("Yours (this form)", overflow="fold")
        for change in self.changes:
            table.add_row(change.field, change.theirs, change.yours)
        return table

    def on_mount(self) -> None:
        self.query_one("#cancel", Button).focus()

    def on_resize(self) -> None:
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """The changes take what the screen has to spare (a long diff scrolls in them)."""
        if any(change.diff for change in self.changes):
            fit_scroll(self.query_one("#dialog"), self.query_one("#changes"), self.size.height)
