"""What `/` reads (console.tui.browse.row_filter) and the tenant search's walk
(console.tui.browse.search), without a screen: column names, the colon of a permission, columns
skipped for speed that must still match what they can hold, the server filter each kind asks for,
and a walk that narrows and goes on."""

from __future__ import annotations

from typing import Any

import pytest

from console.tui.browse.kinds import (
    APPLICATIONS,
    PERMISSIONS,
    PROXIES,
    REACTOR_FORMULAS,
    Fetched,
    FilterInvalid,
)
from console.tui.browse.row_filter import column_named, parse_row_filter
from console.tui.browse.search import TenantSearch

APP = {
    "id": "5d1f0c3e-8a0e-4a37-9d43-0f6f2c4b9a11",
    "name": "Billing worker",
    "type": "private",
    "permissions": ["token:read"],
    "rules": [],
    "expires_at": "2027-03-04T05:06:00+00:00",
    "created_at": "2026-11-20T10:00:00+00:00",
}


def matches(kind: Any, text: str, item: dict[str, Any]) -> bool:
    return parse_row_filter(kind.columns, text).matches(kind, item, {})


def test_columns_are_named_by_key_label_or_a_unique_start() -> None:
    columns = APPLICATIONS.columns
    assert column_named(columns, "TYPE") == "type"
    assert column_named(columns, "permissions / rules") == "grants"
    assert column_named(columns, "perm") == "grants"
    assert column_named(columns, "id") == "id"
    assert column_named(columns, "e") == "expires"
    assert column_named(PROXIES.columns, "a") is None  # Auth or Application: it says neither
    assert column_named(columns, "colour") is None


def test_plain_text_any_column_and_one_column() -> None:
    assert matches(APPLICATIONS, "billing", APP)
    assert matches(APPLICATIONS, "PRIV", APP)  # the Type column
    assert matches(APPLICATIONS, "5d1f0c3e", APP)  # the id, though not a column
    assert matches(APPLICATIONS, "type:private", APP)
    assert not matches(APPLICATIONS, "name:private", APP)
    assert matches(APPLICATIONS, "name:bill*worker", APP)  # `*` as the server reads it
    # Columns skipped for a term they cannot hold still match what they can.
    assert matches(APPLICATIONS, "2027-03", APP) and matches(APPLICATIONS, "expires:2027", APP)
    assert matches(APPLICATIONS, "1 permission", APP)
    assert not matches(APPLICATIONS, "created:never", APP)


def test_a_colon_that_names_no_column_is_text() -> None:
    read = {"type": "token:read", "description": "Read tokens", "application_types": ["private"]}
    row_filter = parse_row_filter(PERMISSIONS.columns, "token:read")
    assert row_filter.not_a_column == "token" and row_filter.term == "token:read"
    assert row_filter.matches(PERMISSIONS, read, {})


def test_enter_asks_the_server_what_the_api_filters() -> None:
    def query(kind: Any, text: str) -> Any:
        return kind.server_query(parse_row_filter(kind.columns, text))

    assert query(APPLICATIONS, APP["id"]) == {"ids": (APP["id"],)}
    assert query(APPLICATIONS, "billing") is None  # the tenant is searched
    assert query(PROXIES, "orders*eu") == {"name": "orders*eu"}
    assert query(PROXIES, f"id:{APP['id']}") == {"ids": (APP["id"],)}
    assert query(PROXIES, "destination:example") is None
    assert query(REACTOR_FORMULAS, "name:scoring") == {"name": "scoring"}
    assert query(PERMISSIONS, "Public") == {"application_type": "public"}
    assert query(PERMISSIONS, "token") is None
    with pytest.raises(FilterInvalid):
        query(PERMISSIONS, "types:robots")
    with pytest.raises(FilterInvalid):
        query(APPLICATIONS, "id:5d1f")


async def test_a_walk_keeps_its_matches_narrows_and_goes_on() -> None:
    names = [f"App {n:03}" for n in range(250)]
    asked: list[int] = []

    async def fetch(page: int, size: int) -> Fetched:
        asked.append(page)
        numbers = range((page - 1) * size, min(page * size, len(names)))
        rows = [{"id": str(n), "name": names[n]} for n in numbers]
        return Fetched(rows, len(names), page, page * size < len(names))

    def matcher(text: str) -> Any:
        return lambda item, labels: text in item["name"]

    search = TenantSearch(fetch, matcher("App 1"), lambda item: item["id"])
    walk = search.walk()
    first = await anext(walk)
    assert first == []  # App 000 to App 099
    assert search.page == 1 and search.pages == 3 and search.progress == "page 1 of 3, 0 matches"
    await walk.aclose()  # stopped: the page asked for in advance is dropped
    assert search.page == 1

    narrower = search.narrowed(matcher("App 12"))
    found = [item["name"] async for new in narrower.walk() for item in new]
    assert found == [f"App {n}" for n in range(120, 130)]
    assert narrower.done and narrower.page == 3 and narrower.matched == 10
    assert asked.count(1) == 1  # page 1 was read once: the narrower walk went on from it
