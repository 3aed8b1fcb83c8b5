"""Shown once a webhook is created: the public key its deliveries are verified with, in the
new-key dialog's look, with its copy action.

The service has no per-webhook signing secret (console.webhooks.signing): every delivery is
signed with the service's own key, so a receiver needs only its public key. Nothing here is
secret, so it is shown whole and closes at once; the webhook's detail shows it too.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Static

from console.tui.modals.base import Dialog

EXPLANATION = (
    "Deliveries are signed with the service's key; verify them with this public key "
    "(BT-SIGNATURE: RSA-PSS, SHA-256). Not a secret: the webhook's detail shows it too."
)


class VerificationKeyModal(Dialog[None]):
    """The public key after a create: `y` copies it, `o`, enter or escape close."""

    BINDINGS = [
        Binding("y", "copy", "Copy key"),
        Binding("o", "done", "Done"),
        Binding("escape", "done", "Done", show=False),
    ]

    def __init__(self, public_key: str, webhook_name: str) -> None:
        super().__init__()
        self.public_key = public_key
        self.webhook_name = webhook_name
        self.copied = False
        self.status_text = ""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):  # at 80x24 it just fits; smaller, it scrolls
            yield Static(
                f'Webhook "{self.webhook_name}" created', classes="dialog-title", markup=False
            )
            yield Static(EXPLANATION, classes="dialog-body", markup=False)
            yield Static(self.public_key.strip(), id="key", classes="-revealed", markup=False)
            yield Static("", id="key-status", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Copy (y)", id="copy")
                yield Button("Done (o)", id="done", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#key-status").display = False
        self.query_one("#copy", Button).focus()

    def action_copy(self) -> None:
        self.run_worker(self._copy(), group="copy", exclusive=True, exit_on_error=False)

    async def _copy(self) -> None:
        from console.tui.base.clipboard import copy_text

        copied = await copy_text(self.app, self.public_key)
        self.copied = copied.confirmed
        self.status_text = copied.message
        status = self.query_one("#key-status", Static)
        status.update(copied.message)
        status.display = True

    def action_done(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#copy")
    def _copy_pressed(self) -> None:
        self.action_copy()

    @on(Button.Pressed, "#done")
    def _done_pressed(self) -> None:
        self.action_done()
