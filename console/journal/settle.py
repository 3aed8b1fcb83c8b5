"""Changes left "pending" when the console stopped before the answer (a `kill -9` during
`apply`): at the next start with a connection, each one older than a minute is checked
against the service and marked done or failed. One that cannot be decided (another tenant,
no answer, an action that leaves nothing to look at) stays pending, with why, and History
shows it as "unknown — check": never silently as if it were still under way.

Bounded: at most MAX_CHECKS changes and MAX_REQUESTS GETs a start, one at a time, within the
profile's request budget as every request of the client.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TextIO
from uuid import UUID

from console.journal.store import FAILED, OK, PENDING, UNREADABLE, Change, ChangeJournal
from console.kinds import KINDS, TENANT, Kind, field_of

if TYPE_CHECKING:
    from console.client import AdminClient

log = logging.getLogger(__name__)

STALE_AFTER = timedelta(minutes=1)
"""A change pending longer than this was left so by a console that stopped (a request
gets its answer, or gives up, well within it)."""
CHECK = "unknown — check"
"""What History shows for such a change until it is decided."""
MAX_CHECKS = 20
"""Changes checked at one start (the oldest first); the rest at the next."""
MAX_REQUESTS = 40
"""GETs one start may send for the check; what is left is checked at the next start."""
PAGE_SIZE = 100
CREATE_PAGES = 5
"""Pages of objects looked through for a created object's name (applications have no name
filter on the service)."""
CLOCK_SLACK = timedelta(minutes=1)
"""An object made this long before the change started may still be the change's (the two
clocks differ); one made earlier was there already."""

SET_BY_SERVICE = frozenset(
    {"id", "tenant_id", "key", "keys", "created_at", "created_by", "modified_at", "modified_by"}
)
MASKED = "***"


def is_stale(change: Change, now: datetime | None = None) -> bool:
    """Pending for longer than STALE_AFTER: its console stopped before the answer."""
    if change.unreadable is not None or change.outcome != PENDING:
        return False
    return (now or datetime.now(UTC)) - change.started_at > STALE_AFTER


def shown_outcome(change: Change, now: datetime | None = None) -> str:
    """The outcome as History shows it: a stale pending change as "unknown — check"."""
    if change.unreadable is not None:
        return UNREADABLE
    return CHECK if is_stale(change, now) else change.outcome


@dataclass
class Settled:
    """What one start's check decided: change ids, and a sentence for each."""

    done: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)
    undecided: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


class _Undecided(Exception):
    """This change cannot be decided now; str() says why."""


class _Requests:
    """The GETs the check may still send at this start."""

    def __init__(self, left: int = MAX_REQUESTS) -> None:
        self.left = left

    def spend(self) -> None:
        if self.left <= 0:
            raise _Undecided("this start's requests for the check are spent; it is checked later")
        self.left -= 1


async def settle_pending(
    client: AdminClient,
    journal: ChangeJournal,
    *,
    profile: str | None,
    now: datetime | None = None,
) -> Settled:
    """Checks the stale pending changes made on `client`'s service and profile against it;
    marks each done or failed, or notes why it could not be decided. Never raises for a
    change: a journal or service problem is logged and leaves it pending."""
    import asyncio  # the file is read and written off the event loop (the TUI's UI thread)

    moment = now or datetime.now(UTC)
    settled = Settled()
    base_url = client.base_url.rstrip("/")
    found = await asyncio.to_thread(
        journal.pending, before=moment - STALE_AFTER, limit=MAX_CHECKS * 5
    )
    stale = [
        change
        for change in found
        if change.profile == profile and change.base_url.rstrip("/") == base_url
    ][:MAX_CHECKS]
    if not stale:
        return settled
    requests = _Requests()
    requests.spend()
    tenant = await _tenant(client)
    for change in stale:
        if requests.left <= 0:
            break  # the rest at the next start
        try:
            if change.tenant and tenant != change.tenant:
                raise _Undecided(
                    f"it was made on tenant {change.tenant}, and this connection's tenant is "
                    f"{tenant or 'not readable with its key'}"
                )
            outcome, after, note = await _check(client, change, requests)
        except _Undecided as why:
            note = f"Left pending when the console stopped; not checked: {why}."
            await asyncio.to_thread(journal.note_pending, change.id, note)
            settled.undecided.append(change.id)
            settled.lines.append(f"Change {change.id} ({_what(change)}): {CHECK} ({why}).")
            continue
        await asyncio.to_thread(journal.settle, change.id, outcome=outcome, after=after, note=note)
        (settled.done if outcome == OK else settled.failed).append(change.id)
        word = "done" if outcome == OK else "failed"
        settled.lines.append(f"Change {change.id} ({_what(change)}): marked {word}. {note}")
    return settled


async def settle_at_start(
    client: AdminClient, profile: str | None, err: TextIO | None = None
) -> Settled | None:
    """settle_pending on the user's journal for a command that is starting, each decision
    said on `err` (stderr); any failure is logged, never stops the command."""
    from console.journal.store import JournalError, open_journal
    from console.terminal_text import printable

    stream = err or sys.stderr
    try:
        settled = await settle_pending(client, open_journal(), profile=profile)
    except JournalError as problem:  # the command's own first change will say it again
        print(f"tenant-console: {printable(str(problem))}", file=stream)
        return None
    except Exception:
        log.warning("Pending changes in the journal could not be checked", exc_info=True)
        return None
    for line in settled.lines:
        print(f"tenant-console: {printable(line)}", file=stream)
    return settled


# ---- one change ------------------------------------------------------------------------


def _what(change: Change) -> str:
    """`create application "Batch"`."""
    from console.journal.undo import noun

    text = f"{change.action} {noun(change.kind)}"
    return f'{text} "{change.name}"' if change.name else text


