"""Command palette (ctrl+p): open an object by name or id, whether or not its list has it.

What the lists hold is offered at once; proxies and formulas are then found through the
server's name filter; applications, which the API filters by id only, by the tenant-wide
search the lists use (console.tui.browse.search), each match shown as its page arrives. One more
letter typed narrows the walk under way instead of starting over; an id is looked up with one
GET per kind.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from functools import partial
from typing import TYPE_CHECKING
from uuid import UUID

from textual.command import Hit, Hits, Provider

from console.kinds import KINDS
from console.tui.base.app_access import flow_host
from console.tui.browse.kinds import APPLICATIONS, LOOKS
from console.tui.browse.looks import ListLook
from console.tui.browse.row_filter import name_pattern
from console.tui.browse.search import TenantSearch
from console.tui.widgets.resource_list import ResourceList

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.tui.base.columns import Labels
    from console.tui.base.shell import Router
    from console.tui.base.shown import JsonObject, Shown
    from console.tui.browse.looks import Fetched

log = logging.getLogger(__name__)

SEARCH_SIZE = 10
"""Proxies and formulas asked for per search (the server filters them by name)."""

APPLICATION_HITS = 30
"""Applications offered at most for one search: a short query must not flood the list."""


def _as_uuid(text: str) -> str | None:
    try:
        return str(UUID(text.strip()))
    except ValueError:
        return None


class ObjectProvider(Provider):
    """Hits for objects by name or id: proxies and formulas through the server's filter,
    applications by the tenant search, permissions among those loaded."""

    _walk: TenantSearch | None = None
    """The last query's walk of the applications: the next query, if it only adds letters,
    goes on from it (its matches are among this one's)."""
    _walk_query = ""
    _walk_client: AdminClient | None = None

    async def search(self, query: str) -> Hits:
        query = query.strip()
        app = flow_host(self)
        client = app.connected_client() if len(query) >= 2 else None
        if client is None:
            return
        matcher = self.matcher(query)
        item_id = _as_uuid(query)
        if item_id is not None:
            for kind, item in await self._by_id(client, item_id):
                label = f"Open {kind.singular}: {kind.item_name(item)}"
                yield Hit(1.0, label, partial(app.open_detail, kind, item), help=item_id)
            return
        pattern = name_pattern(query)

        def hit(kind: ListLook, item: Shown) -> Hit:
            name = kind.item_name(item)
            return Hit(
                max(matcher.match(name), 0.5),
                matcher.highlight(f"Open {kind.singular}: {name}"),
                partial(app.open_detail, kind, item),
                help=kind.item_id(item),
            )

        seen: set[str] = set()
        for kind, item in self._loaded(app):  # at once: what the lists hold already
            if pattern.search(kind.item_name(item)):
                seen.add(kind.item_id(item))
                yield hit(kind, item)
        for kind, row_id, name, caption in await self._indexed(client, query):
            if row_id in seen:
                continue
            seen.add(row_id)
            yield Hit(
                max(matcher.match(name), 0.5),
                matcher.highlight(f"Open {kind.singular}: {name}"),
                partial(app.open_detail_by_id, kind, row_id),
                help=f"{row_id} · {caption}",
            )
        found = len(seen)
        for kind, item in await self._by_name(client, query, app.unavailable):
            yield hit(kind, item)
        async for item in self._applications(client, query):
            item_id = APPLICATIONS.item_id(item)
            if item_id in seen:
                continue
            seen.add(item_id)
            yield hit(APPLICATIONS, item)
            found += 1
            if found >= APPLICATION_HITS:
                return

    async def _applications(self, client: AdminClient, query: str) -> AsyncIterator[JsonObject]:
        """The applications whose name matches `query` (as the server's name filter would),
        those found so far first, then as the walk reads further pages."""
        pattern = name_pattern(query)

        def matches(item: JsonObject, labels: Labels) -> bool:
            return pattern.search(APPLICATIONS.item_name(item)) is not None

        previous = self._walk
        narrower = previous is not None and self._walk_client is client
        if previous is not None and narrower and self._walk_query.casefold() in query.casefold():
            search = previous.narrowed(matches)
        else:
            search = TenantSearch(
                partial(_application_page, client),
                matches,
                APPLICATIONS.item_id,
                budget=client.budget,
            )
        self._walk, self._walk_query, self._walk_client = search, query, client
        try:
            for item in list(search.found):
                yield item
            async for new in search.walk():
                for item in new:
                    yield item
        except asyncio.CancelledError:
            raise
        except Exception:  # e.g. no application:read: the other kinds still answer
            log.warning("The palette could not search the applications", exc_info=True)

    async def _indexed(
        self, client: AdminClient, query: str
    ) -> list[tuple[ListLook, str, str, str]]:
        """What the profile's local index knows by this name, at once (the live answers
        follow): kind, id, name and "from the index, 3 minutes old"."""
        index = client.index
        if index is None:
            return []
        from console.client.find import from_index

        try:
            answer = await asyncio.to_thread(from_index, index, query)
        except Exception:
            log.warning("The palette could not read the local index", exc_info=True)
            return []
        found = []
        for row in answer.rows:
            look = _list_look(row.kind)
            if look is not None:
                found.append((look, row.id, row.name, answer.caption))
        return found

    async def _by_id(self, client: AdminClient, item_id: str) -> list[tuple[ListLook, Shown]]:
        async def one(kind: ListLook) -> tuple[ListLook, Shown] | None:
            try:
                return kind, await kind.get(client, item_id)
            except Exception:
                log.warning("The palette could not look an id up", exc_info=True)
                return None

        results = await asyncio.gather(*(one(k) for k in _by_id_kinds()))
        return [r for r in results if r is not None]

    async def _by_name(
        self, client: AdminClient, query: str, unavailable: set[str]
    ) -> list[tuple[ListLook, Shown]]:
        async def some(kind: ListLook) -> list[tuple[ListLook, Shown]]:
            try:
                fetched = await kind.fetch(client, 1, SEARCH_SIZE, {"name": query})
            except Exception:
                log.warning("The palette could not search %s", kind.key, exc_info=True)
                return []
            return [(kind, item) for item in fetched.items]

        named = (k for k in LOOKS.lists() if k.declaration.name_filter and k.key not in unavailable)
        results = await asyncio.gather(*(some(k) for k in named))
        return [hit for part in results for hit in part]

    def _loaded(self, app: Router) -> list[tuple[ListLook, Shown]]:
        """What the lists of kinds without a name filter on the server hold (applications,
        permissions)."""
        screen = app.console_screen
        if screen is None:
            return []
        found: list[tuple[ListLook, Shown]] = []
        for kind in LOOKS.lists():
            if kind.declaration.name_filter:
                continue
            section = screen.find_section(kind.key)
            if isinstance(section, ResourceList):  # None until the section is mounted
                found += [(kind, item) for item in section.items]
        return found


def _list_look(index_name: str) -> ListLook | None:
    """The list look of the kind whose local-index rows are named `index_name`, if any."""
    kind = KINDS.by_index_name(index_name)
    look = LOOKS.find(kind.key) if kind is not None else None
    return look if isinstance(look, ListLook) else None


def _by_id_kinds() -> tuple[ListLook, ...]:
    """The kinds an id is looked up in: those whose objects have ids (not the permissions,
    named by their type)."""
    return tuple(k for k in LOOKS.lists() if k.declaration.id_field == "id")


async def _application_page(client: AdminClient, page: int, size: int) -> Fetched:
    """A page of applications as the lists read it (console.tui.browse.kinds.Fetched)."""
    return await APPLICATIONS.fetch(client, page, size, {})
