"""Cursor paging on every list (issue 35): `start` (an opaque cursor, empty for the first
page) with `size` answers `pagination: {page_size, after}` (`after` null on the last page),
as the hosted service's cursor pages; page numbers are unchanged without `start`.

The vendor's SDK pagers keep `start` as given and count `page` up until a page is empty (the
Python SDK's `SyncPager` and the Node SDK's `Pageable` alike): both walks are checked here,
and following `after` by hand.
"""

from __future__ import annotations

from typing import Any

import pytest
from service_http import Caller, assert_invalid, describe, http_client

PATHS = {
    "/applications": lambda i: {
        "name": f"App {i}",
        "type": "private",
        "permissions": ["token:read"],
    },
    "/proxies": lambda i: {"name": f"Proxy {i}", "destination_url": "https://example.com"},
    "/reactor-formulas": lambda i: {"name": f"Formula {i}", "type": "private", "code": "x"},
}


@pytest.fixture(scope="module")
def tenant(service) -> Any:  # type: ignore[no-untyped-def]
    """A tenant holding seven of each kind (and its own management application)."""
    info = service.new_tenant("Cursor tenant")
    with http_client(service.base_url) as client:
        owner = Caller(client, info.key)
        for path, body in PATHS.items():
            for i in range(7):
                owner.created(path, body(i))
    return info


@pytest.fixture
def api(service, tenant) -> Any:  # type: ignore[no-untyped-def]
    with http_client(service.base_url) as client:
        yield Caller(client, tenant.key)


def page(api: Caller, path: str, **params: Any) -> dict[str, Any]:
    response = api.get(path, params=params)
    assert response.status_code == 200, describe(response)
    return response.json()


def every_id(api: Caller, path: str) -> list[str]:
    return [item["id"] for item in page(api, path, size=100)["data"]]


@pytest.mark.parametrize("path", list(PATHS))
def test_following_after_walks_every_item_once(api: Caller, path: str) -> None:
    seen: list[str] = []
    start = ""
    pages = 0
    while True:
        body = page(api, path, start=start, size=3)
        pages += 1
        assert set(body["pagination"]) == {"page_size", "after"}, body["pagination"]
        assert body["pagination"]["page_size"] == 3
        seen += [item["id"] for item in body["data"]]
        if body["pagination"]["after"] is None:
            break
        start = body["pagination"]["after"]
    assert seen == every_id(api, path)
    assert pages == -(-len(seen) // 3)


@pytest.mark.parametrize("path", list(PATHS))
def test_the_sdk_pagers_walk_keeping_start_and_counting_pages(api: Caller, path: str) -> None:
    """As the SDKs do: the same `start` each time, `page` one more, until a page is empty."""
    everything = every_id(api, path)
    cursor = page(api, path, start="", size=2)["pagination"]["after"]
    for start in ("", cursor):
        seen: list[str] = []
        number = 1
        while True:
            data = page(api, path, start=start, page=number, size=2)["data"]
            if not data:
                break
            seen += [item["id"] for item in data]
            number += 1
        assert seen == (everything if start == "" else everything[2:])


def test_page_numbers_are_unchanged_without_start(api: Caller) -> None:
    body = page(api, "/proxies", page=2, size=3)
    assert body["pagination"] == {
        "total_items": 7,
        "page_number": 2,
        "page_size": 3,
        "total_pages": 3,
    }


def test_a_cursor_keeps_its_place_when_the_item_it_names_goes(service) -> None:  # type: ignore[no-untyped-def]
    info = service.new_tenant("Cursor deletes")
    with http_client(service.base_url) as client:
        api = Caller(client, info.key)
        made = [api.created("/proxies", PATHS["/proxies"](i))["id"] for i in range(4)]
        first = page(api, "/proxies", start="", size=2)
        assert api.delete(f"/proxies/{made[1]}").status_code == 204
        rest = page(api, "/proxies", start=first["pagination"]["after"], size=2)
    assert [p["id"] for p in rest["data"]] == made[2:]
    assert rest["pagination"]["after"] is None


def test_a_cursor_works_with_the_filters(api: Caller) -> None:
    body = page(api, "/proxies", start="", size=2, name="Proxy 1")
    assert [p["name"] for p in body["data"]] == ["Proxy 1"]
    assert body["pagination"]["after"] is None


@pytest.mark.parametrize("start", ["not a cursor", "WzEsMl0", "x" * 1001])
def test_a_start_this_service_did_not_give_is_400(api: Caller, start: str) -> None:
    assert_invalid(api.get("/applications", params={"start": start}), "start")


def test_a_page_far_after_a_cursor_is_empty(api: Caller) -> None:
    body = page(api, "/applications", start="", page=10**17, size=100)
    assert body == {"pagination": {"page_size": 100, "after": None}, "data": []}
