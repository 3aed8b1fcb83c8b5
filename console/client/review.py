"""The access review: every application's grants, flagged against minimum scope.

The specification recommends giving each application the minimum scope. The review reads the
tenant's applications page by page (the largest page the service allows, a few in flight,
never the whole tenant in one request) and flags what goes beyond it. It is shared by the
console's review view, `tenant-console review` and the benchmarks, so it needs neither
Textual nor pydantic:
applications are read as the service sent them, leniently (unknown types, permissions and
fields, nulls and missing lists never stop a page).

A permission counts as *held* when the application holds it directly or through any of its
access rules: a review should rather show a scoped grant than miss one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Iterable, Mapping
from contextlib import aclosing
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from console.client.envelope import page_numbers
from console.client.review_activity import (
    DEFAULT_INACTIVE_DAYS,
    Activity,
    inactive_limit,
    wire_time,
)
from console.client.walk import PageEnd, envelope_end, walk_pages
from console.kinds import APPLICATIONS

if TYPE_CHECKING:
    from console.client.client import AdminClient

log = logging.getLogger(__name__)

REVIEW_PAGE_SIZE = 100
"""Applications per request: the largest page the service allows (api-decisions.md)."""

MAX_PAGES = 100_000
"""A guard against a service that never ends its pages (a million applications)."""

# The flags, in the order they are shown and exported. Keys are stable: scripts read them.
MANAGEMENT_WRITE = "management-write"
REVEAL = "reveal"
NEVER_EXPIRES = "never-expires"
CHANGES_KEYS = "changes-keys"
EVERY_PERMISSION = "every-permission"
OLD_KEY = "old-key"
INACTIVE = "inactive"

DEFAULT_KEY_AGE_DAYS = 90
"""A key older than this is due for rotation (the old-key flag); `review --key-age` moves it."""


@dataclass(frozen=True)
class Flag:
    key: str
    label: str
    """A few words for a column or a filter."""
    explanation: str
    """One sentence: why it goes beyond minimum scope."""


FLAGS: tuple[Flag, ...] = (
    Flag(
        MANAGEMENT_WRITE,
        "mgmt write",
        "A management application holding update or delete permissions.",
    ),
    Flag(REVEAL, "reveal", "An access rule whose transform is reveal: token data in plaintext."),
    Flag(NEVER_EXPIRES, "no expiry", "The application, and so its key, never expires."),
    Flag(
        CHANGES_KEYS,
        "app:update",
        "Holds application:update: can change other applications and regenerate their keys.",
    ),
    Flag(
        EVERY_PERMISSION,
        "all perms",
        "A private or public application holding every permission its type allows.",
    ),
    Flag(
        OLD_KEY,
        "old key",
        f"Its oldest key is older than the threshold ({DEFAULT_KEY_AGE_DAYS} days unless "
        "set otherwise): rotate it.",
    ),
    Flag(
        INACTIVE,
        "inactive",
        f"Made more than {DEFAULT_INACTIVE_DAYS} days ago (unless set otherwise) and no "
        "activity as an actor known since, by the audit logs read now and the local archive: "
        "is it still needed?",
    ),
)
FLAGS_BY_KEY: dict[str, Flag] = {flag.key: flag for flag in FLAGS}

KEY_CHANGING_PERMISSION = "application:update"
WRITE_ACTIONS = frozenset({"update", "delete"})
"""A permission's last part (`proxy:delete`, `tenant:member:update`): the service's own
catalogue names more than the spec's, and they follow the same pattern."""
SCOPED_TYPES = ("private", "public")
"""The application types whose catalogue the every-permission flag compares against."""


def _text(value: Any) -> str | None:
    """A value as text; None for a missing one (null, absent)."""
    if value is None:
        return None
    return value if isinstance(value, str) else str(value)


def _texts(value: Any) -> tuple[str, ...]:
    """A list of permissions as text: null or a non-list counts as none; odd items as text."""
    if not isinstance(value, list | tuple):
        return ()
    if all(type(item) is str for item in value):
        return tuple(value)
    return tuple(str(item) for item in value if item is not None)


