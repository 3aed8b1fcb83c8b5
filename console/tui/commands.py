"""Command palette (ctrl+p): open an object by name or id, searched through the server's filters."""

from __future__ import annotations

import asyncio
from functools import partial
from typing import Any
from uuid import UUID

from textual.command import Hit, Hits, Provider

from console.tui.resources import APPLICATIONS, LIST_KINDS, PROXIES, REACTOR_FORMULAS

SEARCH_SIZE = 5


def _as_uuid(text: str) -> str | None:
    try:
        return str(UUID(text.strip()))
    except ValueError:
        return None


class ObjectProvider(Provider):
    """Hits for proxies and formulas by name (server wildcard), any object by id,
    and applications or permissions already loaded in their lists."""

    async def search(self, query: str) -> Hits:
        query = query.strip()
        app: Any = self.app
        if len(query) < 2 or getattr(app, "client", None) is None:
            return
        matcher = self.matcher(query)
        item_id = _as_uuid(query)
        if item_id is not None:
            for kind, item in await self._by_id(app.client, item_id):
                label = f"Open {kind.singular}: {kind.item_name(item)}"
                yield Hit(1.0, label, partial(app.open_detail, kind, item), help=item_id)
            return
        found = await self._by_name(app.client, query)
        for kind, item in found:
            name = kind.item_name(item)
            score = max(matcher.match(name), 0.5)
            yield Hit(
                score,
                matcher.highlight(f"Open {kind.singular}: {name}"),
                partial(app.open_detail, kind, item),
                help=kind.item_id(item),
            )
        for kind, item in self._loaded(app, query):
            name = kind.item_name(item)
            if (score := matcher.match(name)) > 0:
                yield Hit(
                    score,
                    matcher.highlight(f"Open {kind.singular}: {name}"),
                    partial(app.open_detail, kind, item),
                    help=kind.item_id(item),
                )

    async def _by_id(self, client: Any, item_id: str) -> list[tuple[Any, Any]]:
        async def one(kind: Any) -> tuple[Any, Any] | None:
            try:
                return kind, await kind.get(client, item_id)
            except Exception:
                return None

        results = await asyncio.gather(*(one(k) for k in (APPLICATIONS, PROXIES, REACTOR_FORMULAS)))
        return [r for r in results if r is not None]

    async def _by_name(self, client: Any, query: str) -> list[tuple[Any, Any]]:
        async def some(kind: Any) -> list[tuple[Any, Any]]:
            try:
                fetched = await kind.fetch(client, 1, SEARCH_SIZE, {"name": query})
            except Exception:
                return []
            return [(kind, item) for item in fetched.items]

        results = await asyncio.gather(some(PROXIES), some(REACTOR_FORMULAS))
        return [hit for part in results for hit in part]

    def _loaded(self, app: Any, query: str) -> list[tuple[Any, Any]]:
        """Applications and permissions have no name filter on the server: search what is loaded."""
        screen = app.console_screen
        if screen is None:
            return []
        found = []
        for kind in LIST_KINDS:
            if kind in (PROXIES, REACTOR_FORMULAS):
                continue
            found += [(kind, item) for item in getattr(screen.find_section(kind.key), "items", [])]
        return found
