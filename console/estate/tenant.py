"""Reading a tenant into a configuration document, page by page (a few in flight, never the
tenant in one request).

Objects are read as sent (`page_json`), not as models: an object the console's models do not
accept is still part of the tenant, and an export must not silently leave it out.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import aclosing
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from console.estate import kind_requests
from console.estate.document import Document, make_document, normal_item
from console.estate.travelling import estate_of, in_apply_order, in_document
from console.kinds import Kind
from console.kinds.estate_facet import Item, TargetFacts
from console.kinds.reference import Reference

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.client.budget import RequestBudget

log = logging.getLogger("console.estate")

PAGE_SIZE = 100
"""The service's largest page: fewest round trips."""
MAX_PAGES = 10_000
"""A bound on a walk, should a service never say it is done."""

PageFetch = Callable[[int, int], Awaitable[dict[str, Any]]]


async def walk(
    fetch: PageFetch, size: int = PAGE_SIZE, *, budget: RequestBudget | None = None
) -> AsyncIterator[dict[str, Any]]:
    """Every object of a collection in the service's (stable) order, a few pages in flight
    (console.client.walk); `budget`: the client's, so a 429 or 5xx sends fewer at once."""
    from console.client.walk import PageEnd, envelope_end, walk_pages

    def end_of(envelope: dict[str, Any], page: int) -> PageEnd:
        rows = envelope.get("data") or []
        end = envelope_end(envelope, page, size)
        return PageEnd(end.has_more and len(rows) >= size, end.total_pages)

    pages = walk_pages(lambda page: fetch(page, size), end_of, budget=budget, max_pages=MAX_PAGES)
    async with aclosing(pages):
        async for _page, envelope in pages:
            for row in envelope.get("data") or []:
                if isinstance(row, dict):
                    yield row


@dataclass
class TenantSnapshot:
    """A tenant's configuration document and what only the tenant knows: each object's id
    (by kind and name; a name may have several), its tenant's name and raw settings."""

    document: Document
    tenant_name: str
    settings: dict[str, Any]
    ids: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    own_application_id: str | None = None
    """The application whose key reads this tenant: never deleted by a prune."""

    catalogue: dict[str, list[str]] | None = None
    """The service's permission catalogue (permission -> application types), when read."""

    def id_of(self, kind: str, name: str) -> str | None:
        found = self.ids.get(kind, {}).get(name, [])
        return found[0] if len(found) == 1 else None

    def facts(self, now: datetime | None = None) -> TargetFacts:
        """What a file is checked against on this target (console.estate.validate); `now`
        for a tenant (an object to create must expire after it)."""
        objects = {kind.key: self.document.get(kind.key) or [] for kind in in_document()}
        return TargetFacts(objects, self.catalogue, now)


async def read_catalogue(client: AdminClient) -> dict[str, list[str]] | None:
    """The service's permission catalogue (`GET /permissions`): permission -> the application
    types that may hold it. None if it cannot be read: permissions are then not checked
    before sending (the service still judges them), and the log says why."""
    from console.client import ApiError

    try:
        rows = await client.permissions.list_json()
    except ApiError:
        log.warning("The permission catalogue could not be read", exc_info=True)
        return None
    catalogue: dict[str, list[str]] = {}
    for row in rows:
        kinds = row.get("application_types")
        if isinstance(row.get("type"), str) and isinstance(kinds, list):
            catalogue[row["type"]] = [k for k in kinds if isinstance(k, str)]
    return catalogue


Rows = dict[str, list[dict[str, Any]]]
"""Objects as sent, by kind key."""


async def read_tenant(client: AdminClient, *, own_application: bool = False) -> TenantSnapshot:
    """The tenant `client`'s key belongs to: every travelling kind walked whole, a kind
    another refers to first. `own_application`: also ask which application holds that key
    (a prune must never delete it)."""
    tenant = await client.tenant.get()
    rows: Rows = {}
    for kind in in_apply_order():
        rows[kind.key] = [row async for row in _walk(client, kind) if estate_of(kind).travels(row)]
    own = None
    if own_application:
        own = str((await client.applications.current()).id)
    settings = dict(tenant.settings)
    document = make_document(tenant.name, settings, _normal(rows))
    return TenantSnapshot(document, tenant.name, settings, _ids(rows), own)