async def _tenant(client: AdminClient) -> str | None:
    """The connection's tenant name (as the journal records it), None if it cannot be read."""
    from console.client import ApiError

    try:
        data = await client.send_json("GET", TENANT.path)
    except ApiError as error:
        log.info("The tenant could not be read to check pending changes: %s", error)
        return None
    if isinstance(data, dict):
        return str(data.get("name") or data.get("id") or "") or None
    return None


async def _check(client: AdminClient, change: Change, requests: _Requests) -> tuple[str, Any, str]:
    """(outcome, the object as it is, a note) for one stale change; _Undecided if unsure."""
    from console.client import ApiError

    kind = checkable(change.kind)
    if kind is None:
        raise _Undecided(f"a change of the {change.kind or 'unknown'} kind cannot be checked")
    try:
        if change.action == "delete":
            current = await _read(client, kind, change.object_id, requests)
            if current is None:
                return OK, None, "It is gone from the service."
            return FAILED, None, "It is still on the service."
        if change.action == "update":
            current = await _read(client, kind, change.object_id, requests)
            if current is None:
                raise _Undecided("the object is no longer on the service")
            if _matches(change.request, current):
                return OK, current, "The service holds what it asked for."
            if change.before is not None and _matches(_settable(change.before), current):
                return FAILED, None, "The service still holds the object as it was."
            raise _Undecided("the object was changed since")
        if change.action == "create":
            return await _check_create(client, kind, change, requests)
    except ApiError as error:
        raise _Undecided(f"the service did not answer as expected ({error})") from None
    raise _Undecided(f"a {change.action or 'change'} leaves nothing to compare")


def checkable(key: str) -> Kind | None:
    """The kind named `key` if its changes can be checked: one of many objects, each at its
    own path, that the console changes (not the tenant)."""
    kind = KINDS.find(key)
    if kind is None or kind.singleton or not kind.features.changeable:
        return None
    return kind


async def _read(
    client: AdminClient, kind: Kind, object_id: str | None, requests: _Requests
) -> dict[str, Any] | None:
    """The object, None if the service says there is none (404)."""
    from console.client import NotFound

    try:
        checked = str(UUID(str(object_id)))
    except ValueError:
        raise _Undecided("its id is not one of the service's ids") from None
    requests.spend()
    from console.journal.undo import read_object

    try:
        data = await read_object(client, kind, checked)
    except NotFound:
        return None
    if not isinstance(data, dict):
        raise _Undecided("the service's answer is not an object")
    return data


async def _check_create(
    client: AdminClient, kind: Kind, change: Change, requests: _Requests
) -> tuple[str, Any, str]:
    """A create is found by its name among the objects made since it started."""
    request = change.request or {}
    name = field_of(request, kind.name_field)  # an invitation's is its email
    if not isinstance(name, str) or not name:
        raise _Undecided("the change recorded no name to look for")
    found, complete = await _named(client, kind, name, requests)
    since = change.started_at - CLOCK_SLACK
    new = [item for item in found if _made_since(item, since)]
    matching = [item for item in new if _matches(request, item)]
    if len(matching) == 1:
        note = "It is on the service."
        if kind.undo is not None and kind.undo.new_key is not None:  # it came with a key
            note += " Its key was never shown: regenerate it to have one."
        return OK, matching[0], note
    if not new and complete:
        return FAILED, None, f'No object named "{name}" was made.'
    if len(matching) > 1:
        raise _Undecided(f'{len(matching)} objects named "{name}" were made since')
    raise _Undecided(f'no object named "{name}" made since could be told to be this one')


async def _named(
    client: AdminClient, kind: Kind, name: str, requests: _Requests
) -> tuple[list[dict[str, Any]], bool]:
    """Objects named exactly `name` (CREATE_PAGES pages at most; filtered by the service
    where the kind's list takes a name), and whether every page was read."""
    from console.client.envelope import checked_envelope, page_params

    found: list[dict[str, Any]] = []
    filters = [("name", name)] if kind.name_filter else []
    for page in range(1, CREATE_PAGES + 1):
        requests.spend()
        params = page_params(page, PAGE_SIZE, filters)
        sent = await client.send_json("GET", kind.path, params=params)
        data = checked_envelope(sent, method="GET", path=kind.path)
        items = data.get("data") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise _Undecided("the service's list is not one")
        found += [i for i in items if isinstance(i, dict) and field_of(i, kind.name_field) == name]
        if len(items) < PAGE_SIZE:
            return found, True
    return found, False


def _made_since(item: dict[str, Any], since: datetime) -> bool:
    """Made at `since` or later; True when the service does not say when."""
    made = item.get("created_at")
    if not isinstance(made, str):
        return True
    try:
        moment = datetime.fromisoformat(made)
    except ValueError:
        return True
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)) >= since


def _settable(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k not in SET_BY_SERVICE}


def _matches(asked: Any, current: Any) -> bool:
    """Every field asked for is so on the object (fields the service sets and values the
    journal masked or sealed are not compared; an object may hold more than was asked)."""
    from console.journal.sealed import is_marker

    if (isinstance(asked, str) and MASKED in asked) or is_marker(asked):
        return True
    if isinstance(asked, dict):
        if not isinstance(current, dict):
            return False
        return all(
            k in SET_BY_SERVICE or (k in current and _matches(v, current[k]))
            for k, v in asked.items()
        )
    if isinstance(asked, list):
        return (
            isinstance(current, list)
            and len(asked) == len(current)
            and all(_matches(a, c) for a, c in zip(asked, current, strict=True))
        )
    return bool(asked == current)
