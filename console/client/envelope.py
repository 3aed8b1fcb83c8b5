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
    """Whether `data` has the page envelope's shape: a `data` list and, if any, a
    `pagination` object whose numbers (each may be missing or null) are whole numbers.

    Neither the items nor the presence of the totals are checked here: a list shows an item
    it cannot read as such, and pages on without totals (see page_numbers)."""
    if not isinstance(data, dict) or not isinstance(data.get("data"), list):
        return False
    pagination = data.get("pagination")
    if pagination is None:
        return True
    return isinstance(pagination, dict) and all(
        pagination.get(k) is None or type(pagination.get(k)) is int for k in PAGINATION_FIELDS
    )


def page_numbers(envelope: dict[str, Any], page: int, size: int) -> tuple[int | None, bool]:
    """`(total_items, has_more)` of a checked envelope asked for with `page` and `size`.

    With the totals, they decide; without them, a full page means another may follow, and a
    short or empty one is the last."""
    pagination = envelope.get("pagination") or {}
    total, pages = pagination.get("total_items"), pagination.get("total_pages")
    number = pagination.get("page_number") or page
    if pages is not None:
        return total, number < pages
    return total, len(envelope["data"]) >= size > 0


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