@dataclass(frozen=True, slots=True)
class RuleGrant:
    """One access rule of an application, as far as it could be read."""

    description: str | None
    priority: int | str | None
    """An int as the spec says; whatever the service sent otherwise (shown, not judged)."""
    transform: str | None
    container: str | None
    permissions: tuple[str, ...]

    @classmethod
    def read(cls, rule: Any) -> RuleGrant:
        if not isinstance(rule, Mapping):
            return cls(None, None, None, None, ())
        priority = rule.get("priority")
        if not isinstance(priority, int | str) or isinstance(priority, bool):
            priority = None if priority is None else str(priority)
        return cls(
            description=_text(rule.get("description")),
            priority=priority,
            transform=_text(rule.get("transform")),
            container=_text(rule.get("container")),
            permissions=_texts(rule.get("permissions")),
        )

    def summary(self) -> str:
        """One line: `#1 reveal in /pci/: token:read, token:search (Read cards)`."""
        text = f"#{'?' if self.priority is None else self.priority} {self.transform or '?'}"
        if self.container:
            text += f" in {self.container}"
        text += f": {', '.join(self.permissions) or 'no permissions'}"
        if self.description:
            text += f" ({self.description})"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "priority": self.priority,
            "transform": self.transform,
            "container": self.container,
            "permissions": list(self.permissions),
        }


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """One application in the review. Only the fields named here are kept: nothing else the
    service sent (a `key`, key metadata) can reach a view or an export."""

    id: str
    name: str
    type: str
    permissions: tuple[str, ...]
    rules: tuple[RuleGrant, ...]
    expires_at: str | None
    flags: tuple[str, ...] = ()
    readable: bool = True
    """False for an item that is not an object with an id (shown, flagged as such)."""
    oldest_key_at: str | None = None
    """When its oldest key was made (from `keys`, where the service lists them); never a
    key's id or material: those are not kept."""
    last_activity_at: str | None = None
    """Its newest audit log entry as an actor (the logs read now and the local archive);
    None when none is known, or the logs were not read."""
    created_at: str | None = None
    """When it was made, as sent: one younger than the inactivity threshold is not judged
    inactive (it has not had the time)."""

    @property
    def held(self) -> frozenset[str]:
        """Every permission held, directly or through a rule."""
        return frozenset(self.permissions).union(*(rule.permissions for rule in self.rules))

    def to_json(self) -> dict[str, Any]:
        """The export's object; its keys are always these, in this order."""
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "expires_at": self.expires_at,
            "flags": list(self.flags),
            "permissions": list(self.permissions),
            "rules": [rule.to_json() for rule in self.rules],
            "last_activity_at": self.last_activity_at,
        }


