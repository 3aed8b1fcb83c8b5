"""How the audit logs look in the console: the Logs section's columns, its filter, an entry's
detail (console.kinds.builtin.LOGS: read only, no path of its own).

Rows are entries as the service sent them, newest first. The list reads them by cursor
(`start`: the `after` of the page before), so entries logged while one reads (the Logs
section follows them, console.tui.widgets.log_list) never shift a later page. Who acted and on
what are ids; the names of the applications, proxies and reactors among them are looked up by
id (one request per kind and page, names kept per client), and shown where known.

The filter (`/`) takes words the service filters by (`type:proxy`, `entity:<id>`,
`since:2026-11-28`, `until:2026-11-28 12:00`) and words the console filters the rows read by,
as the service has no such filter: `actor:` (a name or an id) and `entity:` with a name.
"""

from __future__ import annotations

import logging
import shlex
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from uuid import UUID

from rich.text import Text

from console.kinds import KINDS, field_of
from console.kinds.builtin import APPLICATIONS, MEMBERS, PROXIES, REACTORS
from console.kinds.builtin import LOGS as LOGS_KIND
from console.terminal_text import printable
from console.tui.base import formatting as fmt
from console.tui.base.columns import Column, Labels, Renderable
from console.tui.browse.looks import LOOKS, Fetched, FilterInvalid, ListLook

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models.logs import Log
    from console.tui.base.shown import JsonObject, Model, Query, Shown
    from console.tui.browse.row_filter import RowFilter

log = logging.getLogger("console.tui")

FOLLOW_KEY = "f"
"""The Logs section's follow key, as `tail -f` (the access review steps through its flags with
`]` and `[`: a key means one thing on every screen, tests/tui/test_one_meaning_per_key.py)."""

SERVER_FILTERS = ("entity_type", "entity_id", "start_date", "end_date")
"""What `GET /logs` filters by (the query's names)."""
CONSOLE_FILTERS = ("actor", "entity", "text")
"""What the console filters the entries read by (the service has no such filter)."""

FILTER_WORDS: dict[str, str] = {
    "type": "entity_type",
    "entitytype": "entity_type",
    "entity": "entity",
    "actor": "actor",
    "since": "start_date",
    "from": "start_date",
    "after": "start_date",
    "until": "end_date",
    "to": "end_date",
    "before": "end_date",
}
"""The words the filter reads before a colon (case and `-`/`_` aside)."""

NAMED_KINDS = (APPLICATIONS.key, PROXIES.key, REACTORS.key)
"""The kinds whose names the rows show: their lists filter by id (one request a page)."""

ACTOR_APPLICATION = APPLICATIONS.log_entity
"""An entry's `actor_type` when an application's key acted (the kind's word in the logs)."""

DATE_CHARS = "0123456789-: —?"


def entity_type_name(value: object) -> str:
    """`proxy` as a person reads it: the kind's noun ("Proxy", "Reactor formula"), else the
    value as sent, escaped."""
    if not value:
        return ""
    kind = KINDS.by_log_entity(str(value))
    if kind is not None:
        return kind.nouns.singular.capitalize()
    return printable(str(value)).replace("_", " ").capitalize()


def _time_cell(entry: JsonObject) -> str:
    moment = fmt.wire_time(entry.get("created_at"))
    return fmt.local_time(moment, seconds=True, zone=False)


def _named(value: object, labels: Labels) -> Renderable:
    """An id shown by its name where the console knows it, else the id."""
    if not value:
        return Text("—", style="dim")
    key = str(value)
    name = labels.get(key)
    return printable(name) if name else printable(key)


def _actor_cell(entry: JsonObject, labels: Labels) -> Renderable:
    actor = entry.get("actor_id")
    kind = str(entry.get("actor_type") or "")
    if not actor:
        return Text(printable(kind) or "—", style="dim")
    named = _named(actor, labels)
    if kind and kind != ACTOR_APPLICATION and str(actor) not in labels:
        return Text.assemble((f"{printable(kind)} ", "dim"), str(named))
    return named


def _message_cell(entry: JsonObject) -> str:
    return printable(str(entry.get("message") or ""))


