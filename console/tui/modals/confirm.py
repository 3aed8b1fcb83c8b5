"""Yes/no questions asked before anything destructive or lossy."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Input, Static

from console.tui.modals.base import ChoiceDialog

REGENERATE_CONSEQUENCES = (
    "A new API key is generated and shown once. The old key stops working at once: every "
    "service still using it gets 401 until it is given the new key."
)
"""What regenerating a key does, for its confirmations."""


class ConfirmModal(ChoiceDialog):
    """Asks one question; dismisses with True only when the confirming button is chosen.

    With `danger=True` the frame is red and the safe answer (cancel) has the focus, so an
    absent-minded Enter never destroys anything.
    """

    BINDINGS = [
        Binding("escape", "answer(False)", "Cancel"),
        Binding("y", "answer(True)", "Yes", show=False),
        Binding("n", "answer(False)", "No", show=False),
    ]

    def __init__(
        self,
        title: str,
        body: str,
        *,
        confirm_label: str = "Confirm",
        cancel_label: str = "Cancel",
        danger: bool = True,
        warning: str | None = None,
    ) -> None:
        super().__init__(classes="-danger" if danger else None)
        self.title_text = title
        self.body_text = body
        self.warning_text = warning
        self.confirm_label = confirm_label
        self.cancel_label = cancel_label
        self.danger = danger

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield Static(self.body_text, classes="dialog-body", markup=False)
            if self.warning_text:
                yield Static(self.warning_text, classes="dialog-warning", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button(self.cancel_label, id="cancel")
                yield Button(
                    self.confirm_label,
                    id="confirm",
                    variant="error" if self.danger else "primary",
                )

    def on_mount(self) -> None:
        self.query_one("#cancel" if self.danger else "#confirm", Button).focus()


class DiscardChangesModal(ConfirmModal):
    """Asked when a form with unsaved changes is closed."""

    def __init__(self, what: str = "this form") -> None:
        super().__init__(
            "Discard changes?",
            f"You have unsaved changes in {what}. Closing now loses them.",
            confirm_label="Discard",
            cancel_label="Keep editing",
        )


class QuitUnsavedModal(ConfirmModal):
    """Asked when the console is quit (ctrl+c, q, ctrl+q) while a form holds unsaved changes;
    the same quit key pressed again answers yes."""

    def __init__(self, what: list[str]) -> None:
        super().__init__(
            "Quit with unsaved changes?",
            f"You have unsaved changes in {' and '.join(what)}. Quitting now loses them.",
            confirm_label="Quit",
            cancel_label="Keep editing",
        )


class RegenerateConfirm(ConfirmModal):
    """Asked before a key is regenerated: the old key dies at once, for every user of it."""

    def __init__(
        self, application_name: str, *, own_key: bool = False, grant_note: str | None = None
    ) -> None:
        notes = [
            "This is the key this console is using: the console switches to the new key."
            if own_key
            else None,
            grant_note,  # what the new key could do that the console's cannot
        ]
        warning = "\n".join(note for note in notes if note) or None
        super().__init__(
            f'Regenerate the key of "{application_name}"?',
            REGENERATE_CONSEQUENCES,
            confirm_label="Regenerate",
            warning=warning,
        )


class TypeToConfirmModal(ChoiceDialog):
    """For what cannot be undone at all, or what the console itself lives on (the tenant,
    the key it uses, the last key that can manage keys): the person types the object's name
    to confirm. The confirming button stays disabled until then, so Tab Enter cancels."""

    BINDINGS = [Binding("escape", "answer(False)", "Cancel")]

    def __init__(
        self,
        title: str,
        body: str,
        expected: str,
        *,
        confirm_label: str = "Delete",
        warning: str | None = None,
    ):
        super().__init__(classes="-danger")
        self.title_text = title
        self.body_text = body
        self.warning_text = warning
        self.expected = expected
        self.confirm_label = confirm_label

    def compose(self) -> ComposeResult:
        # Only the body scrolls, where it does not fit (60x20): the title, the warning, the
        # name to type, the input and the buttons stay in view, the focused input never
        # scrolls them away.
        with Vertical(id="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            with VerticalScroll(id="confirm-body"):
                yield Static(self.body_text, classes="dialog-body", markup=False)
            if self.warning_text:
                yield Static(self.warning_text, classes="dialog-warning", markup=False)
            yield Static(
                f'Type "{self.expected}" to confirm:',
                id="type-prompt",
                classes="dialog-warning",
                markup=False,
            )
            yield Input(placeholder=self.expected, id="typed")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button(self.confirm_label, id="confirm", variant="error", disabled=True)

    def on_mount(self) -> None:
        self.query_one("#typed", Input).focus()

    def on_resize(self) -> None:
        """Laid out at its own height first; where that does not fit (60x20), `-tight` gives
        the body what the rest leaves, scrolled, and the input takes one line."""
        self._tight(False)
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        dialog = self.query_one("#dialog")
        buttons = self.query_one(".dialog-buttons")
        self._tight(buttons.region.bottom > dialog.content_region.bottom)

    def _tight(self, tight: bool) -> None:
        self.set_class(tight, "-tight")
        self.query_one("#typed", Input).compact = tight

    @on(Input.Changed, "#typed")
    def _typed(self, event: Input.Changed) -> None:
        self.query_one("#confirm", Button).disabled = event.value != self.expected

    @on(Input.Submitted, "#typed")
    def _submitted(self) -> None:
        self.confirm()

    def confirm(self) -> None:
        """Only the exact name confirms."""
        if self.query_one("#typed", Input).value == self.expected:
            self.dismiss(True)