@dataclass(frozen=True)
class Catalogue:
    """The permissions each scoped application type may hold, from `GET /permissions`."""

    allowed: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Application type -> the permission types the service lists for it."""
    problem: str | None = None
    """Why the every-permission flag could not be judged (for some type), if it could not."""


def oldest_key_time(item: Mapping[str, Any]) -> datetime | None:
    """When the application's oldest key was made, from its `keys` (None where the service
    does not list them, or lists no time)."""
    keys = item.get("keys")
    if not isinstance(keys, list):
        return None
    times: list[datetime] = []
    for key in keys:
        value = key.get("created_at") if isinstance(key, Mapping) else None
        if not isinstance(value, str):
            continue
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            continue
        times.append(moment if moment.tzinfo else moment.replace(tzinfo=UTC))
    return min(times) if times else None


def key_age_limit(days: int = DEFAULT_KEY_AGE_DAYS) -> datetime:
    """Keys made before this moment are old (the project clock: frozen in screenshots)."""
    from console.clock import now

    return now() - timedelta(days=days)


def read_application(
    item: Any, catalogue: Catalogue | None = None, *, old_before: datetime | None = None
) -> ReviewRow:
    """A review row for one application as sent, flagged; `catalogue` None: the
    every-permission flag is not judged; `old_before` None: the old-key flag is judged
    against DEFAULT_KEY_AGE_DAYS."""
    if not isinstance(item, Mapping):
        return ReviewRow("", "(unreadable item)", "", (), (), None, (), readable=False)
    oldest = oldest_key_time(item)
    limit = old_before if old_before is not None else key_age_limit()
    old_key = oldest is not None and oldest < limit
    rules_value = item.get("rules")
    rules = tuple(RuleGrant.read(r) for r in rules_value) if isinstance(rules_value, list) else ()
    permissions = _texts(item.get("permissions"))
    kind = _text(item.get("type")) or ""
    expires_at = _text(item.get("expires_at"))
    return ReviewRow(
        id=_text(item.get("id")) or "",
        name=_text(item.get("name")) or "",
        type=kind,
        permissions=permissions,
        rules=rules,
        expires_at=expires_at,
        flags=_flags(
            kind, permissions, rules, expires_at is None, _allowed(catalogue, kind), old_key
        ),
        readable=bool(item.get("id")),
        oldest_key_at=oldest.isoformat() if oldest is not None else None,
        created_at=_text(item.get("created_at")),
    )


def flags_of(
    row: ReviewRow, catalogue: Catalogue | None = None, *, old_before: datetime | None = None
) -> tuple[str, ...]:
    """The flags of one row, in FLAGS order."""
    allowed = _allowed(catalogue, row.type)
    limit = old_before if old_before is not None else key_age_limit()
    old_key = row.oldest_key_at is not None and datetime.fromisoformat(row.oldest_key_at) < limit
    flags = _flags(row.type, row.permissions, row.rules, row.expires_at is None, allowed, old_key)
    return (*flags, INACTIVE) if INACTIVE in row.flags else flags


def with_activity(
    rows: list[ReviewRow], activity: Activity, *, inactive_before: datetime | None = None
) -> list[ReviewRow]:
    """`rows` with each application's last activity, flagged inactive when none is known
    since `inactive_before` (DEFAULT_INACTIVE_DAYS ago unless given) and it was made before
    then (a younger one has not had the time; one whose making time is not sent is judged).
    Nothing is flagged when the activity could not be judged (no logs read, no archive)."""
    limit = inactive_before if inactive_before is not None else inactive_limit()
    last = activity.last_for(row.id for row in rows if row.readable)
    judged = activity.judged
    out: list[ReviewRow] = []
    for row in rows:
        moment = last.get(row.id)
        made = wire_time(row.created_at)
        old_enough = made is None or made < limit
        inactive = judged and row.readable and old_enough and (moment is None or moment < limit)
        flags = tuple(f for f in row.flags if f != INACTIVE)
        if inactive:
            flags = (*flags, INACTIVE)  # INACTIVE is the last of FLAGS
        out.append(
            replace(
                row,
                flags=flags,
                last_activity_at=moment.isoformat() if moment is not None else None,
            )
        )
    return out


def _allowed(catalogue: Catalogue | None, kind: str) -> frozenset[str] | None:
    return catalogue.allowed.get(kind) if catalogue is not None else None


@lru_cache(maxsize=4096)
def _flags(
    kind: str,
    permissions: tuple[str, ...],
    rules: tuple[RuleGrant, ...],
    never_expires: bool,
    allowed: frozenset[str] | None,
    old_key: bool = False,
) -> tuple[str, ...]:
    """Cached: a tenant's applications mostly share a few shapes of grants, and flagging
    10,000 of them one by one would cost a good part of reading them."""
    held = frozenset(permissions).union(*(rule.permissions for rule in rules))
    found: set[str] = set()
    if kind == "management" and any(_action(p) in WRITE_ACTIONS for p in held):
        found.add(MANAGEMENT_WRITE)
    if any((rule.transform or "").lower() == "reveal" for rule in rules):
        found.add(REVEAL)
    if never_expires:
        found.add(NEVER_EXPIRES)
    if KEY_CHANGING_PERMISSION in held:
        found.add(CHANGES_KEYS)
    if kind in SCOPED_TYPES and allowed and allowed <= held:
        found.add(EVERY_PERMISSION)
    if old_key:
        found.add(OLD_KEY)
    if not found:
        return ()
    return tuple(flag.key for flag in FLAGS if flag.key in found)


def _action(permission: str) -> str:
    return permission.rsplit(":", 1)[-1].lower()


# ---- reactors ---------------------------------------------------------------------------

ACTS_WITH_PERMISSIONS = "acts-with-permissions"
REACTOR_FLAG = Flag(
    ACTS_WITH_PERMISSIONS,
    "acts with",
    "A reactor whose runtime holds permissions: its code acts with them on every run.",
)
"""A reactor's flag (not an application's: the review view's filters are FLAGS)."""


@dataclass(frozen=True, slots=True)
class ReactorGrant:
    """One reactor in the review: what its runtime lets its code do (`permissions`), and the
    application it uses. Only these fields are kept: never its code or configuration."""

    id: str
    name: str
    state: str | None
    application_id: str | None
    application_name: str | None
    permissions: tuple[str, ...]

    @property
    def flags(self) -> tuple[str, ...]:
        return (ACTS_WITH_PERMISSIONS,) if self.permissions else ()

    def named(self, applications: Mapping[str, str]) -> ReactorGrant:
        """With its application's name from `applications` (id -> name) when it lacks one."""
        if self.application_name or not self.application_id:
            return self
        name = applications.get(self.application_id)
        if name is None:
            return self
        return ReactorGrant(
            self.id, self.name, self.state, self.application_id, name, self.permissions
        )

    def to_json(self) -> dict[str, Any]:
        """The export's object; its keys are always these, in this order."""
        application = None
        if self.application_id:
            application = {"id": self.application_id, "name": self.application_name}
        return {
            "id": self.id,
            "name": self.name,
            "state": self.state,
            "flags": list(self.flags),
            "permissions": list(self.permissions),
            "application": application,
        }