@dataclass(frozen=True)
class LogsFetched(Fetched):
    """A page of entries as the list shows it (the console's own filters applied), with
    every entry read, which the Logs section stores in the profile's archive."""

    read: list[JsonObject] = field(default_factory=list)


@dataclass
class _Reading:
    """What the look keeps of one client's reading: the cursor before each page of a filter,
    and the names of the objects the entries named (None: looked up, not found)."""

    cursors: dict[tuple[Any, ...], dict[int, str]] = field(default_factory=dict)
    """By (page size, the service's filters): page number -> its `start`."""
    locks: dict[tuple[Any, ...], Any] = field(default_factory=dict)
    """An asyncio.Lock by the same key: pages of one reading are read in turn."""
    names: dict[str, str | None] = field(default_factory=dict)
    people_read: bool = False
    """Whether the members were read once for the users and members entries name."""


def filter_query(text: str) -> Query | None:
    """The query of a typed filter: the service's filters and the console's (`actor`,
    `entity` by name, other words as `text`); None when it names none of the filter words
    (the loaded rows are then filtered as typed). FilterInvalid for a bad date."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    query: dict[str, Any] = {}
    rest: list[str] = []
    for word in words:
        head, colon, value = word.partition(":")
        name = FILTER_WORDS.get(head.casefold().replace("-", "").replace("_", ""))
        if not colon or name is None:
            rest.append(word)
            continue
        value = value.strip()
        if not value:
            raise FilterInvalid(f"“{head}:” needs a value after the colon.")
        if name in ("start_date", "end_date"):
            query[name] = _date_value(head, value)
        elif name == "entity_type":
            query[name] = value.casefold().replace(" ", "_").replace("-", "_")
        elif name == "entity" and _uuid(value):
            query["entity_id"] = _uuid(value)
        else:
            query[name] = value
    if not query:
        return None
    if rest:
        query["text"] = " ".join(rest)
    return query


def _date_value(word: str, value: str) -> str:
    """A typed date or time (local unless it names an offset), or a span back from now
    (`24h`, as `logs --since` takes), as the service reads it."""
    from console.audit.when import span_back

    moment = span_back(value)
    if moment is None:
        try:
            moment = fmt.parse_local_time(value.replace("T", " ", 1) if "T" in value else value)
        except ValueError as exc:
            raise FilterInvalid(f"“{word}:” {exc} Or a span back from now: 30m, 24h, 7d.") from None
    assert moment is not None  # the value is not empty
    return moment.isoformat().replace("+00:00", "Z")


def object_filter(entity_type: str, entity_id: str) -> str:
    """The filter of one object's entries (`L` on it), as a person would type it."""
    return f"type:{entity_type} entity:{entity_id}"


def _uuid(text: str) -> str | None:
    try:
        return str(UUID(text))
    except ValueError:
        return None


