"""Paged, filtered, stably ordered listing shared by the list endpoints.

Two ways to page, as the hosted service has them. By number (`page`, `size`): the envelope
has the totals. By cursor (`start`, `size`): `start` is the `after` of the page before (or
empty for the first page), the envelope is `{"page_size": ..., "after": ...}` with `after`
null on the last page, and no totals are counted. The vendor's SDK pagers keep `start` as
given and count `page` up until a page comes back empty, so with a cursor `page` counts
pages after the cursor: both walks see every item once.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
_LAST_ROW = 2**62
"""An offset past any table: a page that far is empty without asking SQLite (whose
integers would overflow)."""


@dataclass(frozen=True)
class PageRequest:
    page: int = 1
    size: int = DEFAULT_PAGE_SIZE
    start: str | None = None
    """A cursor (`after` of an earlier page), "" for the first page; None: pages by number."""

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.size


class BadCursor(ValueError):
    """A `start` this service did not give."""


@dataclass(frozen=True)
class Order:
    """How a list is ordered: by `created_at`, then by `tie` (a unique column), oldest first
    (the objects' lists) or newest first (the audit logs, tied by their `seq`)."""

    tie: str = "id"
    newest_first: bool = False

    @property
    def sql(self) -> str:
        direction = " DESC" if self.newest_first else ""
        return f"created_at{direction}, {self.tie}{direction}"

    @property
    def after(self) -> str:
        """The comparison that keeps the rows a cursor stands before."""
        return "<" if self.newest_first else ">"


OLDEST_FIRST = Order()
NEWEST_FIRST_BY_SEQ = Order(tie="seq", newest_first=True)


def cursor_of(row: sqlite3.Row, order: Order = OLDEST_FIRST) -> str:
    """The opaque cursor after `row` in the list's order (created_at, then its tie)."""
    raw = json.dumps([row["created_at"], row[order.tie]], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def read_cursor(cursor: str) -> tuple[str, str | int] | None:
    """(created_at, tie) a cursor stands after; None for "" (the first page). The tie is an
    id (text) or a sequence number (an integer, the logs')."""
    if cursor == "":
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        created_at, tie = json.loads(raw)
    except (binascii.Error, ValueError, TypeError):
        raise BadCursor(cursor) from None
    tie_ok = isinstance(tie, str) or (type(tie) is int and 0 <= tie < _LAST_ROW)
    if not (isinstance(created_at, str) and tie_ok):
        raise BadCursor(cursor)
    return created_at, tie


def name_pattern(value: str) -> str:
    """The `name` filter as a LIKE pattern: contains, `*` matches any run, case folded."""
    escaped = value.casefold().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return "%" + escaped.replace("*", "%") + "%"


def page_of(
    conn: sqlite3.Connection,
    table: str,
    where: str,
    params: Sequence[Any],
    request: PageRequest,
    view: Callable[[sqlite3.Row], dict[str, Any]],
    *,
    columns: tuple[str, Sequence[Any]] = ("*", ()),
    order: Order = OLDEST_FIRST,
) -> dict[str, Any]:
    """One page envelope: one COUNT and one indexed, ordered SELECT (by cursor: the SELECT
    alone, one row more than the page to know whether another follows).

    `columns` is the select list with its own parameters (a computed column needs some).
    """
    if request.start is not None:
        return _cursor_page(conn, table, where, params, request, view, columns, order)
    total = conn.execute(f"SELECT count(*) FROM {table} WHERE {where}", params).fetchone()[0]
    rows = []
    if request.offset < total:  # also keeps a huge page number away from SQLite's integers
        select, select_params = columns
        rows = conn.execute(
            f"SELECT {select} FROM {table} WHERE {where} ORDER BY {order.sql} LIMIT ? OFFSET ?",
            [*select_params, *params, request.size, request.offset],
        ).fetchall()
    return {
        "pagination": {
            "total_items": total,
            "page_number": request.page,
            "page_size": request.size,
            "total_pages": math.ceil(total / request.size),
        },
        "data": [view(row) for row in rows],
    }


def _cursor_page(
    conn: sqlite3.Connection,
    table: str,
    where: str,
    params: Sequence[Any],
    request: PageRequest,
    view: Callable[[sqlite3.Row], dict[str, Any]],
    columns: tuple[str, Sequence[Any]],
    order: Order,
) -> dict[str, Any]:
    after = read_cursor(request.start or "")
    params = list(params)
    if after is not None:
        where = f"({where}) AND (created_at, {order.tie}) {order.after} (?, ?)"
        params += after
    rows: list[sqlite3.Row] = []
    if request.offset < _LAST_ROW:
        select, select_params = columns
        rows = conn.execute(
            f"SELECT {select} FROM {table} WHERE {where} ORDER BY {order.sql} LIMIT ? OFFSET ?",
            [*select_params, *params, request.size + 1, request.offset],
        ).fetchall()
    shown = rows[: request.size]
    more = len(rows) > request.size
    after_page = cursor_of(shown[-1], order) if more else None
    return {
        "pagination": {"page_size": request.size, "after": after_page},
        "data": [view(row) for row in shown],
    }


def in_clause(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join('?' for _ in values)})"
