"""Paging of a list: only the pages the cursor reaches are read. The first shows as soon as it
arrives (asked for early through plain_get, before the list was composed, when it can be), the
next when the cursor comes within PREFETCH_MARGIN rows of the end of what is loaded, and `G G`
(or ctrl+g) reads the rest, a few pages in flight. A part of ResourceList
(console.tui.widgets.resource_list).
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import aclosing
from typing import TYPE_CHECKING

from console.tui.base.app_access import console_app
from console.tui.browse.kinds import list_page
from console.tui.widgets.list_pages import answered

if TYPE_CHECKING:
    from concurrent.futures import Future

    from console.client.budget import RequestBudget
    from console.tui.base.shown import JsonObject
    from console.tui.browse.kinds import Fetched
    from console.tui.widgets.list_pages import ListPages
    from console.tui.widgets.list_section import ListSection

log = logging.getLogger("console.tui")

PREFETCH_MARGIN = 10
"""Rows from the end of those loaded at which the next page is read."""


class RateLimitNote:
    """Whether a list's walk waits for the profile's request budget, for the footer to say:
    a search or load all may wait for the rate limit for many seconds, and should say so."""

    def __init__(self, section: ListSection) -> None:
        self._section = section
        self._budget: RequestBudget | None = None
        """The client's request budget, watched once a walk starts."""

    def watch(self) -> None:
        """The footer says when a walk waits (the budget of the client in use is watched,
        once: a new profile's client is watched anew)."""
        section = self._section
        client = console_app(section).connected_client()
        budget = client.budget if client is not None else None
        if budget is None or budget is self._budget:
            return
        self._budget = budget
        budget.watch(lambda _seconds: section.post_status() if section.is_mounted else None)

    def text(self) -> str:
        """ " · waiting for the rate limit, 12 s" while a request of the list waits, else ""."""
        budget = self._budget
        if budget is None or not budget.waiting:
            return ""
        from console.client.budget import waiting_text

        return f" · {waiting_text(budget.waiting)}"


