"""`client.logs`: the audit logs (`GET /logs`, `GET /logs/entity-types`), newest first.

A page is answered as sent (the envelope checked, its entries left as dicts) for views that
only show rows; `iterate` follows the cursor (`start`, then each page's `after`) and yields
`Log` models, as the hosted service pages its logs by cursor only. The service filters by
entity and time; it has no actor filter (the archive and the command line filter by actor
themselves). Times go out as ISO 8601 in UTC.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from console.client.envelope import checked_envelope
from console.client.errors import UnexpectedResponse
from console.kinds import LOGS

if TYPE_CHECKING:
    from console.client._http import HttpSession
    from console.models.logs import Log, LogEntityType

log = logging.getLogger("console.client")

LOG_PAGE_SIZE = 100
"""The largest page the service serves: fewest round trips for a walk or a sync."""
MAX_CURSOR_PAGES = 100_000
"""A guard against a service whose cursor never ends."""

When = datetime | str


def when_param(value: When) -> str:
    """A time as the `start_date`/`end_date` query takes it: a datetime in UTC ISO 8601 (one
    without a zone is taken as UTC), a string as given (a date, or a date-time)."""
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return moment.astimezone(UTC).isoformat()
    return value


def log_filters(
    *,
    entity_type: str | None = None,
    entity_id: str | None = None,
    start_date: When | None = None,
    end_date: When | None = None,
) -> list[tuple[str, str]]:
    """The query of the service's filters (those given)."""
    params: list[tuple[str, str]] = []
    if entity_type:
        params.append(("entity_type", entity_type))
    if entity_id:
        params.append(("entity_id", entity_id))
    if start_date is not None:
        params.append(("start_date", when_param(start_date)))
    if end_date is not None:
        params.append(("end_date", when_param(end_date)))
    return params


class Logs:
    """`client.logs`: one page, every entry by cursor, and the entity types."""

    path = LOGS.path

    def __init__(self, session: HttpSession) -> None:
        self._session = session

    async def page(
        self,
        *,
        entity_type: str | None = None,
        entity_id: str | None = None,
        start_date: When | None = None,
        end_date: When | None = None,
        size: int = LOG_PAGE_SIZE,
        start: str | None = None,
        number: int = 1,
    ) -> dict[str, Any]:
        """One page as sent (its envelope checked), newest first. `start` pages by cursor (""
        for the first page, then the `after` of the page before): the envelope's pagination is
        then `{page_size, after}`; without it the page is `number`, with the totals."""
        params = log_filters(
            entity_type=entity_type, entity_id=entity_id, start_date=start_date, end_date=end_date
        )
        params.append(("size", str(size)))
        if start is not None:
            params.append(("start", start))
        else:
            params.append(("page", str(number)))
        data = await self._session.request("GET", self.path, params=params)
        return checked_envelope(data, method="GET", path=self.path)

    async def iterate(
        self,
        *,
        entity_type: str | None = None,
        entity_id: str | None = None,
        start_date: When | None = None,
        end_date: When | None = None,
        size: int = LOG_PAGE_SIZE,
    ) -> AsyncIterator[Log]:
        """Every entry the filters select, newest first, a page at a time as the loop goes on
        (one request in flight: a cursor names only the page after the one read). An entry
        that cannot be read as a Log is logged and skipped."""
        from console.models.logs import Log

        cursor = ""
        for _ in range(MAX_CURSOR_PAGES):
            envelope = await self.page(
                entity_type=entity_type,
                entity_id=entity_id,
                start_date=start_date,
                end_date=end_date,
                size=size,
                start=cursor,
            )
            for item in envelope["data"]:
                try:
                    yield Log.model_validate(item)
                except ValidationError as exc:
                    log.warning("Skipped a log entry the console cannot read: %s", _where(exc))
            after = (envelope.get("pagination") or {}).get("after")
            if not envelope["data"] or not after or not isinstance(after, str):
                return
            if after == cursor:  # a cursor that does not move would loop for ever
                raise UnexpectedResponse(
                    200,
                    "Unexpected answer",
                    "The service's log pages repeat the same cursor",
                    method="GET",
                    path=self.path,
                )
            cursor = after

    async def entity_types(self) -> list[LogEntityType]:
        """What a log's `entity_type` may be, with the names a person reads."""
        from console.client.resources import parse_response
        from console.models.logs import LogEntityType

        path = f"{self.path}/entity-types"
        data = await self._session.request("GET", path)
        if not isinstance(data, list):
            raise UnexpectedResponse(
                200,
                "Unexpected answer",
                "The service's entity types are not a list",
                method="GET",
                path=path,
            )
        return [parse_response(LogEntityType, item, method="GET", path=path) for item in data]


def _where(exc: ValidationError) -> str:
    """Where an entry was wrong (the path of the first bad field), never its values."""
    from console.models.errors import field_errors

    errors = field_errors(exc)
    return next(iter(errors), "its top level")
