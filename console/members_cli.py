"""`tenant-console members list|invite|resend|revoke|set-role|remove`: the tenant's people
from a script.

`list` prints the members (email, name, role, MFA, id) and the invitations (email, role,
status, expiry, id); `--format json` prints `{"members": [...], "invitations": [...]}`,
`--format csv` one row each, `type` telling which. `invite EMAIL [--role ADMIN|READ_ONLY]`
sends an invitation (ADMIN when no role is given), `resend ID` sends it again with a new
expiry (72 hours from now), `revoke ID` withdraws it; `set-role MEMBER ROLE` changes a
member's role, `remove MEMBER` takes the member out of the tenant. MEMBER is a member's id or
email, ID an invitation's id or email: anything else is refused before a request (2).

The tenant's owner is never removed nor given another role: refused here, before anything is
sent (the service would refuse it too). Removing or demoting the console's own user (the user
who made the application whose key this command sends) needs `--confirm EMAIL`, the member's
email, as the console's dialog needs it typed; so does every removal and demotion when that
user cannot be told (a key without `application:read`).

Every change goes into the change journal first (origin `members`) and can be undone with
`tenant-console undo`: a role set back, a removed member invited again (they must accept), an
invitation revoked or sent again. Read-only mode (`--read-only`) refuses every change.

Exit codes: 0 done; 1 refused or failed (the service, the owner, read-only mode, the
journal); 2 unusable arguments (a malformed email or id, a role, a missing or wrong
`--confirm`, an email that names several invitations); 3 no such member or invitation. What
the service sent is shown with its control characters escaped. Never imports Textual.
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from console.cli_support import Command, JournalledActions, Refused, undo_hint
from console.terminal_text import printable, printable_json

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.client.people import MemberAction
    from console.models.people import Invitation, Member

OK, FAILED, USAGE, NOT_FOUND = 0, 1, 2, 3
ORIGIN = "members"
"""How the change journal says these changes were made."""
WRITES = frozenset({"invite", "resend", "revoke", "set-role", "remove"})


COMMAND = Command("tenant-console members")
_error = COMMAND.error


def _say(message: str) -> None:
    print(printable(message))


# ---- what a person gives ---------------------------------------------------------------


def _as_uuid(text: str) -> UUID | None:
    try:
        return UUID(text)
    except ValueError:
        return None


def _is_email(text: str) -> bool:
    """console.models.people.is_email, imported only when a command checks an email, so
    `--help` loads no models."""
    from console.models.people import is_email

    return is_email(text)


def checked_reference(text: str, what: str) -> tuple[UUID | None, str | None]:
    """(id, email) of a MEMBER or ID argument: a UUID or a well-formed email; Refused (2)
    otherwise, before any request."""
    text = text.strip()
    as_id = _as_uuid(text)
    if as_id is not None:
        return as_id, None
    if _is_email(text):
        return None, text
    raise Refused(
        f'"{text[:80]}" is neither {what} id (a UUID) nor an email such as ada@example.com.',
        USAGE,
    )


def _role(text: str) -> str:
    from console.client.people_groups import assignable_role

    try:
        return assignable_role(text)
    except ValueError as error:
        raise Refused(str(error), USAGE) from None


# ---- finding ---------------------------------------------------------------------------


async def find_member(client: AdminClient, given: str) -> Member:
    """The member `given` names (its id, or its user's email, any case); Refused (3) if none.
    Found in the list (the hosted service reads members only as a list)."""
    as_id, email = checked_reference(given, "a member")
    async for member in client.members.iterate():
        if as_id is not None and member.id == as_id:
            return member
        if email is not None and member.email.lower() == email.lower():
            return member
    raise Refused(f"no member is {given.strip()}.", NOT_FOUND)


async def find_invitation(client: AdminClient, given: str) -> Invitation:
    """The invitation `given` names (its id, or its email: the one invitation to it, or the
    one pending among several); Refused (3) if none, (2) if the email names several."""
    as_id, email = checked_reference(given, "an invitation")
    found: list[Invitation] = []
    async for invitation in client.invitations.iterate():
        if as_id is not None and invitation.id == as_id:
            return invitation
        if email is not None and (invitation.email or "").lower() == email.lower():
            found.append(invitation)
    if not found:
        raise Refused(f"no invitation is {given.strip()}.", NOT_FOUND)
    pending = [i for i in found if i.status == "PENDING"]
    if len(found) == 1 or len(pending) == 1:
        return found[0] if len(found) == 1 else pending[0]
    ids = ", ".join(str(i.id) for i in found)
    raise Refused(f"{len(found)} invitations are to {email} ({ids}): give the id.", USAGE)


# ---- list --------------------------------------------------------------------------------


def _when(moment: datetime | None) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC") if moment is not None else "-"


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def _mfa(member: Member) -> str:
    enrolled = member.user.mfa_enrolled
    return "-" if enrolled is None else "yes" if enrolled else "no"


def member_json(member: Member) -> dict[str, Any]:
    """One member as `list --format json` prints it."""
    return {
        "id": str(member.id),
        "email": member.email,
        "name": member.user.full_name,
        "role": member.role,
        "mfa_enrolled": member.user.mfa_enrolled,
        "user_id": member.user.id,
        "created_at": _iso(member.created_at or member.created_date),
    }


def invitation_json(invitation: Invitation) -> dict[str, Any]:
    """One invitation as `list --format json` prints it."""
    return {
        "id": str(invitation.id),
        "email": invitation.email,
        "role": invitation.role,
        "status": invitation.status,
        "expires_at": _iso(invitation.expires_at),
        "created_at": _iso(invitation.created_at),
    }


def _table(header: list[str], rows: list[list[str]]) -> str:
    rows = [header] + [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[n]) for row in rows) for n in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(widths[n]) for n, cell in enumerate(row)).rstrip() for row in rows
    )


def _text(members: list[Member], invitations: list[Invitation]) -> str:
    parts = []
    if members:
        rows = [
            [m.email or "-", m.user.full_name or "-", m.role or "-", _mfa(m), str(m.id)]
            for m in members
        ]
        parts.append(_table(["EMAIL", "NAME", "ROLE", "MFA", "ID"], rows))
    else:
        parts.append("No members.")
    if invitations:
        rows = [
            [i.email or "-", i.role or "-", i.status or "-", _when(i.expires_at), str(i.id)]
            for i in invitations
        ]
        parts.append(_table(["INVITED", "ROLE", "STATUS", "EXPIRES", "ID"], rows))
    else:
        parts.append("No invitations.")
    return "\n\n".join(parts)


CSV_COLUMNS = ("type", "email", "name", "role", "mfa_enrolled", "status", "expires_at", "id")


def _csv(members: list[Member], invitations: list[Invitation]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for m in members:
        enrolled = "" if m.user.mfa_enrolled is None else str(m.user.mfa_enrolled).lower()
        writer.writerow(
            ["member", m.email, m.user.full_name, m.role or "", enrolled, "", "", str(m.id)]
        )
    for i in invitations:
        writer.writerow(
            [
                "invitation",
                i.email or "",
                "",
                i.role or "",
                "",
                i.status or "",
                _iso(i.expires_at) or "",
                str(i.id),
            ]
        )
    return printable(out.getvalue(), lines=True)


async def _list(client: AdminClient, args: argparse.Namespace) -> int:
    members = [m async for m in client.members.iterate()]
    invitations = [i async for i in client.invitations.iterate()]
    if args.format == "json":
        document = {
            "members": [member_json(m) for m in members],
            "invitations": [invitation_json(i) for i in invitations],
        }
        print(printable_json(document, indent=2))
    elif args.format == "csv":
        sys.stdout.write(_csv(members, invitations))
    else:
        print(_text(members, invitations))
    return OK


# ---- changes -------------------------------------------------------------------------------


async def _invite(client: AdminClient, args: argparse.Namespace) -> int:
    from console.models.errors import PayloadInvalid

    role = _role(args.role)
    if not _is_email(args.email.strip()):
        raise Refused(f'"{args.email[:80]}" is not an email such as ada@example.com.', USAGE)
    try:
        invitation = await client.invitations.invite(args.email.strip(), role)
    except PayloadInvalid as invalid:
        raise Refused(str(invalid), USAGE) from None
    hint = undo_hint(client, ORIGIN, str(invitation.id))
    _say(
        f"Invited {invitation.email} as {invitation.role}: invitation {invitation.id}, "
        f"expires {_when(invitation.expires_at)}.{hint}"
    )
    return OK


async def _resend(client: AdminClient, args: argparse.Namespace) -> int:
    invitation = await find_invitation(client, args.id)
    sent = await client.invitations.resend(invitation.id)
    _say(f"Resent the invitation to {sent.email}: it expires {_when(sent.expires_at)}.")
    return OK


async def _revoke(client: AdminClient, args: argparse.Namespace) -> int:
    invitation = await find_invitation(client, args.id)
    await client.invitations.delete(invitation.id)
    hint = undo_hint(client, ORIGIN, str(invitation.id))
    _say(f"Revoked the invitation to {invitation.email} ({invitation.role}).{hint}")
    return OK


async def _guard(
    client: AdminClient, member: Member, action: MemberAction, role: str, confirm: str | None
) -> None:
    """Refuses the owner (1), and a guarded removal or demotion without `--confirm EMAIL`
    equal to the member's email (2); a `--confirm` that is not its email is refused too."""
    from console.client.people import needs_typed_email, stakes_of

    stakes = await stakes_of(client, member)
    refusal = stakes.refusal(action)
    if refusal is not None:
        raise Refused(f"{refusal} Nothing was sent.")
    if confirm is not None and confirm != member.email:
        raise Refused(
            f"--confirm {confirm[:80]} is not the member's email ({member.email}): nothing was "
            "sent.",
            USAGE,
        )
    if confirm is None and needs_typed_email(stakes, member, action, role):
        what = f"remove {member.email}" if action == "remove" else f"make {member.email} {role}"
        raise Refused(
            f"{stakes.losses(action)} To {what} anyway, add --confirm "
            f"{member.email}. Nothing was sent.",
            USAGE,
        )


async def _set_role(client: AdminClient, args: argparse.Namespace) -> int:
    role = _role(args.role)
    member = await find_member(client, args.member)
    if (member.role or "").upper() == role:
        _say(f"{member.email} is already {role}: nothing to change.")
        return OK
    await _guard(client, member, "set-role", role, args.confirm)
    changed = await client.members.set_role(member.id, role)
    hint = undo_hint(client, ORIGIN, str(member.id))
    _say(f"{changed.email or member.email} is now {changed.role} (was {member.role}).{hint}")
    return OK


async def _remove(client: AdminClient, args: argparse.Namespace) -> int:
    member = await find_member(client, args.member)
    await _guard(client, member, "remove", "", args.confirm)
    await client.members.delete(member.id)
    hint = undo_hint(client, ORIGIN, str(member.id))
    _say(
        f"Removed {member.email} ({member.role}) from the tenant. Undoing it sends them an "
        f"invitation, which they must accept.{hint}"
    )
    return OK


ACTIONS = JournalledActions(
    ORIGIN,
    COMMAND,
    {
        "list": _list,
        "invite": _invite,
        "resend": _resend,
        "revoke": _revoke,
        "set-role": _set_role,
        "remove": _remove,
    },
    WRITES,
)


def _checked_arguments(args: argparse.Namespace) -> None:
    """What can be refused before a connection: read-only mode, the ids, emails and roles."""
    ACTIONS.refuse_read_only(args)
    command = args.members_command
    if command in ("resend", "revoke"):
        checked_reference(args.id, "an invitation")
    if command in ("set-role", "remove"):
        checked_reference(args.member, "a member")
    if command in ("invite", "set-role"):
        _role(args.role)
    if command == "invite" and not _is_email(args.email.strip()):
        raise Refused(f'"{args.email[:80]}" is not an email such as ada@example.com.', USAGE)


def run(args: argparse.Namespace) -> int:
    return ACTIONS.run(
        args,
        _checked_arguments,
        lambda error: (
            NOT_FOUND if error.status == 404 and args.members_command != "list" else FAILED
        ),
    )