class LogsLook(ListLook):
    """The audit logs: newest first, read only; enter opens the entry's object
    (console.tui.widgets.log_list)."""

    short_title = "Logs"
    filter_placeholder = (
        "type:proxy entity:NAME|ID since:2026-11-28 until:… (asked of the service) "
        "actor:NAME|ID (filtered here: the service has no actor filter)"
    )
    columns = (
        Column("time", "Time", _time_cell, 19, charset=DATE_CHARS),
        Column(
            "type",
            "Entity type",
            lambda e: entity_type_name(e.get("entity_type")),
            15,
            min_width=8,
            drop_order=1,
        ),
        Column(
            "entity",
            "Entity",
            lambda e, labels: _named(e.get("entity_id"), labels),
            24,
            uses_labels=True,
            min_width=14,
            grow=True,
        ),
        Column(
            "operation",
            "Operation",
            lambda e: printable(str(e.get("operation") or "")),
            9,
            drop_order=2,
        ),
        Column("actor", "Actor", _actor_cell, 22, uses_labels=True, min_width=14, grow=True),
        Column("message", "Message", _message_cell, 30, min_width=22, grow=True),
    )

    def __init__(self) -> None:
        super().__init__(LOGS_KIND)
        self._readings: weakref.WeakKeyDictionary[Any, _Reading] = weakref.WeakKeyDictionary()

    # ---- what an entry is ----------------------------------------------------------------

    def item_id(self, item: Shown) -> str:
        """Its id, or (a service that sends none) a digest of what it says, as the archive
        knows it (console.models.logs.Log.identity)."""
        if isinstance(item, dict):
            if item.get("id"):
                return str(item["id"])
            if not item.get("created_at"):
                return ""
        return self._identity(item)

    def _identity(self, item: Shown) -> str:
        if isinstance(item, dict):
            from console.models.logs import Log

            try:
                return Log.model_validate(item).identity
            except Exception:
                log.info("a log entry without an id could not be read", exc_info=True)
                return ""
        identity = getattr(item, "identity", None)  # a Log
        return str(identity or "")

    def item_name(self, item: Shown) -> str:
        message = field_of(item, "message")
        return printable(str(message or self.item_id(item) or "(no message)"))

    async def get(self, client: AdminClient, item_id: str) -> Model:
        raise LookupError("A log entry is read with its list: it has no path of its own.")

    # ---- reading -------------------------------------------------------------------------

    def server_query(self, row_filter: RowFilter) -> Query | None:
        return filter_query(row_filter.text)

    def reading(self, client: AdminClient) -> _Reading:
        found = self._readings.get(client)
        if found is None:
            found = self._readings[client] = _Reading()
        return found

    async def fetch(self, client: AdminClient, page: int, size: int, query: Query) -> Fetched:
        """Page `page` of the entries (by cursor: each page after the one before), the names
        they mention, and the console's own filters applied."""
        server = {k: v for k, v in query.items() if k in SERVER_FILTERS and v}
        key = (size, *sorted((k, str(v)) for k, v in server.items()))
        reading = self.reading(client)
        cursors = reading.cursors.setdefault(key, {1: ""})
        if key not in reading.locks:
            import asyncio

            reading.locks[key] = asyncio.Lock()
        envelope: JsonObject | None = None
        async with reading.locks[key]:  # one page at a time: each needs the one before's
            known = max(n for n in cursors if n <= page)
            for number in range(known, page + 1):  # pages between: read for their cursors
                start = cursors.get(number)
                if start is None:  # the page before was the last
                    return LogsFetched([], None, page, False, {}, [])
                envelope = await client.logs.page(size=size, start=start, **server)
                after = (envelope.get("pagination") or {}).get("after")
                if after:
                    cursors[number + 1] = str(after)
                elif number + 1 in cursors:
                    del cursors[number + 1]
        assert envelope is not None
        items = [item for item in envelope["data"] if isinstance(item, dict)]
        has_more = page + 1 in cursors and bool(items)
        labels = await self.names(client, items)
        shown = [item for item in items if self.kept(item, query, labels)]
        return LogsFetched(shown, None, page, has_more, labels, items)

    def kept(self, entry: JsonObject, query: Query, labels: Labels) -> bool:
        """Whether the console's own filters (actor, entity by name, words) keep `entry`."""
        actor = query.get("actor")
        if actor and not self._cell_has(entry, "actor", str(actor), labels):
            return False
        entity = query.get("entity")
        if entity and not self._cell_has(entry, "entity", str(entity), labels):
            return False
        text = query.get("text")
        if text:
            cells = (self._cell_text(entry, c.key, labels) for c in self.columns)
            if not any(str(text).casefold() in cell.casefold() for cell in cells):
                return False
        return True

    def _cell_has(self, entry: JsonObject, column: str, value: str, labels: Labels) -> bool:
        return value.casefold() in self._cell_text(entry, column, labels).casefold()

    def _cell_text(self, entry: JsonObject, column: str, labels: Labels) -> str:
        found = next(c for c in self.columns if c.key == column)
        cell = found.cell(entry, labels)
        text = cell.plain if isinstance(cell, Text) else str(cell)
        if column in ("actor", "entity"):  # the id matches too
            text += " " + str(entry.get(f"{column}_id") or "")
        return text

    async def names(self, client: AdminClient, entries: list[JsonObject]) -> Labels:
        """The names of the applications, proxies and reactors the entries name (as actor or
        entity), each id looked up once per client; none for those the key may not read."""
        wanted: dict[str, set[str]] = {key: set() for key in NAMED_KINDS}
        for entry in entries:
            if entry.get("actor_type") == ACTOR_APPLICATION and entry.get("actor_id"):
                wanted[APPLICATIONS.key].add(str(entry["actor_id"]))
            kind = KINDS.by_log_entity(str(entry.get("entity_type") or ""))
            if kind is not None and kind.key in wanted and entry.get("entity_id"):
                wanted[kind.key].add(str(entry["entity_id"]))
        reading = self.reading(client)
        for key, ids in wanted.items():
            missing = sorted(i for i in ids if i not in reading.names and _uuid(i))[:100]
            if missing:
                reading.names.update(await self._look_up(client, key, missing))
        people = {
            str(entry["actor_id"])
            for entry in entries
            if entry.get("actor_type") == "user" and entry.get("actor_id")
        } | {
            str(entry["entity_id"])
            for entry in entries
            if entry.get("entity_type") == MEMBERS.log_entity and entry.get("entity_id")
        }
        if any(i not in reading.names for i in people) and not reading.people_read:
            reading.people_read = True
            reading.names.update(await self._people(client))
        everything = set().union(*wanted.values(), people)
        return {i: name for i in everything if (name := reading.names.get(i))}

    async def _people(self, client: AdminClient) -> dict[str, str | None]:
        """The e-mails of the tenant's members (their first 100), by user id and by member
        id: a user who acted, a member changed. None if the key may not read members."""
        try:
            page = await client.collection(MEMBERS).page_json(page=1, size=100)
        except Exception:
            log.info("members' e-mails for the logs not looked up", exc_info=True)
            return {}
        found: dict[str, str | None] = {}
        for item in page["data"]:
            if not isinstance(item, dict):
                continue
            email = field_of(item, "user.email")
            user_id = field_of(item, "user.id")
            if email and user_id:
                found[str(user_id)] = str(email)
            if email and item.get("id"):
                found[str(item["id"])] = str(email)
        return found

    async def _look_up(
        self, client: AdminClient, key: str, ids: list[str]
    ) -> dict[str, str | None]:
        kind = KINDS.find(key)
        if kind is None:
            return {}
        try:
            page = await client.collection(kind).page_json(page=1, size=100, ids=ids)
        except Exception:
            log.info("names of %s in the logs not looked up", key, exc_info=True)
            return {}
        found: dict[str, str | None] = dict.fromkeys(ids)
        for item in page["data"]:
            if isinstance(item, dict) and item.get("id") is not None:
                found[str(item["id"])] = str(item.get("name") or "") or None
        return found

    # ---- the detail ------------------------------------------------------------------------

    def fields(self, item: Log, labels: Labels | None = None) -> list[tuple[str, Renderable]]:
        labels = labels or {}
        moment = item.created_at
        shown_time = (
            f"{fmt.local_time(moment, seconds=True)} ({fmt.relative(moment)})" if moment else "—"
        )
        actor: Renderable = _named(item.actor_id, labels)
        if item.actor_id and str(item.actor_id) in labels:
            actor = Text.assemble(str(actor), (f"  {item.actor_id}", "dim"))
        entity: Renderable = _named(item.entity_id, labels)
        if item.entity_id and str(item.entity_id) in labels:
            entity = Text.assemble(str(entity), (f"  {item.entity_id}", "dim"))
        return [
            ("Time", shown_time),
            ("Message", printable(item.message or "") or Text("none", style="dim")),
            ("Operation", printable(item.operation or "") or Text("—", style="dim")),
            ("Entity type", entity_type_name(item.entity_type) or Text("—", style="dim")),
            ("Entity", entity),
            ("Actor", actor),
            ("Actor type", printable(item.actor_type or "") or Text("—", style="dim")),
            ("Id", printable(item.id) if item.id else Text("none sent", style="dim")),
            ("Tenant", printable(item.tenant_id) if item.tenant_id else Text("—", style="dim")),
        ]

    def empty_message(self, filter_text: str) -> str:
        if filter_text:
            return f"No log entries match “{filter_text}”. Press escape to clear."
        return "No log entries: the service keeps them for a day, and nothing was changed since."


LOGS = LogsLook()
LOOKS.register(LOGS)
