"""The guided rotation of an application's key, step by step: the new key is made and shown
once (done before this opens), the old keys keep working while the new one is deployed, and
once the admin confirms it is deployed, the old keys are revoked.

It dismisses with "revoke", "cancel", or None (later: the rotation stays remembered and
shown on the application).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Checkbox, Static

from console.keys.rotation import CREATED
from console.tui.modals.base import Dialog
from console.tui.widgets.keys_panel import short_id
from console.tui.widgets.toggles import TextCheckbox

if TYPE_CHECKING:
    from console.keys.rotation import Rotation


DEPLOYED_LABEL = "The new key is deployed everywhere (t)"
WAITING = "Tick the box (t) once the new key is deployed: Revoke old (r) waits until then."
REVOKE_REFUSED = (
    "Not revoked: tick 'The new key is deployed everywhere' (t) first. The old keys stop "
    "at once, and whatever still uses them gets 401."
)
Q_REFUSED = (
    "q does not close this: escape leaves the rotation for later (o on the application "
    "continues it), c cancels it, r revokes the old keys."
)


class RotationScreen(Dialog[str | None]):
    """The rotation's last step; a refusal (r before the box is ticked, q) says why in it."""

    BINDINGS = [
        Binding("escape", "later", "Later"),
        Binding("r", "revoke", "Revoke old keys"),
        Binding("c", "cancel_rotation", "Cancel rotation"),
        Binding("t", "tick_deployed", "Tick: deployed"),
        Binding("q", "refuse_q", "Later (esc)", show=False),
    ]

    def __init__(self, rotation: Rotation, *, consequences: str = "") -> None:
        super().__init__(classes="-danger")
        self.rotation = rotation
        self.consequences = consequences

    def compose(self) -> ComposeResult:
        rotation = self.rotation
        old = ", ".join(short_id(k) for k in rotation.old_key_ids) or "none"
        count = len(rotation.old_key_ids)
        plural = "s" if count != 1 else ""
        with VerticalScroll(id="dialog"):
            yield Static(
                f'Rotate the key of "{rotation.application_name}"',
                classes="dialog-title",
                markup=False,
            )
            yield Static(
                f"✓ 1. New key {short_id(rotation.new_key_id)} made and shown once.",
                markup=False,
            )
            yield Static(
                f"● 2. Deploy the new key wherever the old one is used. The old key{plural} "
                f"({old}) keep{'s' if count == 1 else ''} working meanwhile.",
                markup=False,
            )
            yield Static(
                f"○ 3. Revoke the old key{plural}: {'it stops' if count == 1 else 'they stop'} "
                "working at once." + (f" {self.consequences}" if self.consequences else ""),
                markup=False,
            )
            if rotation.stage == CREATED:
                yield Static(
                    "The console closed before the new key was confirmed stored. If you do not "
                    "have it, cancel this rotation and revoke the new key (x): it cannot be "
                    "shown again.",
                    classes="dialog-warning",
                    markup=False,
                )
            if rotation.own:
                yield Static(
                    "This console uses this application: it already uses the new key.",
                    classes="dialog-warning",
                    markup=False,
                )
            yield TextCheckbox(DEPLOYED_LABEL, id="deployed")
            yield Static(WAITING, id="rotation-status", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Later (esc)", id="later")
                yield Button("Cancel rotation (c)", id="cancel-rotation")
                yield Button("Revoke old (r)", id="revoke", variant="error", disabled=True)

    def on_mount(self) -> None:
        self.query_one("#deployed", Checkbox).focus()

    @property
    def status_text(self) -> str:
        return str(self.query_one("#rotation-status", Static).content)

    def _status(self, text: str, *, refused: bool = False) -> None:
        status = self.query_one("#rotation-status", Static)
        status.update(text)
        status.set_class(refused, "-refused")

    @on(Checkbox.Changed, "#deployed")
    def _deployed(self, event: Checkbox.Changed) -> None:
        self.query_one("#revoke", Button).disabled = not event.value
        self._status("Revoke old (r) stops the old keys at once." if event.value else WAITING)

    def action_tick_deployed(self) -> None:
        box = self.query_one("#deployed", Checkbox)
        box.value = not box.value

    def action_revoke(self) -> None:
        """Only once the admin has ticked that the new key is deployed."""
        if not self.query_one("#deployed", Checkbox).value:
            self._status(REVOKE_REFUSED, refused=True)
            self.query_one("#deployed", Checkbox).focus()
            return
        self.dismiss("revoke")

    def action_refuse_q(self) -> None:
        self._status(Q_REFUSED, refused=True)

    def action_cancel_rotation(self) -> None:
        self.dismiss("cancel")

    def action_later(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#revoke")
    def _revoke_pressed(self) -> None:
        self.action_revoke()

    @on(Button.Pressed, "#cancel-rotation")
    def _cancel_pressed(self) -> None:
        self.action_cancel_rotation()

    @on(Button.Pressed, "#later")
    def _later_pressed(self) -> None:
        self.action_later()
