"""The access review's activity: when each application last acted, by the audit logs.

A key nobody uses is a key nobody would miss: the review shows each application's last
activity as an actor (an audit log entry whose `actor_id` is the application) and flags it
`inactive` when none is known within `--inactive-days` (90 unless set). The service keeps
logs for a day or so (its retention), so what the review knows comes from two places: the
logs it reads now (`GET /logs`, this module) and the profile's local archive of logs read
before (console.audit.archive; the audit layer hands its `last_activity` in as `lookup`).
`known_since` says how far back that reaches: an application flagged inactive had no activity
*known* since then.

The service has no actor filter, so every entry within its retention is read (page by page,
newest first) and the newest per actor kept. Neither Textual nor pydantic here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from contextlib import aclosing
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from console.client.walk import PageEnd, envelope_end, walk_pages
from console.kinds import LOGS

if TYPE_CHECKING:
    from console.client.client import AdminClient

log = logging.getLogger(__name__)

DEFAULT_INACTIVE_DAYS = 90
"""No activity known within this many days: flagged inactive (`review --inactive-days`)."""
LOGS_PAGE_SIZE = 100
MAX_LOG_PAGES = 10_000
"""A guard: a million entries within the service's retention is more than a review reads."""

LastActivity = Callable[[Iterable[str]], Mapping[str, datetime]]
"""Actor ids -> the newest activity of each one found (the archive's `last_activity`)."""


def wire_time(value: Any) -> datetime | None:
    """A time as the service sends it, in UTC; None when it is none or not a time."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return None
    else:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class Activity:
    """What is known of the actors' activity: the logs read now (`last`) and, through
    `lookup`, the local archive."""

    last: Mapping[str, datetime] = field(default_factory=dict)
    """Actor id -> the newest entry read now with that actor."""
    lookup: LastActivity | None = None
    """The archive's answer for some actor ids, when there is an archive."""
    known_since: datetime | None = None
    """The oldest moment the logs read and the archive cover (None: nothing is known)."""
    problem: str | None = None
    """Why the logs could not be read now, if they could not."""

    @property
    def judged(self) -> bool:
        """Whether inactivity can be judged at all: the logs were read, or an archive is."""
        return self.problem is None or self.lookup is not None

    def last_for(self, actor_ids: Iterable[str]) -> dict[str, datetime]:
        """The newest activity known of each of `actor_ids` (those with none are absent)."""
        ids = [actor_id for actor_id in actor_ids if actor_id]
        found = {actor_id: self.last[actor_id] for actor_id in ids if actor_id in self.last}
        if self.lookup is not None and ids:
            try:
                archived = self.lookup(ids)
            except Exception:
                log.warning("The log archive could not say the last activity", exc_info=True)
                archived = {}
            for actor_id, moment in archived.items():
                moment = wire_time(moment) or moment
                if actor_id not in found or moment > found[actor_id]:
                    found[actor_id] = moment
        return found


NO_ACTIVITY = Activity(problem="The audit logs were not read.")
"""Nothing known: inactivity is not judged."""


def inactive_limit(days: int = DEFAULT_INACTIVE_DAYS) -> datetime:
    """Activity before this moment does not count (the project clock: frozen in tests)."""
    from console.clock import now

    return now() - timedelta(days=days)


def newest_by_actor(entries: Iterable[Any]) -> tuple[dict[str, datetime], datetime | None]:
    """Actor id -> its newest entry's time, and the oldest time among `entries` (log entries
    as sent, or Log models: anything with `actor_id` and `created_at`)."""
    newest: dict[str, datetime] = {}
    oldest: datetime | None = None
    for entry in entries:
        if isinstance(entry, Mapping):
            actor, when = entry.get("actor_id"), wire_time(entry.get("created_at"))
        else:
            actor, when = (
                getattr(entry, "actor_id", None),
                wire_time(getattr(entry, "created_at", None)),
            )
        if when is None:
            continue
        oldest = when if oldest is None or when < oldest else oldest
        if isinstance(actor, str) and actor and (actor not in newest or when > newest[actor]):
            newest[actor] = when
    return newest, oldest


async def read_activity(client: AdminClient, size: int = LOGS_PAGE_SIZE) -> Activity:
    """Every audit log entry the service still keeps, reduced to each actor's newest. A
    service without logs, or a key without `log:read`, gives an Activity with `problem` (and
    inactivity is then not judged, unless an archive is added)."""
    from console.client.errors import ApiError

    collection = client.collection(LOGS)

    def fetch(number: int) -> Awaitable[dict[str, Any]]:
        return collection.page_json(page=number, size=size)

    def end_of(envelope: dict[str, Any], number: int) -> PageEnd:
        return envelope_end(envelope, number, size)

    newest: dict[str, datetime] = {}
    oldest: datetime | None = None
    try:
        walking = walk_pages(fetch, end_of, budget=client.budget, max_pages=MAX_LOG_PAGES)
        async with aclosing(walking):
            async for _number, envelope in walking:
                found, first = newest_by_actor(envelope["data"])
                for actor, when in found.items():
                    if actor not in newest or when > newest[actor]:
                        newest[actor] = when
                if first is not None and (oldest is None or first < oldest):
                    oldest = first
    except ApiError as error:
        log.warning("The review could not read the audit logs: %s", error)
        return Activity(problem=f"The audit logs could not be read ({error}).")
    return Activity(newest, known_since=oldest)
