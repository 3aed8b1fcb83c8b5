"""The access review's people: who can sign in to the tenant's portal, and who was asked to.

An access review asks about people as much as keys: a member without multi-factor
authentication, an invitation still open (anyone holding the e-mail can join) or one left to
expire, and who owns the tenant. Members and invitations are read page by page, leniently
(as console.client.review reads applications): an odd item still gets a row, and a service
that offers no people, or a key not allowed to read them, leaves the part empty with a
`problem` saying why instead of failing the review.

Neither Textual nor pydantic here: shared by the console's review view, `tenant-console
review` and the evidence pack (console.evidence).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Mapping
from contextlib import aclosing
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from console.client.review import Flag
from console.client.walk import PageEnd, envelope_end, walk_pages
from console.kinds import INVITATIONS, MEMBERS

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.kinds import Kind

log = logging.getLogger(__name__)

PEOPLE_PAGE_SIZE = 100
MAX_PAGES = 10_000
"""A guard against a service that never ends its pages (a million people)."""

# The people's flags, in the order they are shown and exported. Keys are stable.
OWNER = "owner"
MFA_MISSING = "mfa-missing"
INVITATION_PENDING = "invitation-pending"
INVITATION_EXPIRED = "invitation-expired"

PEOPLE_FLAGS: tuple[Flag, ...] = (
    Flag(OWNER, "owner", "The tenant's owner (listed: not a fault)."),
    Flag(
        MFA_MISSING,
        "no MFA",
        "A member who signs in without multi-factor authentication.",
    ),
    Flag(
        INVITATION_PENDING,
        "pending",
        "An invitation not yet accepted: whoever holds the e-mail can still join.",
    ),
    Flag(
        INVITATION_EXPIRED,
        "expired",
        "An invitation left to expire: resend it or delete it.",
    ),
)
PEOPLE_FLAGS_BY_KEY: dict[str, Flag] = {flag.key: flag for flag in PEOPLE_FLAGS}
FAULTS = frozenset({MFA_MISSING, INVITATION_PENDING, INVITATION_EXPIRED})
"""The flags that ask for something to be done (the owner is only listed)."""

MEMBER = "member"
INVITATION = "invitation"


def _text(value: Any) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def _time(value: Any) -> datetime | None:
    """A time as the service sends it; None when it is none or not a time."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class PersonRow:
    """One member or invitation in the review. Only these fields are kept."""

    kind: str
    """MEMBER or INVITATION."""
    id: str
    email: str
    role: str | None
    flags: tuple[str, ...] = ()
    mfa_enrolled: bool | None = None
    """A member's: None when the service did not say (not flagged: not judged)."""
    status: str | None = None
    """An invitation's status (PENDING, EXPIRED) as sent, or judged from its expiry."""
    expires_at: str | None = None
    created_at: str | None = None
    user_id: str | None = None

    @property
    def name(self) -> str:
        return self.email or "(no e-mail)"

    def to_json(self) -> dict[str, Any]:
        """The export's object; its keys are always these, in this order."""
        return {
            "kind": self.kind,
            "id": self.id,
            "email": self.email,
            "role": self.role,
            "flags": list(self.flags),
            "mfa_enrolled": self.mfa_enrolled,
            "status": self.status,
            "expires_at": self.expires_at,
            "created_at": self.created_at,
        }


def _in_order(found: set[str]) -> tuple[str, ...]:
    return tuple(flag.key for flag in PEOPLE_FLAGS if flag.key in found)


def read_member(item: Any) -> PersonRow:
    """A member as sent (`{id, user: {email, mfa_enrolled}, role, created_at}`), flagged."""
    if not isinstance(item, Mapping):
        return PersonRow(MEMBER, "", "(unreadable item)", None)
    user = item.get("user")
    user = user if isinstance(user, Mapping) else {}
    role = _text(item.get("role"))
    mfa = user.get("mfa_enrolled")
    mfa = mfa if isinstance(mfa, bool) else None
    found = set()
    if role is not None and role.upper() == "OWNER":
        found.add(OWNER)
    if mfa is False:
        found.add(MFA_MISSING)
    return PersonRow(
        kind=MEMBER,
        id=_text(item.get("id")) or "",
        email=_text(user.get("email")) or "",
        role=role,
        flags=_in_order(found),
        mfa_enrolled=mfa,
        created_at=_text(item.get("created_at") or item.get("created_date")),
        user_id=_text(user.get("id")),
    )


