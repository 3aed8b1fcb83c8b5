"""`/logs`: the tenant's audit log, newest first, and the entity types it names.

Entries are written by every management write (console.service.changes); they are read here
within the service's log retention (`serve --log-retention`, the app's `log_retention`), and
the periodic sweep deletes older ones (console.service.api.applications). The service has no
actor filter, as the hosted one has none: the console filters by actor itself.
"""

from __future__ import annotations

from datetime import timedelta

from fastapi import Request
from fastapi.responses import JSONResponse

from console.kinds import KINDS
from console.kinds.builtin import LOGS
from console.models import Page
from console.models.logs import Log, LogEntityType
from console.service.api.docs import ServiceRouter, route, tag_of
from console.service.api.query import AcceptedQuery
from console.service.api.serving import serving
from console.service.store import logs as rows
from console.service.timestamps import stamp

router = ServiceRouter(tags=[tag_of(LOGS)])
LIST_QUERY = AcceptedQuery(
    "entity_type", "entity_id", "start_date", "end_date", "page", "start", "size"
)
ENTITY_TYPES = LOGS.path + "/entity-types"


def entity_types() -> list[dict[str, str]]:
    """Every entity type logs name: each registered kind's `log_entity`, with its singular
    capitalised for a person ("Reactor formula")."""
    listed: list[dict[str, str]] = []
    for kind in KINDS:
        if kind.log_entity and kind.log_entity not in {e["value"] for e in listed}:
            singular = kind.nouns.singular
            listed.append(
                {"display_name": singular[:1].upper() + singular[1:], "value": kind.log_entity}
            )
    return listed


@router.get(
    LOGS.path,
    **route(200, Page[Log], query=LIST_QUERY, summary="List audit log entries, newest first"),
)
def list_logs(request: Request) -> JSONResponse:
    with serving(request, query=LIST_QUERY) as served:
        query = served.query
        retention = timedelta(seconds=request.app.state.log_retention)
        page = rows.page(
            served.conn,
            served.tenant_id,
            query.paging,
            kept_since=stamp(served.clock.moment - retention),
            entity_type=query.entity_type,
            entity_id=query.entity_id,
            start=None if query.start_date is None else stamp(query.start_date),
            end=None if query.end_date is None else stamp(query.end_date),
        )
        return JSONResponse(page)


@router.get(
    ENTITY_TYPES,
    **route(200, list[LogEntityType], summary="List the entity types audit logs name"),
)
def list_entity_types(request: Request) -> JSONResponse:
    with serving(request):
        return JSONResponse(entity_types())
