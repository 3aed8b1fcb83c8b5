"""The pages of a list read so far: the objects as the service sent them, in the order they
show and in the order they came, their cells, and what the service said of the rest. A part of
ResourceList (console.tui.widgets.resource_list); console.tui.widgets.list_paging reads them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import Future

    from console.tui.base.shown import JsonObject, Query
    from console.tui.browse.kinds import Fetched, ResourceKind
    from console.tui.widgets.list_order import Pair, Row, RowOrder


def answered(requested: Future[JsonObject | None] | None) -> bool:
    """Whether an early page request has already brought a page (not None, no error)."""
    if requested is None or not requested.done() or requested.cancelled():
        return False
    return requested.exception() is None and requested.result() is not None


class ListPages:
    """The loaded pages of one list, under one server filter.

    Kept apart from the widget so that a page read again, a reset and a sort change the rows
    in one place; the widget shows what this holds (`items` and `rows`, row for row)."""

    def __init__(
        self, kind: ResourceKind, page_size: int, first_page: Future[JsonObject | None] | None
    ) -> None:
        self.kind = kind
        self.page_size = page_size
        self.first_page = first_page
        """Page 1, requested before the list was composed (console.client.plain_get)."""
        self.items: list[JsonObject] = []
        """The loaded objects, as the service sent them, in row order."""
        self.rows: list[Row] = []
        """The table's cells of each item, in the same order as `items`."""
        self.arrived: list[JsonObject] = []
        """The items in the order the server sent them (for `s` back to server order)."""
        self.total: int | None = None
        self.has_more = False
        self.pages_fetched: list[int] = []
        self.labels: dict[str, str] = {}
        """Names the rows refer to by id (a proxy's application), from their pages."""
        self.filter_text = ""
        """The server's filter in force, as typed."""
        self.query_params: Query = {}
        """The server's filter in force: the pages are read under it."""
        self._seen: set[str] = set()

    def clear(self) -> None:
        """Forgets every page and the server filter; an early first page not shown yet is
        cancelled."""
        if self.first_page is not None:
            self.first_page.cancel()
            self.first_page = None
        self.items, self.total, self.has_more, self.pages_fetched = [], None, False, []
        self.rows, self.arrived = [], []
        self._seen, self.labels = set(), {}
        self.filter_text, self.query_params = "", {}

    def take_first_page(self) -> Future[JsonObject | None] | None:
        """The early first page, handed over once (a later start reads page 1 itself)."""
        first_page, self.first_page = self.first_page, None
        return first_page

    @property
    def next_page(self) -> int:
        return len(self.pages_fetched) + 1

    def add(self, page: int, fetched: Fetched) -> tuple[list[JsonObject], list[Row]]:
        """Page `page` joins the loaded ones; its objects not seen on an earlier page (the
        list shifted between pages) are returned, with their cells."""
        self.pages_fetched.append(page)
        self._take_counts(fetched)
        new = self._unseen(fetched)
        self.items.extend(new)
        self.arrived.extend(new)
        kind, labels = self.kind, self.labels
        rows = [kind.row_cells(item, labels) for item in new]
        self.rows.extend(rows)
        return new, rows

    def prepend(self, items: list[JsonObject]) -> list[JsonObject]:
        """Objects newer than every loaded one (a followed list's) before them, those not
        seen yet, in the order given; returns those."""
        new = self._unseen_items(items)
        kind, labels = self.kind, self.labels
        self.items[:0] = new
        self.rows[:0] = [kind.row_cells(item, labels) for item in new]
        self.arrived[:0] = new
        return new

    def replace(self, pages: list[Fetched], order: RowOrder) -> None:
        """The pages read again take the place of all those loaded, sorted by `order`."""
        self.items, self.rows, self.arrived, self._seen = [], [], [], set()
        self.pages_fetched, self.labels = [], {}
        for fetched in pages:
            self.pages_fetched.append(fetched.page)
            self._take_counts(fetched)
            self.items.extend(self._unseen(fetched))
        self.arrived = list(self.items)
        self.rows = [self.kind.row_cells(item, self.labels) for item in self.items]
        self.put(order.sorted(self.pairs()))

    def pairs(self) -> list[Pair]:
        """The loaded objects with their cells, in row order."""
        return list(zip(self.items, self.rows, strict=True))

    def arrived_pairs(self) -> list[Pair]:
        """The loaded objects with their cells, in the server's order (the rows may be sorted)."""
        by_item = {id(item): row for item, row in zip(self.items, self.rows, strict=True)}
        return [(item, by_item[id(item)]) for item in self.arrived]

    def put(self, pairs: list[Pair]) -> None:
        """The loaded rows in this order (a sort, or back to the server's)."""
        self.items = [item for item, _row in pairs]
        self.rows = [row for _item, row in pairs]

    def _take_counts(self, fetched: Fetched) -> None:
        self.total = fetched.total
        self.labels.update(fetched.labels)
        self.has_more = fetched.has_more and bool(fetched.items)

    def _unseen(self, fetched: Fetched) -> list[JsonObject]:
        return self._unseen_items(fetched.items)

    def _unseen_items(self, items: list[JsonObject]) -> list[JsonObject]:
        new = []
        for item in items:
            item_id = self.kind.item_id(item)
            if item_id and item_id in self._seen:  # the list shifted between pages
                continue
            self._seen.add(item_id)
            new.append(item)
        return new
