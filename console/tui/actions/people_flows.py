"""The People section's flows: invite (`i`), resend an invitation (`I`), change a member's
role (`e`), remove a member or revoke an invitation (`d`).

Run through their declarations (console.tui.actions.declarations), whose guard has checked
read-only mode and the key's permission; the owner and the console's own user are guarded
here as console.client.people says (the owner refused with the reason, the console's own
user's removal or demotion confirmed by typing the member's email). Each change goes through
the client, which records it in the change journal (History, undo). After one, the list it
changed is read again with its cursor on the object acted on (or its neighbour, once gone);
the rows shown stay until the fresh ones replace them.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from console.tui.browse.people_looks import INVITATIONS, MEMBERS

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.models.people import Invitation, Member
    from console.tui.base.shell import FlowHost
    from console.tui.base.shown import Shown
    from console.tui.browse.looks import ListLook

log = logging.getLogger(__name__)


def _client(app: FlowHost) -> AdminClient:
    client = app.connected_client()
    if client is None:
        raise RuntimeError("No connection to a service yet.")
    return client


def refresh_people(
    app: FlowHost, look: ListLook, focus_id: str | None = None, *, show: bool = False
) -> None:
    """The list of `look` (members or invitations) read again, its cursor on `focus_id`
    (after a removal, its neighbour), and put in use with `show` (a new invitation, invited
    from the members); the header too."""
    screen = app.console_screen
    if screen is not None:

        def reload() -> None:
            from console.tui.widgets.people_view import PeopleView

            view = screen.find_section(MEMBERS.key)
            if isinstance(view, PeopleView):
                if show and screen.current == MEMBERS.key:
                    view.show_list(look)
                view.list_of(look).reload(focus_id)

        screen.call_after_refresh(reload)
    app.refresh_header_info()


def _email(obj: Shown) -> str:
    """Who a member or an invitation is, for a sentence: its email, made printable."""
    from console.kinds import field_of
    from console.terminal_text import printable

    value = field_of(obj, "user.email") or field_of(obj, "email")
    return printable(str(value)) if value else "(no email)"


# ---- invite ---------------------------------------------------------------------------------


async def invite_flow(app: FlowHost) -> Invitation | None:
    """`i`: the invite dialog (it sends, and shows a refusal at its field); the new
    invitation then shows in the list, the cursor on it."""
    from console.tui.modals.people import InviteModal

    client = _client(app)

    async def send(model: Any) -> Invitation:
        return await client.invitations.create(model)

    invitation: Invitation | None = await app.ask(InviteModal(send))
    if invitation is None:
        return None
    app.notify(f'Invited "{_email(invitation)}" as {invitation.role or "ADMIN"}.', title="Invited")
    refresh_people(app, INVITATIONS, str(invitation.id), show=True)
    return invitation


# ---- resend ---------------------------------------------------------------------------------


async def resend_flow(app: FlowHost, obj: Shown | None) -> Invitation | None:
    """`I` on an invitation: asked, sent again (a new expiry, 72 hours from now)."""
    from console.client import ApiError, NotFound
    from console.tui.modals import ConfirmModal

    if obj is None:
        return None
    client = _client(app)
    email, invitation_id = _email(obj), INVITATIONS.item_id(obj)
    modal = ConfirmModal(
        f'Resend the invitation to "{email}"?',
        "They get the email again; the invitation then expires 72 hours from now.",
        confirm_label="Resend",
        danger=False,
    )
    if not await app.ask(modal):
        return None
    try:
        resent = await client.invitations.resend(invitation_id)
    except NotFound:
        app.notify(f'The invitation to "{email}" is gone.', title="Not resent", severity="error")
        refresh_people(app, INVITATIONS, invitation_id)
        return None
    except ApiError as error:
        app.notify(str(error), title="The invitation was not resent", severity="error")
        return None
    app.notify(f'Resent the invitation to "{email}".', title="Resent")
    refresh_people(app, INVITATIONS, invitation_id)
    return resent


# ---- revoke an invitation, remove a member ---------------------------------------------------


async def revoke_flow(app: FlowHost, obj: Shown | None) -> bool:
    """`d` on an invitation: asked, naming who, then revoked."""
    from console.tui.modals import ConfirmModal

    if obj is None:
        return False
    email = _email(obj)
    modal = ConfirmModal(
        f'Revoke the invitation to "{email}"?',
        f"{INVITATIONS.delete_consequences}\n\nIt can be sent again from History (H), "
        "or by inviting them anew.",
        confirm_label="Revoke",
    )
    if not await app.ask(modal):
        return False
    return await _deleted(app, INVITATIONS, obj, f'the invitation to "{email}"', "Revoked")


async def remove_flow(app: FlowHost, member: Member) -> bool:
    """`d` on a member: the owner refused with the reason; the console's own user (or one
    the console cannot tell apart from it) removed only once its email is typed; anyone
    else after a confirmation naming them."""
    from console.client.people import needs_typed_email, stakes_of
    from console.tui.modals import ConfirmModal, TypeToConfirmModal

    client = _client(app)
    stakes = await stakes_of(client, member)
    refusal = stakes.refusal("remove")
    email = _email(member)
    if refusal is not None:
        app.notify(refusal, title="Not removed", severity="warning")
        return False
    title = f'Remove "{email}" from the tenant?'
    body = f"{MEMBERS.delete_consequences}\n\nHistory (H) can invite them again (they accept anew)."
    modal: ConfirmModal | TypeToConfirmModal
    if needs_typed_email(stakes, member, "remove"):
        modal = TypeToConfirmModal(
            title, body, member.email, confirm_label="Remove", warning=stakes.losses("remove")
        )
    else:
        modal = ConfirmModal(title, body, confirm_label="Remove")
    if not await app.ask(modal):
        return False
    return await _deleted(app, MEMBERS, member, f'"{email}"', "Removed")


async def _deleted(app: FlowHost, look: ListLook, obj: Shown, who: str, done: str) -> bool:
    """Deletes `obj`; said, and its list read again (the cursor on its neighbour)."""
    from console.client import ApiError, NotFound

    client = _client(app)
    item_id = look.item_id(obj)
    try:
        await client.collection(look.declaration).delete(item_id)
    except NotFound:
        app.notify(f"{who.capitalize()} was already gone.", title=done)
    except ApiError as error:
        app.notify(str(error), title=f"Not {done.lower()}", severity="error")
        return False
    else:
        app.notify(f"{done} {who}.", title=done)
    refresh_people(app, look, item_id)
    return True


# ---- change a member's role ------------------------------------------------------------------


async def change_role_flow(app: FlowHost, member: Member) -> Member | None:
    """`e` on a member: the new role chosen (ADMIN or READ_ONLY); the owner's refused with
    the reason; demoting the console's own user needs its email typed."""
    from console.client import ApiError
    from console.client.people import needs_typed_email, stakes_of
    from console.tui.modals import TypeToConfirmModal
    from console.tui.modals.people import RoleModal

    client = _client(app)
    stakes = await stakes_of(client, member)
    refusal = stakes.refusal("set-role")
    if refusal is not None:
        app.notify(refusal, title="Role not changed", severity="warning")
        return None
    email = _email(member)
    warning = stakes.losses("set-role") if stakes.guarded else None
    role = await app.ask(RoleModal(email, member.role, warning=warning))
    if role is None:
        return None
    if role == member.role:
        app.notify(f'"{email}" is {role} already: nothing changed.', title="Role not changed")
        return None
    if needs_typed_email(stakes, member, "set-role", role):
        confirm = TypeToConfirmModal(
            f'Make "{email}" {role}?',
            f"{stakes.losses('set-role')}\n\nHistory (H) can set the role back.",
            member.email,
            confirm_label="Change role",
        )
        if not await app.ask(confirm):
            return None
    try:
        changed = await client.members.set_role(str(member.id), role)
    except (ApiError, ValueError) as error:
        app.notify(str(error), title="Role not changed", severity="error")
        return None
    app.notify(f'"{email}" is now {changed.role or role}.', title="Role changed")
    refresh_people(app, MEMBERS, str(member.id))
    return changed