async def read_objects(client: AdminClient, wanted: dict[str, set[str]]) -> TenantSnapshot:
    """Only the named objects (a promotion), and what each refers to (a proxy's
    application): a kind with the service's name filter asked by name (proxies, formulas),
    another walked whole (applications: the API filters them by id only), and so is a kind
    others refer to, whose every id is kept (a proxy may need any of them). No settings: a
    promotion leaves them alone."""
    kinds = in_apply_order()
    referred = {ref.kind for kind in kinds for ref in estate_of(kind).references}
    rows: Rows = {}
    for kind in in_document():  # by name first, then the walks
        if kind.name_filter and kind.key not in referred:
            rows[kind.key] = await _named(client, kind, sorted(wanted.get(kind.key, ())))
    for kind in kinds:
        if kind.key not in rows and (kind.key in referred or wanted.get(kind.key)):
            travels = estate_of(kind).travels
            rows[kind.key] = [row async for row in _walk(client, kind) if travels(row)]
    # What each wanted object refers to is wanted too; referring kinds come later in apply
    # order, so they are read from the last back.
    keep = {kind.key: set(wanted.get(kind.key, ())) for kind in kinds}
    uses = _names_by_id(rows)
    for kind in reversed(kinds):
        for row in rows.get(kind.key, []):
            if str(row.get(kind.name_field)) not in keep[kind.key]:
                continue
            for ref in estate_of(kind).references:
                name = _referred(row, ref, uses.get(ref.kind, {}))
                if name is not None:
                    keep[ref.kind].add(name)
    chosen = {
        kind.key: [row for row in rows[kind.key] if str(row.get(kind.name_field)) in keep[kind.key]]
        for kind in kinds
        if kind.key in rows
    }
    document = make_document(None, {}, _normal(chosen, uses))
    return TenantSnapshot(document, "", {}, _ids(rows))


async def _walk(client: AdminClient, kind: Kind, name: str | None = None) -> AsyncIterator[Item]:
    """Every object of `kind` as sent (those whose names contain `name`, if given); none
    when the service does not offer the kind."""

    from console.client import NotOffered

    def fetch(page: int, size: int) -> Awaitable[dict[str, Any]]:
        return kind_requests.page_json(client, kind, page, size, name)

    try:
        async for row in walk(fetch, budget=client.budget):
            yield row
    except NotOffered as missing:
        # A service without the kind (reactors before the hosted service had them, formulas
        # after it retired them) holds none of it: the document's section stays empty.
        log.info("The service does not offer %s: %s", kind.nouns.plural, missing)


async def _named(client: AdminClient, kind: Kind, names: list[str]) -> list[Item]:
    """The objects of `kind` named exactly so, through the service's name filter."""
    travels = estate_of(kind).travels
    found = []
    for name in names:
        async for row in _walk(client, kind, name):
            if row.get(kind.name_field) != name:  # the filter matches names containing it
                continue
            if travels(row):
                found.append(row)
    return found


def _names_by_id(rows: Rows) -> dict[str, dict[str, Any]]:
    """Each object's name by its id, by kind key: what a reference by id names."""
    found: dict[str, dict[str, Any]] = {}
    for kind in in_apply_order():
        by_id, by_name = kind.id_field, kind.name_field
        found[kind.key] = {str(r.get(by_id)): r.get(by_name) for r in rows.get(kind.key, [])}
    return found


def _referred(row: Mapping[str, Any], reference: Reference, names: Mapping[str, Any]) -> Any:
    """The name of the object `row` refers to through `reference`, or None."""
    other = reference.read(row)
    return names.get(str(other)) if other else None


def _normal(
    rows: Rows, names_by_id: dict[str, dict[str, Any]] | None = None
) -> dict[str, list[Item]]:
    """Each kind's objects in normal form, references by name."""
    uses = names_by_id if names_by_id is not None else _names_by_id(rows)
    objects: dict[str, list[Item]] = {}
    for kind in in_apply_order():
        references = estate_of(kind).references
        items = []
        for row in rows.get(kind.key, []):
            names = {ref.field: _referred(row, ref, uses.get(ref.kind, {})) for ref in references}
            items.append(normal_item(kind, row, names))
        objects[kind.key] = items
    return objects


def _ids(rows: Rows) -> dict[str, dict[str, list[str]]]:
    """Each object's id, by kind and name (a name may have several)."""
    ids: dict[str, dict[str, list[str]]] = {}
    for kind in in_apply_order():
        by_name = ids[kind.key] = {}
        for row in rows.get(kind.key, []):
            name, object_id = row.get(kind.name_field), row.get(kind.id_field)
            by_name.setdefault(str(name), []).append(str(object_id))
    return ids