def read_reactor(item: Any) -> ReactorGrant | None:
    """A reactor as sent, leniently; None for an item that is not an object."""
    if not isinstance(item, Mapping):
        return None
    application = item.get("application")
    application = application if isinstance(application, Mapping) else {}
    runtime = item.get("runtime")
    runtime = runtime if isinstance(runtime, Mapping) else {}
    return ReactorGrant(
        id=_text(item.get("id")) or "",
        name=_text(item.get("name")) or "",
        state=_text(item.get("state")),
        application_id=_text(application.get("id")),
        application_name=_text(application.get("name")),
        permissions=_texts(runtime.get("permissions")),
    )


async def reactor_grants(client: AdminClient, size: int = REVIEW_PAGE_SIZE) -> list[ReactorGrant]:
    """Every reactor of the tenant, page by page; none from a service without reactors."""
    from console.client.errors import NotOffered

    def fetch(number: int) -> Awaitable[dict[str, Any]]:
        return client.reactors.page_json(page=number, size=size)

    def end_of(envelope: dict[str, Any], number: int) -> PageEnd:
        return envelope_end(envelope, number, size)

    grants: list[ReactorGrant] = []
    walking = walk_pages(fetch, end_of, budget=client.budget, max_pages=MAX_PAGES)
    try:
        async with aclosing(walking):
            async for _number, envelope in walking:
                grants += [g for item in envelope["data"] if (g := read_reactor(item)) is not None]
    except NotOffered:
        log.info("The service offers no reactors: the review has none")
        return []
    return grants


@dataclass(frozen=True)
class Holding:
    """How one application holds one permission: directly (`rule` None) or through a rule."""

    application: ReviewRow
    rule: RuleGrant | None = None

    @property
    def how(self) -> str:
        return "direct" if self.rule is None else "rule"


def holdings(row: ReviewRow, permission: str) -> list[Holding]:
    """Every way `row` holds `permission`: directly first, then each rule, by priority."""
    found = [Holding(row)] if permission in row.permissions else []
    found += [Holding(row, rule) for rule in row.rules if permission in rule.permissions]
    return found


# ---- reading the tenant ---------------------------------------------------------------


async def load_catalogue(client: AdminClient, types: Iterable[str] = SCOPED_TYPES) -> Catalogue:
    """Each type's permissions, asked of the service (`GET /permissions?application_type=`):
    the service in use may offer more than the spec's thirty. A type whose list cannot be
    read is left out, and `problem` says so (the flag is then not judged for it)."""

    reasons: dict[str, str] = {}

    async def one(kind: str) -> tuple[str, frozenset[str] | None]:
        try:
            items = await client.permissions.list_json(application_type=kind)
        except Exception as error:
            log.warning("The permission catalogue for %s could not be read", kind, exc_info=True)
            reasons[kind] = str(error)
            return kind, None
        return kind, frozenset(str(i["type"]) for i in items if i.get("type") is not None)

    results = await asyncio.gather(*(one(kind) for kind in types))
    allowed = {kind: perms for kind, perms in results if perms is not None}
    missing = [kind for kind, perms in results if perms is None]
    problem = None
    if missing:
        problem = (
            f"The service's permission catalogue for {' and '.join(missing)} applications "
            f"could not be read ({reasons[missing[0]]}): the {EVERY_PERMISSION} flag is not "
            "judged for them."
        )
    return Catalogue(allowed, problem)


@dataclass(frozen=True)
class ApplicationsPage:
    """One page of applications as sent, with where the walk stands."""

    number: int
    items: list[Any]
    total_items: int | None
    total_pages: int | None
    has_more: bool


