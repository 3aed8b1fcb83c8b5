"""The list endpoints' page envelope: its query and its shape, with neither httpx nor pydantic.

Shared by the typed client (`page_json`) and the console's first-page reader (plain_get).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from console.client.errors import UnexpectedResponse

Params = Sequence[tuple[str, str]]

PAGINATION_FIELDS = ("page_number", "page_size", "total_pages", "total_items")


def page_params(page: int, size: int, filters: Params = ()) -> list[tuple[str, str]]:
    """The query of one page of a list endpoint."""
    return [("page", str(page)), ("size", str(size)), *filters]


def is_envelope(data: Any) -> bool:
    """Whether `data` has the page envelope's shape: `data` (objects) and `pagination`
    (whole numbers). The objects themselves are not validated here."""
    if not isinstance(data, dict):
        return False
    pagination, items = data.get("pagination"), data.get("data")
    return (
        isinstance(pagination, dict)
        and all(type(pagination.get(k)) is int for k in PAGINATION_FIELDS)
        and isinstance(items, list)
        and all(isinstance(item, dict) for item in items)
    )


def checked_envelope(data: Any, *, method: str, path: str) -> dict[str, Any]:
    """`data` if it is a page envelope; else the client's UnexpectedResponse."""
    if not is_envelope(data):
        raise UnexpectedResponse(
            200,
            "Unexpected answer",
            "The service's answer does not match the API at its page envelope",
            method=method,
            path=path,
        )
    return data
