"""The Logs section: the audit logs as a list (console.tui.browse.logs_look), newest first, and
the key that follows new entries as `tail -f` does.

Following reads the entries logged after the newest one shown, one request per interval
through the client's request budget, and puts them at the top, the cursor staying on the
entry it is on. It reads only while the section shows: another section, or a screen above the
console, pauses it (no request goes out); shown again, it reads what was logged meanwhile.
Every entry the section reads (its pages, what following brings) is stored in the profile's
log archive (console.audit.archive), in a thread, so that what the service forgets after its
retention stays at hand.

Enter on an entry opens its object, when the console has a section for its kind (an object
deleted since says so in its detail); otherwise the entry's own detail.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from textual import on
from textual.binding import Binding

from console.kinds import KINDS
from console.tui.base.app_access import router, session_host
from console.tui.browse.logs_look import FOLLOW_KEY, LogsFetched
from console.tui.browse.looks import LOOKS, ListLook
from console.tui.widgets.resource_list import ResourceList

if TYPE_CHECKING:
    from console.audit.follow import LogFollower
    from console.client.client import AdminClient
    from console.tui.base.shown import JsonObject, Query
    from console.tui.browse.kinds import Fetched
    from console.tui.browse.logs_look import LogsLook
    from console.tui.widgets.list_cursor import Place

log = logging.getLogger(__name__)

FOLLOW_INTERVAL = 5.0
"""Seconds between two reads while following: at most 12 requests a minute."""


class LogList(ResourceList):
    """The LOGS look's list, which follows new entries on its key."""

    BINDINGS = [
        Binding(FOLLOW_KEY, "follow", "Follow", tooltip="Show new entries as they are logged"),
    ]

    follow_interval: float = FOLLOW_INTERVAL
    """Seconds between two reads while following (tests shorten it)."""

    def __init__(self, kind: LogsLook, **kwargs: Any) -> None:
        super().__init__(kind, **kwargs)
        self.logs_look = kind
        self.following = False
        self.follow_reads = 0
        """Reads made while following (what the tests count)."""
        self.follow_ticks = 0
        """Intervals passed while following, read or not (hidden)."""
        self._follower: tuple[object, LogFollower] | None = None

    # ---- the status line -----------------------------------------------------------------

    @property
    def status_text(self) -> str:
        text = super().status_text
        if not self.following:
            return text
        mark = "● following" if self.shown_now() else "● following (paused)"
        return f"{text} · {mark}" if text else mark

    # ---- archiving -----------------------------------------------------------------------

    def show_page(self, page: int, fetched: Fetched) -> None:
        self._name_the_tenant(fetched)
        super().show_page(page, fetched)
        self._archive(fetched)

    def replace_rows(self, pages: list[Fetched], place: Place) -> None:
        for fetched in pages:
            self._name_the_tenant(fetched)
        super().replace_rows(pages, place)
        for fetched in pages:
            self._archive(fetched)

    def _name_the_tenant(self, fetched: Fetched) -> None:
        """The tenant's entries name it as the header does (the session knows its name)."""
        session = session_host(self).session
        if session.tenant_id is not None and session.tenant_name:
            fetched.labels.setdefault(str(session.tenant_id), session.tenant_name)

    def _archive(self, fetched: Fetched) -> None:
        read = fetched.read if isinstance(fetched, LogsFetched) else fetched.items
        if read:
            self.store_in_archive(read)

    def store_in_archive(self, entries: list[JsonObject]) -> None:
        """`entries` kept in the profile's archive, in a thread (never on the UI's)."""
        connection = session_host(self).connection
        profile = connection.profile if connection is not None else None
        if not profile:
            return
        self.run_worker(
            asyncio.to_thread(store_entries, profile, list(entries)),
            group="log-archive",
            exit_on_error=False,
        )

    # ---- following -----------------------------------------------------------------------

    def action_follow(self) -> None:
        """Follow new entries, or stop following."""
        self.following = not self.following
        if self.following:
            self.run_worker(self._follow(), group="follow", exclusive=True, exit_on_error=False)
            self.notify(
                f"New entries show at the top as they are logged; {FOLLOW_KEY} again stops.",
                title="Following the logs",
            )
        else:
            self.workers.cancel_group(self, "follow")
        self.post_status()

    def shown_now(self) -> bool:
        """Whether the section is what the person sees: its screen on top, it the section
        shown (not another, not behind a dialog or a detail)."""
        if not self.is_attached or not self.display:
            return False
        return self.app.screen is self.screen

    async def _follow(self) -> None:
        """One read per interval while shown, from the newest entry shown on."""
        was_shown = True
        while self.following:
            await asyncio.sleep(self.follow_interval)
            self.follow_ticks += 1
            shown = self.shown_now()
            if shown != was_shown:
                was_shown = shown
                self.post_status()
            if not shown or not self.loaded or self.fetching:
                continue
            client = session_host(self).connected_client()
            if client is None:
                continue
            try:
                entries = await self._read_new(client)
            except Exception:
                log.warning("Following the logs: a read failed", exc_info=True)
                continue
            if entries:
                self.add_new(entries)

    async def _read_new(self, client: AdminClient) -> list[JsonObject]:
        """The entries logged since the newest shown (the service's filters in force), newest
        first: one request of the follower (console.audit.follow.LogFollower.poll), made
        anew when the filter changed. Stored in the archive here, in a thread (the follower
        would store them on this one); the console's own filters applied."""
        self.follow_reads += 1
        query = self.pages.query_params
        follower = self._follower_for(client, query)
        polled = await follower.poll()
        read: list[JsonObject] = [dict(entry.as_sent) for entry in reversed(polled)]
        if read:
            self.store_in_archive(read)
        end = query.get("end_date")
        if end:
            read = [item for item in read if str(item.get("created_at") or "") < str(end)]
        labels = await self.logs_look.names(client, read)
        self.pages.labels.update(labels)
        return [item for item in read if self.logs_look.kept(item, query, self.pages.labels)]

    def _follower_for(self, client: AdminClient, query: Query) -> LogFollower:
        """The follower of the filter in force, from the newest entry shown (those shown are
        not given again); a new one when the filter or the client changed."""
        from console.audit.follow import LogFollower
        from console.tui.base import formatting as fmt

        key = (id(client), tuple(sorted((k, str(v)) for k, v in query.items())))
        if self._follower is not None and self._follower[0] == key:
            return self._follower[1]
        times = [fmt.wire_time(item.get("created_at")) for item in self.pages.items]
        newest = max((t for t in times if t is not None), default=None)
        asked = query.get("start_date")
        since = newest or (fmt.wire_time(str(asked).replace("Z", "+00:00")) if asked else None)
        seen = [self.kind.item_id(item) for item in self.pages.items]
        follower = LogFollower(
            client,
            entity_type=str(query.get("entity_type") or "") or None,
            entity_id=str(query.get("entity_id") or "") or None,
            since=since,
            seen=[f"id:{i}" if not i.startswith(("id:", "sha:")) else i for i in seen if i],
        )
        self._follower = (key, follower)
        return follower

    def add_new(self, entries: list[JsonObject]) -> None:
        """New entries at the top; the cursor stays on the entry it is on."""
        current = self.current_row
        added = self.pages.prepend(entries)
        if not added:
            return
        self.refresh_view(current)
        self.show_state()
        self.post_status()

    # ---- opening an entry's object -------------------------------------------------------

    @on(ResourceList.Opened)
    def _open_entry(self, event: ResourceList.Opened) -> None:
        """Enter on an entry: its object where the console has a section for its kind; the
        tenant's section for the tenant; else (an unknown type, no id) the entry itself,
        which the console screen opens as any row."""
        entry = event.item
        kind = KINDS.by_log_entity(str(entry.get("entity_type") or ""))
        entity_id = str(entry.get("entity_id") or "")
        look = LOOKS.find(kind.key) if kind is not None else None
        if look is None or not entity_id:
            return  # the console screen opens the entry's detail
        if kind is not None and kind.singleton:
            event.stop()
            screen = router(self).console_screen
            if screen is not None:
                screen.show_section(look.key)
            return
        if isinstance(look, ListLook):
            event.stop()
            self._say_if_deleted(look, entity_id)
            router(self).open_detail_by_id(look, entity_id)

    def _say_if_deleted(self, look: ListLook, entity_id: str) -> None:
        """An object the entries read say was deleted: said, as its detail will not find it."""
        from console.tui.base import formatting as fmt

        deleted = next(
            (
                item
                for item in self.pages.items
                if item.get("operation") == "delete" and str(item.get("entity_id")) == entity_id
            ),
            None,
        )
        if deleted is not None:
            moment = fmt.wire_time(deleted.get("created_at"))
            self.notify(
                f"This {look.singular} was deleted {fmt.when(moment)}: its detail cannot be read.",
                title="Deleted",
                severity="warning",
            )


def store_entries(profile: str, entries: list[JsonObject]) -> int:
    """Entries as sent, kept in `profile`'s archive; the number new there. Blocking."""
    from console.audit.archive import LogArchive
    from console.models.logs import Log

    readable = []
    for item in entries:
        try:
            readable.append(Log.model_validate(item))
        except Exception:
            log.warning("A log entry the archive cannot read was not stored", exc_info=True)
    archive = LogArchive.open(profile)
    try:
        return archive.store(readable)
    finally:
        archive.close()