async def application_pages(
    client: AdminClient, size: int = REVIEW_PAGE_SIZE
) -> AsyncIterator[ApplicationsPage]:
    """The tenant's applications, page by page in list order, several pages in flight
    (console.client.walk): showing or flagging a page costs no time beyond the requests.
    Stopping the loop cancels every request in flight."""

    def fetch(number: int) -> Awaitable[dict[str, Any]]:
        return client.applications.page_json(page=number, size=size)

    def end_of(envelope: dict[str, Any], number: int) -> PageEnd:
        return envelope_end(envelope, number, size)

    walking = walk_pages(fetch, end_of, budget=client.budget, max_pages=MAX_PAGES)
    async with aclosing(walking):
        async for number, envelope in walking:
            total, has_more = page_numbers(envelope, number, size)
            pages = (envelope.get("pagination") or {}).get("total_pages")
            items = list(envelope["data"])
            more = has_more and bool(items) and number < MAX_PAGES
            yield ApplicationsPage(number, items, total, pages, more)


@dataclass(frozen=True)
class ReviewPage:
    """A page of the review: its rows, and the progress of the walk."""

    number: int
    rows: list[ReviewRow]
    total_items: int | None
    total_pages: int | None
    done: bool
    catalogue: Catalogue
    activity: Activity | None = None
    """What was known of the applications' activity (None: not read)."""

    def progress(self, rows_so_far: int) -> str:
        """ "page 3 of 100, 300 of 10,000 applications" (without totals: what is known)."""
        pages = f"page {self.number}" + (f" of {self.total_pages}" if self.total_pages else "")
        total = f" of {self.total_items:,}" if self.total_items is not None else ""
        return f"{pages}, {rows_so_far:,}{total} {APPLICATIONS.nouns.plural}"


async def review_pages(
    client: AdminClient,
    size: int = REVIEW_PAGE_SIZE,
    *,
    key_age_days: int = DEFAULT_KEY_AGE_DAYS,
    activity: Awaitable[Activity] | None = None,
    inactive_days: int = DEFAULT_INACTIVE_DAYS,
) -> AsyncIterator[ReviewPage]:
    """The review, page by page: the catalogue is read while the first page is on its way.
    An application whose oldest key is older than `key_age_days` is flagged old-key.
    `activity` (console.client.review_activity.read_activity, or the audit layer's, which adds
    the archive): awaited with the first page; each row then has its last activity, and is
    flagged inactive when none is known within `inactive_days`. None: activity is not read."""
    old_before = key_age_limit(key_age_days)
    inactive_before = inactive_limit(inactive_days)
    catalogue_task = asyncio.ensure_future(load_catalogue(client))
    activity_task = asyncio.ensure_future(activity) if activity is not None else None
    try:
        async for page in application_pages(client, size):
            catalogue = await catalogue_task
            rows = [read_application(item, catalogue, old_before=old_before) for item in page.items]
            known = None
            if activity_task is not None:
                known = await activity_task
                rows = with_activity(rows, known, inactive_before=inactive_before)
            yield ReviewPage(
                page.number,
                rows,
                page.total_items,
                page.total_pages,
                not page.has_more,
                catalogue,
                known,
            )
    finally:
        for task in (catalogue_task, activity_task):
            if task is not None and not task.done():
                task.cancel()


@dataclass(frozen=True)
class HoldersPage:
    """A page of the who-holds walk: the holdings found on it, and the progress."""

    number: int
    holdings: list[Holding]
    applications: int
    """Applications read on this page."""
    total_items: int | None
    total_pages: int | None
    done: bool


async def holder_pages(
    client: AdminClient, permission: str, size: int = REVIEW_PAGE_SIZE
) -> AsyncIterator[HoldersPage]:
    """Who holds `permission`, directly or through a rule, page by page."""
    async for page in application_pages(client, size):
        found = [
            holding
            for item in page.items
            for holding in holdings(read_application(item), permission)
        ]
        yield HoldersPage(
            page.number,
            found,
            len(page.items),
            page.total_items,
            page.total_pages,
            not page.has_more,
        )


async def full_review(
    client: AdminClient,
    size: int = REVIEW_PAGE_SIZE,
    *,
    key_age_days: int = DEFAULT_KEY_AGE_DAYS,
    activity: Awaitable[Activity] | None = None,
    inactive_days: int = DEFAULT_INACTIVE_DAYS,
) -> tuple[list[ReviewRow], Catalogue]:
    """The whole review in memory (the command line's export)."""
    rows: list[ReviewRow] = []
    catalogue = Catalogue()
    async for page in review_pages(
        client, size, key_age_days=key_age_days, activity=activity, inactive_days=inactive_days
    ):
        rows += page.rows
        catalogue = page.catalogue
    return rows, catalogue
