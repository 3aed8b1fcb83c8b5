"""Shows a new API key exactly once: masked until asked, copyable, closed only on purpose."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from console.tui.modals.base import Dialog

MASK = "•" * 32
"""What stands for the key while hidden: a fixed length, so not even its size shows."""


class KeyRevealModal(Dialog[None]):
    """The one moment a key is shown. Masked by default (screenshots and snapshots stay
    clean); `s` shows it, `c` copies it. Escape does not close it: only Done does."""

    DEFAULT_CSS = """
    KeyRevealModal #key {
        width: 100%;
        border: round $accent;
        padding: 0 1;
        margin-bottom: 1;
    }
    KeyRevealModal #key.-revealed {
        color: $text;
        text-style: bold;
    }
    """

    BINDINGS = [
        Binding("c", "copy", "Copy key"),
        Binding("s", "toggle", "Show/hide"),
        Binding("escape", "refuse_escape", "Done with Enter", show=False),
    ]

    def __init__(self, key: str, application_name: str, *, regenerated: bool = False) -> None:
        super().__init__()
        self._key = key
        self.application_name = application_name
        self.regenerated = regenerated
        self.revealed = False
        self.copied = False

    def __repr__(self) -> str:  # never the key
        return f"KeyRevealModal(application_name={self.application_name!r})"

    def compose(self) -> ComposeResult:
        what = "New key" if self.regenerated else "API key"
        with Vertical(id="dialog"):
            yield Static(
                f'{what} for "{self.application_name}"', classes="dialog-title", markup=False
            )
            yield Static(
                "This key is shown only now. Copy it and store it somewhere safe: "
                "it cannot be shown again (regenerate it if it is lost).",
                classes="dialog-warning",
            )
            yield Static(MASK, id="key", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Show (s)", id="toggle")
                yield Button("Copy (c)", id="copy")
                yield Button("Done", id="done", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#copy", Button).focus()

    def action_toggle(self) -> None:
        self.revealed = not self.revealed
        key = self.query_one("#key", Static)
        key.update(self._key if self.revealed else MASK)
        key.set_class(self.revealed, "-revealed")
        self.query_one("#toggle", Button).label = "Hide (s)" if self.revealed else "Show (s)"

    def action_copy(self) -> None:
        self.app.copy_to_clipboard(self._key)
        self.copied = True
        self.notify("The key is on the clipboard.", title="Copied")

    def action_refuse_escape(self) -> None:
        self.notify("Press Done once the key is stored: it will not be shown again.")

    @on(Button.Pressed, "#toggle")
    def _toggle_pressed(self) -> None:
        self.action_toggle()

    @on(Button.Pressed, "#copy")
    def _copy_pressed(self) -> None:
        self.action_copy()

    @on(Button.Pressed, "#done")
    def _done(self) -> None:
        self._key = ""
        self.dismiss(None)
