"""Reading a tenant into a configuration document, page by page (a few in flight, never the
tenant in one request).

Objects are read as sent (`page_json`), not as models: an object the console's models do not
accept is still part of the tenant, and an export must not silently leave it out.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from console.estate.document import (
    Document,
    application_item,
    formula_item,
    make_document,
    proxy_item,
)
from console.estate.validate import TargetFacts

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
        for a tenant (an application to create must expire after it)."""
        applications: dict[str, tuple[str | None, frozenset[str]]] = {}
        for item in self.document.get("applications") or []:
            name = str(item.get("name"))
            held = {*item.get("permissions", [])}
            for rule in item.get("rules") or []:
                held.update(rule.get("permissions") or [])
            if name in applications:  # a name twice: the plan leaves both alone
                held.update(applications[name][1])
            applications[name] = (item.get("type"), frozenset(held))
        return TargetFacts(applications, self.catalogue, now)


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


async def read_tenant(client: AdminClient, *, own_application: bool = False) -> TenantSnapshot:
    """The tenant `client`'s key belongs to. `own_application`: also ask which application
    holds that key (a prune must never delete it)."""
    tenant = await client.tenant.get()
    ids: dict[str, dict[str, list[str]]] = {"applications": {}, "proxies": {}}
    ids["reactor_formulas"] = {}

    def remember(kind: str, row: dict[str, Any]) -> None:
        ids[kind].setdefault(str(row.get("name")), []).append(str(row.get("id")))

    applications, names_by_id = [], {}
    budget = getattr(client, "budget", None)
    async for row in walk(
        lambda p, s: client.applications.page_json(page=p, size=s), budget=budget
    ):
        applications.append(application_item(row))
        names_by_id[str(row.get("id"))] = row.get("name")
        remember("applications", row)
    proxies = []
    async for row in walk(lambda p, s: client.proxies.page_json(page=p, size=s), budget=budget):
        application_id = row.get("application_id")
        name = names_by_id.get(str(application_id)) if application_id else None
        proxies.append(proxy_item(row, name))
        remember("proxies", row)
    formulas = []
    async for row in walk(
        lambda p, s: client.reactor_formulas.page_json(page=p, size=s), budget=budget
    ):
        if row.get("type") != "private":  # official formulas belong to the operator
            continue
        formulas.append(formula_item(row))
        remember("reactor_formulas", row)
    own = None
    if own_application:
        own = str((await client.applications.current()).id)
    settings = dict(tenant.settings)
    document = make_document(tenant.name, settings, applications, proxies, formulas)
    return TenantSnapshot(document, tenant.name, settings, ids, own)


async def read_objects(client: AdminClient, wanted: dict[str, set[str]]) -> TenantSnapshot:
    """Only the named objects (a promotion), and for each proxy its application: proxies and
    formulas through the service's name filter, applications by walking their pages (the
    API filters them by id only). No settings: a promotion leaves them alone."""
    names = {kind: set(found) for kind, found in wanted.items()}
    ids: dict[str, dict[str, list[str]]] = {"applications": {}, "proxies": {}}
    ids["reactor_formulas"] = {}
    rows: dict[str, list[dict[str, Any]]] = {"applications": [], "proxies": []}
    rows["reactor_formulas"] = []
    for kind in ("proxies", "reactor_formulas"):
        for name in sorted(names.get(kind, ())):
            async for row in walk(
                _by_name(client, kind, name), budget=getattr(client, "budget", None)
            ):
                if row.get("name") != name:  # the filter matches names containing it
                    continue
                if kind == "reactor_formulas" and row.get("type") != "private":
                    continue
                rows[kind].append(row)
    application_names: dict[str, str] = {}
    applications: list[dict[str, Any]] = []
    async for row in walk(
        lambda p, s: client.applications.page_json(page=p, size=s),
        budget=getattr(client, "budget", None),
    ):
        application_names[str(row.get("id"))] = str(row.get("name"))
        applications.append(row)
    proxies = []
    wanted_applications = set(names.get("applications", ()))
    for row in rows["proxies"]:
        application_id = row.get("application_id")
        uses = application_names.get(str(application_id)) if application_id else None
        if uses is not None:
            wanted_applications.add(uses)
        proxies.append(proxy_item(row, uses))
    # Every application's id is kept (a proxy may need any of them); only the wanted ones
    # are in the document.
    for row in applications:
        ids["applications"].setdefault(str(row.get("name")), []).append(str(row.get("id")))
    for kind in ("proxies", "reactor_formulas"):
        for row in rows[kind]:
            ids[kind].setdefault(str(row.get("name")), []).append(str(row.get("id")))
    document = make_document(
        None,
        {},
        [application_item(r) for r in applications if r.get("name") in wanted_applications],
        proxies,
        [formula_item(r) for r in rows["reactor_formulas"]],
    )
    return TenantSnapshot(document, "", {}, ids)


def _by_name(client: AdminClient, kind: str, name: str) -> PageFetch:
    """The pages of proxies or formulas whose names contain `name`."""
    if kind == "proxies":
        return lambda page, size: client.proxies.page_json(page=page, size=size, name=name)
    return lambda page, size: client.reactor_formulas.page_json(page=page, size=size, name=name)
