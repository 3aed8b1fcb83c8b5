"""Shows a new API key exactly once: masked until asked, copyable, closed only on purpose."""

from __future__ import annotations

import re
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Static

from console import kinds
from console.tui.base.dialog_host import dialog_host
from console.tui.base.logs import hide_secret
from console.tui.modals.base import Dialog
from console.tui.widgets.toggles import TextCheckbox

MASK = "•" * 32
"""What stands for the key while hidden: a fixed length, so not even its size shows."""


WAITING = (
    "Show (v), copy (y) or write (w) the key to a file, or tick the box (t) once it is "
    "stored: Done (o) waits until then."
)
STORED_LABEL = "I have stored this key (t)"


def refusal(pressed: str) -> str:
    """Why `pressed` (o, escape, q, ctrl+c, a quit) did not close the dialog, said in it."""
    return (
        f"Not closed ({pressed}): the key is shown only once. Tick 'I have stored this "
        "key' (t), or show (v), copy (y) or write (w) it first."
    )


def key_file_suggestion(application_name: str) -> str:
    """An example path for the key's file, named after the application: the placeholder of
    the write dialog (`w`), never written unless typed."""
    slug = (
        re.sub(r"[^a-z0-9]+", "-", application_name.lower()).strip("-")[:40]
        or kinds.APPLICATIONS.nouns.singular
    )
    return f"e.g. ~/{slug}.key"


class KeyRevealModal(Dialog[None]):
    """The one moment a key is shown. Masked by default (screenshots and snapshots stay
    clean); `v` shows it, `y` copies it (as `v` and `y` do on a detail), `t` ticks that it
    is stored. It closes (Done `o`, escape or `q`) only once the key was shown, copied for
    sure (a clipboard tool took it), or the admin ticked that they stored it: an OSC 52 copy
    that the terminal may have ignored does not count. Until then every way out (the app's
    quit keys too, see `refuse_quit`) says so in the dialog."""

    BINDINGS = [
        # Not the lists' d (delete) and c (copy to profile), nor s (sort): a key pressed out
        # of habit must not be taken for another.
        Binding("y", "copy", "Copy key"),
        Binding("v", "toggle_key", "Show/hide"),
        Binding("w", "write_file", "Write to file"),
        Binding("t", "tick_stored", "Tick: stored"),
        Binding("o", "done", "Done"),
        Binding("escape", "close('escape')", "Done (o)", show=False),
        Binding("q", "close('q')", "Done (o)", show=False),
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
            yield TextCheckbox(STORED_LABEL, id="stored")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Show (v)", id="toggle")
                yield Button("Copy (y)", id="copy")
                yield Button("Done (o)", id="done", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#copy", Button).focus()

    def _status(self, text: str, *, refused: bool = False) -> None:
        """The line under the key: what to do next, or (`refused`) why it did not close."""
        self.status_text = text
        status = self.query_one("#key-status", Static)
        status.update(text)
        status.set_class(refused, "-refused")

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
            placeholder=key_file_suggestion(self.application_name),
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
        self.action_close("o")

    def action_close(self, pressed: str) -> None:
        """Done, escape or `q`: closes once the key is safe, else says why not."""
        if self.refuse_quit(pressed):
            return
        self._key = ""
        self.dismiss(None)

    def refuse_quit(self, pressed: str) -> str | None:
        """Why not, said in the dialog, while closing it (or quitting the console, see
        console.tui.base.quitting) would lose the key; None once the key is safe."""
        if self.can_close:
            return None
        said = refusal(pressed)
        self._status(said, refused=True)
        if self.is_current:  # not under the file prompt (w)
            self.query_one("#stored", Checkbox).focus()  # the way out, t or space away
        return said

    def action_tick_stored(self) -> None:
        box = self.query_one("#stored", Checkbox)
        box.value = not box.value

    @on(Checkbox.Changed, "#stored")
    def _stored_changed(self, event: Checkbox.Changed) -> None:
        if event.value:
            self._status("Done (o) closes this dialog; the key will not be shown again.")
        elif not (self.shown or self.copied):
            self._status(WAITING)

    @on(Button.Pressed, "#toggle")
    def _toggle_pressed(self) -> None:
        self.action_toggle_key()

    @on(Button.Pressed, "#copy")
    def _copy_pressed(self) -> None:
        self.action_copy()

    @on(Button.Pressed, "#done")
    def _done(self) -> None:
        self.action_done()
