"""Paged, filtered, stably ordered listing shared by the list endpoints."""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


@dataclass(frozen=True)
class PageRequest:
    page: int = 1
    size: int = DEFAULT_PAGE_SIZE

    @property
    def offset(self) -> int:
        return (self.page - 1) * self.size


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
) -> dict[str, Any]:
    """One page envelope: one COUNT and one indexed, ordered SELECT.

    `columns` is the select list with its own parameters (a computed column needs some).
    """
    total = conn.execute(f"SELECT count(*) FROM {table} WHERE {where}", params).fetchone()[0]
    rows = []
    if request.offset < total:  # also keeps a huge page number away from SQLite's integers
        select, select_params = columns
        rows = conn.execute(
            f"SELECT {select} FROM {table} WHERE {where} ORDER BY created_at, id LIMIT ? OFFSET ?",
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


def in_clause(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join('?' for _ in values)})"
