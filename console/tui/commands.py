"""Command palette (ctrl+p): open an object by name or id, whether or not its list has it.

Proxies and formulas are found through the server's name filter; applications, which the
API filters by id only, by walking their pages (100 a page) while the palette is open, each
match shown as its page arrives; an id is looked up with one GET per kind.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator
from functools import partial
from typing import Any
from uuid import UUID

from textual.command import Hit, Hits, Provider

from console.tui.app_access import console_app
from console.tui.resources import APPLICATIONS, LIST_KINDS, PROXIES, REACTOR_FORMULAS

log = logging.getLogger(__name__)

SEARCH_SIZE = 10
"""Proxies and formulas asked for per search (the server filters them by name)."""

WALK_PAGE_SIZE = 100
"""Applications per page while the palette walks them (the service's largest page)."""

WALK_MAX_PAGES = 200
"""At most 20,000 applications are walked; a larger tenant is searched in part."""

APPLICATION_HITS = 30
"""Applications offered at most for one search: a short query must not flood the list."""


def _as_uuid(text: str) -> str | None:
    try:
        return str(UUID(text.strip()))
    except ValueError:
        return None


def name_pattern(query: str) -> re.Pattern[str]:
    """As the server's name filter: contains, case-insensitively, `*` matching any run."""
    return re.compile(".*".join(re.escape(part) for part in query.split("*")), re.IGNORECASE)


class ApplicationWalk:
    """The tenant's applications, page by page, kept while the palette is open: the next
    keystroke's search reads the pages already fetched and goes on from where it stopped."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.rows: list[dict[str, Any]] = []
        self.pages = 0
        self.complete = False
        self._lock = asyncio.Lock()

    async def __call__(self) -> AsyncIterator[dict[str, Any]]:
        index = 0
        while True:
            while index < len(self.rows):
                yield self.rows[index]
                index += 1
            if self.complete:
                return
            async with self._lock:  # one request at a time, whichever search asks
                if index < len(self.rows) or self.complete:
                    continue
                await self._next_page()

    async def _next_page(self) -> None:
        page = self.pages + 1
        data = await self.client.applications.page_json(page=page, size=WALK_PAGE_SIZE)
        rows = [row for row in data.get("data") or [] if isinstance(row, dict)]
        self.rows += rows
        self.pages = page
        total = (data.get("pagination") or {}).get("total_items")
        done = isinstance(total, int) and page * WALK_PAGE_SIZE >= total
        self.complete = done or not rows or page >= WALK_MAX_PAGES


class ObjectProvider(Provider):
    """Hits for objects by name or id: proxies and formulas through the server's filter,
    applications by walking their pages, permissions among those loaded."""

    _walk: ApplicationWalk | None = None

    async def search(self, query: str) -> Hits:
        query = query.strip()
        app = console_app(self)
        if len(query) < 2 or getattr(app, "client", None) is None:
            return
        client = app.client
        matcher = self.matcher(query)
        item_id = _as_uuid(query)
        if item_id is not None:
            for kind, item in await self._by_id(client, item_id):
                label = f"Open {kind.singular}: {kind.item_name(item)}"
                yield Hit(1.0, label, partial(app.open_detail, kind, item), help=item_id)
            return
        pattern = name_pattern(query)

        def hit(kind: Any, item: Any) -> Hit:
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
        found = len(seen)
        for kind, item in await self._by_name(client, query):
            yield hit(kind, item)
        async for item in self._applications(client):
            item_id = APPLICATIONS.item_id(item)
            if item_id in seen or not pattern.search(APPLICATIONS.item_name(item)):
                continue
            seen.add(item_id)
            yield hit(APPLICATIONS, item)
            found += 1
            if found >= APPLICATION_HITS:
                return

    async def _applications(self, client: Any) -> AsyncIterator[dict[str, Any]]:
        """Every application (as sent), from the pages fetched so far, then the next ones."""
        if self._walk is None or self._walk.client is not client:
            self._walk = ApplicationWalk(client)
        try:
            async for row in self._walk():
                yield row
        except asyncio.CancelledError:
            raise
        except Exception:  # e.g. no application:read: the other kinds still answer
            log.warning("The palette could not walk the applications", exc_info=True)

    async def _by_id(self, client: Any, item_id: str) -> list[tuple[Any, Any]]:
        async def one(kind: Any) -> tuple[Any, Any] | None:
            try:
                return kind, await kind.get(client, item_id)
            except Exception:
                log.warning("The palette could not look an id up", exc_info=True)
                return None

        results = await asyncio.gather(*(one(k) for k in (APPLICATIONS, PROXIES, REACTOR_FORMULAS)))
        return [r for r in results if r is not None]

    async def _by_name(self, client: Any, query: str) -> list[tuple[Any, Any]]:
        async def some(kind: Any) -> list[tuple[Any, Any]]:
            try:
                fetched = await kind.fetch(client, 1, SEARCH_SIZE, {"name": query})
            except Exception:
                log.warning("The palette could not search %s", kind.key, exc_info=True)
                return []
            return [(kind, item) for item in fetched.items]

        results = await asyncio.gather(some(PROXIES), some(REACTOR_FORMULAS))
        return [hit for part in results for hit in part]

    def _loaded(self, app: Any) -> list[tuple[Any, Any]]:
        """Applications and permissions the lists hold (no name filter on the server)."""
        screen = app.console_screen
        if screen is None:
            return []
        found = []
        for kind in LIST_KINDS:
            if kind in (PROXIES, REACTOR_FORMULAS):
                continue
            section = screen.find_section(kind.key)
            found += [(kind, item) for item in getattr(section, "items", [])]
        return found
