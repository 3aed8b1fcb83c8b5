"""The tenant-wide search: a kind's pages walked at the largest size the API serves, keeping
only the matches.

The API filters applications by id only, so a name is found by reading every page. The list
(`/` then enter) and the palette's "open by name" both walk with TenantSearch; the benchmark
drives it without a screen. Pages go through console.client.walk (a few in flight, in list
order). It holds its matches and the pages in flight, nothing more: a page is dropped once
read. No Textual here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.client.budget import RequestBudget
    from console.client.client import AdminClient
    from console.tui.base.shown import JsonObject, Query
    from console.tui.browse.kinds import Fetched, Labels, ResourceKind
    from console.tui.browse.row_filter import RowFilter

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
        budget: RequestBudget | None = None,
        pages: int | None = None,
    ) -> None:
        """`budget`: the client's (its 429s and 5xx make the walk send fewer at once);
        `pages`: how many pages there are, if known (the list's total): the first requests
        then go out together."""
        self.fetch = fetch
        self.budget = budget
        self.matches = matches
        self.item_id = item_id
        self.size = size
        self.page = 0
        """Pages read so far."""
        self.pages: int | None = pages
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
        total: int | None = None,
    ) -> TenantSearch:
        """A walk of `kind`'s pages (under the server filter `query`, if any) for the rows
        `row_filter` matches, as the list's live filter would show them."""
        query = dict(query or {})

        def fetch(page: int, size: int) -> Awaitable[Fetched]:
            return kind.fetch(client, page, size, query)

        pages = -(-total // SEARCH_PAGE_SIZE) if total is not None else None
        return cls(
            fetch,
            lambda item, labels: row_filter.matches(kind, item, labels),
            kind.item_id,
            budget=client.budget,
            pages=pages,
        )

    @property
    def matched(self) -> int:
        return len(self.found)

    @property
    def progress(self) -> str:
        """ "page 37 of 100, 4 matches" (the page count once known)."""
        of = f" of {self.pages}" if self.pages is not None else ""
        return f"page {self.page}{of}, {self.matched} match{'' if self.matched == 1 else 'es'}"

    async def walk(self) -> AsyncIterator[list[JsonObject]]:
        """Each page's new matches (perhaps none), page by page in list order, to the last.

        Several pages are in flight (console.client.walk): the service answers them while
        the console compares rows. A page is dropped once read; what is in hand is the
        matches and the pages in flight. Stopping the loop cancels every request."""
        if self.done:
            return
        from contextlib import aclosing

        from console.client.walk import PageEnd, walk_pages

        def end_of(fetched: Fetched, number: int) -> PageEnd:
            pages = -(-fetched.total // self.size) if fetched.total is not None else None
            return PageEnd(fetched.has_more and bool(fetched.items), pages)

        walking = walk_pages(
            lambda number: self.fetch(number, self.size),
            end_of,
            budget=self.budget,
            pages=self.pages,
            first=self.page + 1,
        )
        async with aclosing(walking):
            async for number, fetched in walking:
                self.page = number
                self.total = fetched.total
                if fetched.total is not None:
                    self.pages = max(self.page, -(-fetched.total // self.size))
                self.done = not fetched.has_more or not fetched.items
                if self.done:
                    self.pages = self.page
                new = self._matches_of(fetched)
                del fetched
                yield new
                if self.done:
                    return

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
        narrower = TenantSearch(
            self.fetch, matches, self.item_id, size=self.size, budget=self.budget
        )
        narrower.page, narrower.pages, narrower.total = self.page, self.pages, self.total
        narrower.done, narrower.labels = self.done, dict(self.labels)
        narrower.found = [item for item in self.found if matches(item, self.labels)]
        narrower._found_ids = {self.item_id(item) for item in narrower.found}
        return narrower
