"""The People section's dialogs: inviting someone (an email checked strictly, its error at the
field, and a role), and choosing a member's new role.

The invite dialog sends the invitation itself (through the callable it is given), so that
what was typed stays in front of the person when the service refuses it (already a member,
already invited), as a form keeps what was typed.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Select, Static

from console.tui.modals.base import Dialog

if TYPE_CHECKING:
    from console.models.people import InvitationCreate

log = logging.getLogger(__name__)

ROLE_CHOICES = (
    ("ADMIN — manages the tenant", "ADMIN"),
    ("READ_ONLY — reads only", "READ_ONLY"),
)
"""The roles an invitation or a role change may give (console.models.people.ASSIGNABLE_ROLES),
as the choice reads them."""

PEOPLE_CSS = """
.people-label { width: 100%; text-style: bold; margin-top: 1; }
.people-error { width: 100%; color: $text-error; display: none; }
.people-error.-shown { display: block; }
Input.-invalid { border: tall $error; }
"""
"""The dialogs' own styles: labels above the fields, an error under its field."""


class InviteModal(Dialog[Any]):
    """Invite someone: email and role. Dismisses with the invitation the service answered,
    or None when closed without sending."""

    DEFAULT_CSS = PEOPLE_CSS
    BINDINGS = [Binding("escape", "close", "Cancel")]

    def __init__(self, send: Callable[[InvitationCreate], Awaitable[Any]]) -> None:
        super().__init__()
        self._send = send
        self.sending = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("Invite someone to the tenant", classes="dialog-title", markup=False)
            yield Static(
                "They get an email with a link, valid for 72 hours, to join with this role.",
                classes="dialog-body",
                markup=False,
            )
            yield Static("Email", classes="people-label")
            yield Input(placeholder="ada@example.com", id="email")
            yield Static("", id="email-error", classes="people-error", markup=False)
            yield Static("Role", classes="people-label")
            yield Select(ROLE_CHOICES, value="ADMIN", allow_blank=False, id="role")
            yield Static("", id="invite-problem", classes="people-error", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Invite", id="confirm", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#email", Input).focus()

    # ---- errors at their field ------------------------------------------------------------

    def show_errors(self, errors: dict[str, list[str]]) -> None:
        """Each error at its field (email, role); any other in the line above the buttons."""
        email = " ".join(errors.get("email", []))
        others = [
            " ".join(sentences) if path in ("", "role") else f"{path}: {' '.join(sentences)}"
            for path, sentences in errors.items()
            if path != "email"
        ]
        self._say("#email-error", email)
        self._say("#invite-problem", " ".join(others))
        self.query_one("#email", Input).set_class(bool(email), "-invalid")
        if email:
            self.query_one("#email", Input).focus()

    def _say(self, selector: str, text: str) -> None:
        line = self.query_one(selector, Static)
        line.update(text)
        line.set_class(bool(text), "-shown")

    @property
    def email_error(self) -> str:
        return str(self.query_one("#email-error", Static).content)

    @property
    def problem(self) -> str:
        return str(self.query_one("#invite-problem", Static).content)

    # ---- sending --------------------------------------------------------------------------

    def request(self) -> InvitationCreate | None:
        """The invitation as typed, checked as the service checks it; None (errors shown)."""
        from console.models import PayloadInvalid
        from console.models.people import InvitationCreate

        email = self.query_one("#email", Input)
        email.value = email.value.strip()
        role = self.query_one("#role", Select).value
        try:
            return InvitationCreate.parse({"email": email.value, "role": role})
        except PayloadInvalid as invalid:
            self.show_errors(invalid.errors)
            return None

    def action_invite(self) -> None:
        if self.sending:
            return
        model = self.request()
        if model is None:
            return
        self.show_errors({})
        self._sending(True)
        self._invite(model)

    def _sending(self, sending: bool) -> None:
        self.sending = sending
        button = self.query_one("#confirm", Button)
        button.disabled = sending
        button.label = "Sending…" if sending else "Invite"

    @work(exclusive=True, group="invite", exit_on_error=False)
    async def _invite(self, model: InvitationCreate) -> None:
        from console.client import ApiError, ValidationFailed

        try:
            result = await self._send(model)  # a POST: sent once, never again by itself
        except ValidationFailed as error:
            self.show_errors(error.errors or {"": [str(error)]})
        except ApiError as error:
            self.show_errors({"": [str(error)]})
        except Exception as error:  # a bug must not eat what was typed
            log.warning("The invitation was not sent", exc_info=True)
            self.show_errors({"": [str(error)]})
        else:
            self.dismiss(result)
            return
        finally:
            if self.is_attached:
                self._sending(False)

    def action_close(self) -> None:
        if self.sending:
            self.notify("Sending: wait for the answer before closing.")
            return
        self.dismiss(None)

    @on(Input.Submitted, "#email")
    def _submitted(self) -> None:
        self.action_invite()

    @on(Input.Changed, "#email")
    def _edited(self) -> None:
        """A marked email turns back once it is valid."""
        if self.email_error:
            from console.models import PayloadInvalid
            from console.models.people import InvitationCreate

            try:
                InvitationCreate.parse({"email": self.query_one("#email", Input).value.strip()})
            except PayloadInvalid as invalid:
                if "email" in invalid.errors:
                    return
            self.show_errors({})

    @on(Button.Pressed, "#confirm")
    def _confirm_pressed(self) -> None:
        self.action_invite()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.action_close()


class RoleModal(Dialog[str | None]):
    """A member's new role; dismisses with it, or None. The current one is not offered as
    a change (choosing it changes nothing)."""

    DEFAULT_CSS = PEOPLE_CSS
    BINDINGS = [Binding("escape", "close", "Cancel")]

    def __init__(self, email: str, current: str | None, *, warning: str | None = None) -> None:
        super().__init__()
        self.email = email
        self.current = current
        self.warning = warning

    def compose(self) -> ComposeResult:
        start = "READ_ONLY" if self.current == "ADMIN" else "ADMIN"
        with Vertical(id="dialog"):
            yield Static(f'Change the role of "{self.email}"', classes="dialog-title", markup=False)
            yield Static(
                f"Now: {self.current or 'no role'}. The new role applies from their next request.",
                classes="dialog-body",
                markup=False,
            )
            if self.warning:
                yield Static(self.warning, classes="dialog-warning", markup=False)
            yield Static("New role", classes="people-label")
            yield Select(ROLE_CHOICES, value=start, allow_blank=False, id="role")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Change role", id="confirm", variant="primary")

    def on_mount(self) -> None:
        # The other of the two roles is chosen already (the one change there is to make):
        # enter confirms it, shift+tab goes back to the choice.
        self.query_one("#confirm", Button).focus()

    @property
    def chosen(self) -> str:
        return str(self.query_one("#role", Select).value)

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#confirm")
    def _confirm_pressed(self) -> None:
        self.dismiss(self.chosen)

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self) -> None:
        self.dismiss(None)
