"""Shows a new API key exactly once: masked until asked, copyable, closed only on purpose."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Static

from console.tui.base.dialog_host import dialog_host
from console.tui.base.logs import hide_secret
from console.tui.modals.base import Dialog
from console.tui.widgets.toggles import TextCheckbox

MASK = "•" * 32
"""What stands for the key while hidden: a fixed length, so not even its size shows."""


WAITING = (
    "Show (v), copy (y) or write (w) the key to a file, or tick the box once it is stored: "
    "Done (o) waits until then."
)


class KeyRevealModal(Dialog[None]):
    """The one moment a key is shown. Masked by default (screenshots and snapshots stay
    clean); `v` shows it, `y` copies it (as `v` and `y` do on a detail). It closes only with
    Done (`o`), and only once the
    key was shown, copied for sure (a clipboard tool took it), or the admin ticked that
    they stored it: an OSC 52 copy that the terminal may have ignored does not count."""

    BINDINGS = [
        # Not the lists' d (delete) and c (copy to profile), nor s (sort): a key pressed out
        # of habit must not be taken for another.
        Binding("y", "copy", "Copy key"),
        Binding("v", "toggle_key", "Show/hide"),
        Binding("w", "write_file", "Write to file"),
        Binding("o", "done", "Done"),
        Binding("escape", "refuse_escape", "Done (o)", show=False),
    ]

    def __init__(self, key: str, application_name: str, *, regenerated: bool = False) -> None:
        super().__init__()
        hide_secret(key)  # shown once on screen, never in the log
        self._key = key
        self.application_name = application_name
        self.regenerated = regenerated
        self.revealed = False
        self.shown = False
        """The key was on screen at least once."""
        self.copied = False
        """A clipboard tool took the key (an OSC 52 copy is never sure)."""
        self.written_to: Path | None = None
        """The file (0600) the key was written to, if it was."""
        self.status_text = WAITING

    def __repr__(self) -> str:  # never the key
        return f"KeyRevealModal(application_name={self.application_name!r})"

    @property
    def can_close(self) -> bool:
        stored = self.query_one("#stored", Checkbox).value
        return self.shown or self.copied or self.written_to is not None or stored

    def compose(self) -> ComposeResult:
        what = "New key" if self.regenerated else "API key"
        with VerticalScroll(id="dialog"):  # at 80x24 it just fits; smaller, it scrolls
            yield Static(
                f'{what} for "{self.application_name}"', classes="dialog-title", markup=False
            )
            yield Static(
                "This key is shown only now. Copy it and store it somewhere safe: "
                "it cannot be shown again (regenerate it if it is lost).",
                classes="dialog-warning",
            )
            yield Static(MASK, id="key", markup=False)
            yield Static(WAITING, id="key-status", markup=False)
            yield TextCheckbox("I have stored this key", id="stored")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Show (v)", id="toggle")
                yield Button("Copy (y)", id="copy")
                yield Button("Done (o)", id="done", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#copy", Button).focus()

    def _status(self, text: str) -> None:
        self.status_text = text
        self.query_one("#key-status", Static).update(text)

    def action_toggle_key(self) -> None:
        self.revealed = not self.revealed
        key = self.query_one("#key", Static)
        key.update(self._key if self.revealed else MASK)
        key.set_class(self.revealed, "-revealed")
        self.query_one("#toggle", Button).label = "Hide (v)" if self.revealed else "Show (v)"
        if self.revealed and not self.shown:
            self.shown = True
            if not self.copied:
                self._status("Shown: copy it by hand if need be, then Done (o).")

    def action_copy(self) -> None:
        self.run_worker(self._copy(), group="copy", exclusive=True, exit_on_error=False)

    async def _copy(self) -> None:
        from console.tui.base.clipboard import copy_text

        copied = await copy_text(self.app, self._key)
        if copied.confirmed:
            self.copied = True
            self._status(f"{copied.message} Store it somewhere safe, then Done (o).")
            return
        hint = "" if self.shown else " If it did not arrive, show it (v) and copy it by hand."
        self._status(f"{copied.message}{hint}")  # no toast: it would cover the buttons

    def action_write_file(self) -> None:
        """Asks for a file and writes the key there, readable by its owner only (0600)."""
        from console.tui.widgets.path_prompt import PathPrompt

        prompt = PathPrompt(
            f'Write the key of "{self.application_name}" to a file (mode 0600)',
            mode="save",
            action_label="Write",
        )
        dialog_host(self).show(prompt, self._write_to)

    def _write_to(self, path: Path | None) -> None:
        if path is None or not self._key:
            return
        from console.keys.key_file import KeyFileError, write_key_file

        try:
            written = write_key_file(path, self._key)
        except KeyFileError as error:
            self._status(f"Not written: {error}")
            return
        self.written_to = written
        self._status(f"Written to {written} (mode 0600). Done (o) closes this dialog.")

    def action_done(self) -> None:
        if not self.can_close:
            self._status(WAITING)
            self.notify(
                "The key is shown only once: show (v), copy (y) or write (w) it, or tick "
                "'I have stored this key', before Done.",
                severity="warning",
            )
            return
        self._key = ""
        self.dismiss(None)

    @on(Checkbox.Changed, "#stored")
    def _stored_changed(self, event: Checkbox.Changed) -> None:
        if event.value:
            self._status("Done (o) closes this dialog; the key will not be shown again.")
        elif not (self.shown or self.copied):
            self._status(WAITING)

    def action_refuse_escape(self) -> None:
        self.notify("The key is shown only once: press Done (o) once it is stored.")

    @on(Button.Pressed, "#toggle")
    def _toggle_pressed(self) -> None:
        self.action_toggle_key()

    @on(Button.Pressed, "#copy")
    def _copy_pressed(self) -> None:
        self.action_copy()

    @on(Button.Pressed, "#done")
    def _done(self) -> None:
        self.action_done()