def read_invitation(item: Any, now: datetime | None = None) -> PersonRow:
    """An invitation as sent, flagged pending or expired: by its `status`, or (a service
    that sends none) by `expires_at` against `now` (the project clock)."""
    if not isinstance(item, Mapping):
        return PersonRow(INVITATION, "", "(unreadable item)", None)
    status = _text(item.get("status"))
    expires_at = _text(item.get("expires_at"))
    judged = (status or "").upper()
    if judged not in ("PENDING", "EXPIRED"):
        expiry = _time(expires_at)
        if expiry is not None:
            from console.clock import now as clock_now

            judged = "EXPIRED" if expiry <= (now or clock_now()) else "PENDING"
    found = set()
    if judged == "PENDING":
        found.add(INVITATION_PENDING)
    elif judged == "EXPIRED":
        found.add(INVITATION_EXPIRED)
    return PersonRow(
        kind=INVITATION,
        id=_text(item.get("id")) or "",
        email=_text(item.get("email")) or "",
        role=_text(item.get("role")),
        flags=_in_order(found),
        status=status or (judged or None),
        expires_at=expires_at,
        created_at=_text(item.get("created_at")),
    )


@dataclass(frozen=True)
class People:
    """The review's people: members first (the owner first among them), then invitations."""

    rows: tuple[PersonRow, ...] = ()
    problem: str | None = None
    """Why members or invitations could not be read (then they are left out), if so."""

    def with_flag(self, key: str) -> list[PersonRow]:
        return [row for row in self.rows if key in row.flags]

    def counts(self) -> dict[str, int]:
        return {flag.key: len(self.with_flag(flag.key)) for flag in PEOPLE_FLAGS}


async def _walk(client: AdminClient, kind: Kind, size: int) -> list[Any]:
    """Every item of `kind` as sent, page by page (a few in flight)."""
    collection = client.collection(kind)

    def fetch(number: int) -> Awaitable[dict[str, Any]]:
        return collection.page_json(page=number, size=size)

    def end_of(envelope: dict[str, Any], number: int) -> PageEnd:
        return envelope_end(envelope, number, size)

    items: list[Any] = []
    walking = walk_pages(fetch, end_of, budget=client.budget, max_pages=MAX_PAGES)
    async with aclosing(walking):
        async for _number, envelope in walking:
            items += envelope["data"]
    return items


def _owner_first(row: PersonRow) -> tuple[int, str]:
    return (0 if OWNER in row.flags else 1, row.email.lower())


async def read_people(client: AdminClient, size: int = PEOPLE_PAGE_SIZE) -> People:
    """The tenant's members and invitations, flagged. Either list failing (a service without
    people, a key without `tenant:member:read`) leaves its rows out and says why."""
    import asyncio

    from console.client.errors import ApiError

    problems: list[str] = []

    async def read(kind: Kind) -> list[Any]:
        try:
            return await _walk(client, kind, size)
        except ApiError as error:
            log.warning("The review could not read the %s: %s", kind.nouns.plural, error)
            problems.append(f"The {kind.nouns.plural} could not be read ({error}).")
            return []

    members, invitations = await asyncio.gather(read(MEMBERS), read(INVITATIONS))
    from console.clock import now

    moment = now()
    rows = sorted((read_member(item) for item in members), key=_owner_first)
    rows += sorted(
        (read_invitation(item, moment) for item in invitations), key=lambda r: r.email.lower()
    )
    return People(tuple(rows), " ".join(problems) or None)
