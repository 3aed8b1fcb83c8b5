"""`page_json` and `list_json`: the pages as sent, for views that only show rows."""

from __future__ import annotations

from typing import Any

import pytest
from client_helpers import FAST_RETRY
from client_stub import Respond

from console.client import AdminClient, UnexpectedResponse


async def test_pages_as_sent_match_the_typed_pages(client: AdminClient) -> None:
    for name in ("Orders EU", "Orders US", "Billing"):
        await client.proxies.create({"name": name, "destination_url": "https://example.com"})
    typed = await client.proxies.list(page=1, size=2, name="orders")
    as_sent = await client.proxies.page_json(page=1, size=2, name="orders")
    assert [p["name"] for p in as_sent["data"]] == [p.name for p in typed.data]
    assert as_sent["pagination"] == typed.pagination.model_dump()
    formulas = await client.reactor_formulas.page_json(page=1, size=5)
    assert formulas["pagination"]["total_items"] >= len(formulas["data"]) > 0
    apps = await client.applications.page_json(page=1, size=5)
    one = apps["data"][0]
    assert (await client.applications.page_json(ids=[one["id"]]))["data"] == [one]


async def test_permissions_as_sent(client: AdminClient) -> None:
    typed = await client.permissions.list("public")
    as_sent = await client.permissions.list_json("public")
    assert [p["type"] for p in as_sent] == [p.type for p in typed]


@pytest.mark.parametrize(
    "body",
    [
        {"pagination": {}},
        {"data": "x", "pagination": {}},
        {"data": [], "pagination": []},
        {
            "data": [],
            "pagination": {"page_number": "1", "page_size": 1, "total_pages": 1, "total_items": 0},
        },
    ],
)
async def test_a_page_of_another_shape_is_unexpected(stub: Any, body: Any) -> None:
    server = await stub(Respond(200, body))
    async with AdminClient(server.base_url, "k" * 20, retry=FAST_RETRY) as client:
        with pytest.raises(UnexpectedResponse, match="page envelope"):
            await client.applications.page_json()


@pytest.mark.parametrize(
    "body",
    [
        {"data": []},
        {"data": [1, None], "pagination": {"page_number": 1, "page_size": 2, "total_pages": 1}},
        {"data": [{"id": "x"}], "pagination": {"page_number": None, "total_items": None}},
    ],
)
async def test_a_page_without_totals_or_with_odd_items_is_still_a_page(
    stub: Any, body: Any
) -> None:
    """Totals may be missing (the list pages on by length) and items are judged one by one."""
    server = await stub(Respond(200, body))
    async with AdminClient(server.base_url, "k" * 20, retry=FAST_RETRY) as client:
        assert (await client.applications.page_json())["data"] == body["data"]