class Pager:
    """Reads the pages of a list into its ListPages as the list needs them, one load at a time
    in the section's worker (a reset drops a page still coming), and load all's walk."""

    def __init__(self, section: ListSection, pages: ListPages, rate: RateLimitNote) -> None:
        self._section = section
        self._pages = pages
        self._rate = rate
        self.loading_to_end = False
        """`G` twice (or ctrl+g): the remaining pages are fetched, a few in flight."""
        self._walking_rest = False
        """Whether load all's walk is under way (it, not the cursor, asks for pages)."""
        self._end_armed_row: int | None = None
        """The row a first `G` went to; a `G` from there loads to the end."""

    def reset(self) -> None:
        """Nothing loading to the end any more (the list forgot its pages)."""
        self.loading_to_end = self._walking_rest = False
        self._end_armed_row = None

    def disarm(self) -> None:
        """The pages are read again from the first: load all and a first `G` no longer hold."""
        self.loading_to_end, self._end_armed_row = False, None

    def fetch(self, page: int, requested: Future[JsonObject | None] | None = None) -> None:
        """Page `page` into the rows; `requested`: page 1 asked for early, shown in the first
        frame when it is here already."""
        section, size = self._section, self._pages.page_size
        envelope = requested.result() if requested is not None and answered(requested) else None
        if envelope is not None:  # the early page is here already: into the first frame
            section.show_page(page, list_page(envelope, page, size))
            section.call_after_refresh(self._index_early_page, envelope)
            return
        section.load(
            lambda: self._read(page, requested),
            shown=lambda fetched: section.show_page(page, fetched),
            failed=lambda exc: section.show_failure(exc, page),
            name=f"{section.kind.key}-page-{page}",
        )
        section.post_status()

    async def _read(self, page: int, requested: Future[JsonObject | None] | None) -> Fetched:
        """One page; `requested` is page 1 asked for early through plain_get (None there
        means the client has to ask, and explain any failure)."""
        envelope = None
        if requested is not None:
            try:
                envelope = await asyncio.wrap_future(requested)
            except Exception:  # the early reader failed: the client asks and explains
                log.exception("The early first-page read failed")
        section, pages = self._section, self._pages
        if envelope is not None:
            section.call_after_refresh(self._index_early_page, envelope)  # once it is shown
            return list_page(envelope, page, pages.page_size)
        client = console_app(section).client
        return await section.kind.fetch(client, page, pages.page_size, pages.query_params)

    def _index_early_page(self, envelope: JsonObject) -> None:
        """The early page (read before the client existed, so not recorded by it) into the
        profile's local index, in a thread, once its rows are on screen."""
        section = self._section
        connection = console_app(section).connection
        if connection is None or connection.profile is None:
            return
        from console.tui.browse.first_page import record_in_index

        section.run_worker(
            asyncio.to_thread(record_in_index, connection, section.kind.path, envelope),
            group="local-index",
            exit_on_error=False,
        )

    async def read_again(self, count: int) -> list[Fetched]:
        """Pages 1 to `count`, one after another (never more at once: rate limits)."""
        section, pages = self._section, self._pages
        client = console_app(section).client
        read: list[Fetched] = []
        for page in range(1, count + 1):
            fetched = await section.kind.fetch(client, page, pages.page_size, pages.query_params)
            read.append(fetched)
            if not (fetched.has_more and fetched.items):
                break
        return read

    def fetch_more(self, *, narrowed: bool) -> None:
        """The next page when the cursor nears the end of the loaded rows (or all of them,
        loading to the end). Not while `narrowed` (a live filter or a search): their few rows
        would keep the cursor near the end, and page after page of the tenant would come."""
        section, pages = self._section, self._pages
        if not pages.has_more or section.fetching or section.problem is not None:
            return
        if self._walking_rest:  # load all: its walk asks for the pages
            return
        if self.loading_to_end:
            self._load_rest()
            return
        near_end = section.table.cursor_row >= len(pages.items) - PREFETCH_MARGIN
        if near_end and not narrowed:
            self.fetch(pages.next_page)

    def end_requested(self, cursor_row: int, *, searching: bool) -> None:
        """`G` went to the last loaded row: when there are more, it says so; `G` again from
        there loads the rest, page by page (escape stops). Not over a search's matches."""
        section, pages = self._section, self._pages
        if not pages.has_more or self.loading_to_end or searching:
            return
        if cursor_row == self._end_armed_row:
            self._end_armed_row = None
            self.load_to_end()
            return
        self._end_armed_row = len(section.shown_items) - 1
        section.notify(
            f"The last loaded row: {len(pages.items)} of {pages.total}. "
            "Press G again to load the rest (escape stops).",
            title=section.kind.title,
        )

    def load_to_end(self) -> None:
        """Fetches the remaining pages, a few in flight (never the tenant in one request),
        the footer counting them; the cursor goes to the last row once it is loaded."""
        section, pages = self._section, self._pages
        if not pages.has_more or section.problem is not None or self.loading_to_end:
            return
        self.loading_to_end = True
        self._rate.watch()
        section.notify(
            f"Loading the rest of {pages.total} {section.kind.title.lower()}, "
            f"{pages.page_size} at a time; escape stops.",
            title="To the end",
        )
        section.post_status()
        self.fetch_more(narrowed=False)

    def stop_loading_to_end(self) -> None:
        """Escape: every request of the load in flight is cancelled; the rows stay."""
        if not self.loading_to_end:
            return
        section, pages = self._section, self._pages
        self.loading_to_end = False
        if self._walking_rest:
            section.forget_loads()
            self._walking_rest = section.fetching = False
        section.post_status()
        section.notify(f"Stopped at {len(pages.items)} of {pages.total}.", title="To the end")

    def _load_rest(self) -> None:
        """Load all (`G G`, ctrl+g): the remaining pages, a few in flight and shown in list
        order as they come (console.client.walk); escape cancels every request in flight."""
        from console.client.walk import PageEnd, walk_pages

        section, listed = self._section, self._pages
        client = console_app(section).client
        kind, size, query = section.kind, listed.page_size, dict(listed.query_params)
        first = listed.next_page
        pages = -(-listed.total // size) if listed.total is not None else None
        generation = section.generation
        self._walking_rest = True
        section.fetching = True

        def end_of(fetched: Fetched, number: int) -> PageEnd:
            total_pages = -(-fetched.total // size) if fetched.total is not None else None
            return PageEnd(fetched.has_more and bool(fetched.items), total_pages)

        async def run() -> None:
            number = first
            try:
                walking = walk_pages(
                    lambda n: kind.fetch(client, n, size, query),
                    end_of,
                    budget=client.budget,
                    pages=pages,
                    first=first,
                )
                async with aclosing(walking):
                    async for number, fetched in walking:
                        if not section.is_current(generation) or not self.loading_to_end:
                            return
                        section.show_page(number, fetched)
                        section.fetching = listed.has_more
            except Exception as exc:
                log.warning("Loading the rest of %s failed", kind.key, exc_info=True)
                if section.is_current(generation):
                    section.show_failure(exc, number)
            finally:
                if section.is_current(generation):
                    self._walking_rest = False
                    section.fetching = False
                    section.post_status()

        section.run_worker(
            run(),
            group=section.load_group,
            name=f"{kind.key}-load-all",
            exclusive=True,
            exit_on_error=False,
        )
