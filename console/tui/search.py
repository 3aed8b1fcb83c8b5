"""The tenant-wide search: a kind's pages walked at the largest size the API serves, keeping
only the matches.

The API filters applications by id only, so a name is found by reading every page. The list
(`/` then enter) and the palette's "open by name" both walk with TenantSearch; the benchmark
drives it without a screen. It holds its matches and the page in hand, nothing more: a page
is dropped once read. No Textual here.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.tui.resources import Fetched, Labels, ResourceKind
    from console.tui.row_filter import RowFilter
    from console.tui.shown import JsonObject, Query

SEARCH_PAGE_SIZE = 100
"""The largest page the API serves (api-decisions.md: `size` 1 to 100): the fewest round trips
for a walk of the whole tenant."""

PageFetch = Callable[[int, int], Awaitable["Fetched"]]
"""Page `n` of `size` rows, as the lists read it (ResourceKind.fetch)."""

Matcher = Callable[["JsonObject", "Labels"], bool]
"""Whether an object as sent (with the labels of its page) is a match."""


class TenantSearch:
    """One walk: the pages read so far, the matches found, whether it reached the end.

    The state is updated before each page's matches are handed out, so a walk cancelled
    between pages (escape, a new keystroke in the palette) says where it stopped, and
    `walk()` again goes on from the next page."""

    def __init__(
        self,
        fetch: PageFetch,
        matches: Matcher,
        item_id: Callable[[JsonObject], str],
        *,
        size: int = SEARCH_PAGE_SIZE,
    ) -> None:
        self.fetch = fetch
        self.matches = matches
        self.item_id = item_id
        self.size = size
        self.page = 0
        """Pages read so far."""
        self.pages: int | None = None
        """The pages there are, once the service has said how many objects it holds."""
        self.total: int | None = None
        self.found: list[JsonObject] = []
        """The matches, in the server's order."""
        self.labels: dict[str, str] = {}
        """Names the matches refer to by id (a proxy's application), from their pages."""
        self.done = False
        self._found_ids: set[str] = set()

    @classmethod
    def of(
        cls,
        kind: ResourceKind,
        client: AdminClient,
        row_filter: RowFilter,
        query: Query | None,
    ) -> TenantSearch:
        """A walk of `kind`'s pages (under the server filter `query`, if any) for the rows
        `row_filter` matches, as the list's live filter would show them."""
        query = dict(query or {})

        def fetch(page: int, size: int) -> Awaitable[Fetched]:
            return kind.fetch(client, page, size, query)

        return cls(fetch, lambda item, labels: row_filter.matches(kind, item, labels), kind.item_id)

    @property
    def matched(self) -> int:
        return len(self.found)

    @property
    def progress(self) -> str:
        """ "page 37 of 100, 4 matches" (the page count once known)."""
        of = f" of {self.pages}" if self.pages is not None else ""
        return f"page {self.page}{of}, {self.matched} match{'' if self.matched == 1 else 'es'}"

    async def walk(self) -> AsyncIterator[list[JsonObject]]:
        """Each page's new matches (perhaps none), as its page is read, to the last page.

        The next page is asked for before this one is read, so the service answers while
        the console compares rows: the walk takes the time of the requests, not of both.
        A page is dropped once read; what is in hand is its matches and, at most, the next
        page arriving."""
        if self.done:
            return
        coming = asyncio.ensure_future(self.fetch(self.page + 1, self.size))
        try:
            while True:
                fetched = await coming
                self.page += 1
                self.total = fetched.total
                if fetched.total is not None:
                    self.pages = max(self.page, -(-fetched.total // self.size))
                self.done = not fetched.has_more or not fetched.items
                if self.done:
                    self.pages = self.page
                else:
                    coming = asyncio.ensure_future(self.fetch(self.page + 1, self.size))
                new = self._matches_of(fetched)
                del fetched
                yield new
                if self.done:
                    return
        finally:
            if not coming.done():  # stopped (escape, a new query): the page on its way is not read
                coming.cancel()
            elif not coming.cancelled():
                coming.exception()  # read, so an unread failure is not reported as lost

    def _matches_of(self, fetched: Fetched) -> list[JsonObject]:
        """The page's matches not found before (the list may shift between pages)."""
        new = []
        for item in fetched.items:
            if not self.matches(item, fetched.labels):
                continue
            item_id = self.item_id(item)
            if item_id and item_id in self._found_ids:
                continue
            self._found_ids.add(item_id)
            new.append(item)
        if new:
            self.found.extend(new)
            self.labels.update(fetched.labels)
        return new

    def narrowed(self, matches: Matcher) -> TenantSearch:
        """The same walk for a narrower question (the palette's query, one more letter):
        its matches among those found so far, and it goes on from the next page."""
        narrower = TenantSearch(self.fetch, matches, self.item_id, size=self.size)
        narrower.page, narrower.pages, narrower.total = self.page, self.pages, self.total
        narrower.done, narrower.labels = self.done, dict(self.labels)
        narrower.found = [item for item in self.found if matches(item, self.labels)]
        narrower._found_ids = {self.item_id(item) for item in narrower.found}
        return narrower
