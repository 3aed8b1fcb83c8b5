"""One small class per resource group: what `c.applications`, `c.proxies`, ... offer.

Each method is one endpoint of the specification; results are the models of console.models.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import aclosing
from typing import Any, ClassVar, Generic, TypeVar
from uuid import UUID

from pydantic import BaseModel, ValidationError

from console.client._http import HttpSession, Params
from console.client.envelope import checked_envelope, page_params
from console.client.errors import NotFound, NotOffered, UnexpectedResponse
from console.client.paths import segment
from console.models import (
    Application,
    ApplicationCreate,
    ApplicationUpdate,
    Page,
    Pagination,
    Permission,
    Proxy,
    ProxyCreate,
    ProxyUpdate,
    ReactorFormula,
    ReactorFormulaCreate,
    ReactorFormulaUpdate,
    RequestModel,
    Tenant,
    TenantUpdate,
    UsageReport,
)
from console.models.errors import field_errors

M = TypeVar("M", bound=BaseModel)
Id = UUID | str
Payload = RequestModel | Mapping[str, Any]

ITERATE_PAGE_SIZE = 100
"""Pages fetched by `iterate`: the largest the service allows, so fewest round trips."""


def body_of(payload: Payload | BaseModel) -> dict[str, Any]:
    """What goes on the wire: a request model's JSON form, or a plain dict as given.

    A dict is not validated here: the service is the judge, and its 400 says why.
    """
    if isinstance(payload, RequestModel):
        return payload.to_json()
    if isinstance(payload, BaseModel):
        return payload.model_dump(mode="json")
    if isinstance(payload, Mapping):
        return dict(payload)
    raise TypeError(f"A payload must be a request model or a dict, not {type(payload).__name__}.")


def parse_response(model: type[M] | Any, data: Any, *, method: str, path: str) -> Any:
    """The response body as `model`; an answer of the wrong shape is an ApiError too."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        # field_errors holds paths and sentences, never the input values (which may be keys).
        errors = field_errors(exc)
    # Raised outside the except block, so no chained ValidationError carries the input.
    where = next(iter(errors), "")
    raise UnexpectedResponse(
        200,
        "Unexpected answer",
        f"The service's answer does not match the API at {where or 'its top level'}",
        errors,
        method=method,
        path=path,
    )


def _segment(id: Id) -> str:
    """An id as one path segment; UnsafePath (nothing sent) for `..`, `a/b` and the like."""
    return segment(id)


def _ids(ids: Iterable[Id]) -> Params:
    if isinstance(ids, str | UUID):  # a lone id, not an iterable of characters
        ids = [ids]
    return [("id", str(i)) for i in ids]


class _Resource:
    def __init__(self, session: HttpSession) -> None:
        self._session = session

    async def _call(
        self,
        method: str,
        path: str,
        model: Any = None,
        *,
        params: Params | None = None,
        body: Any = None,
    ) -> Any:
        data = await self._session.request(method, path, params=params, body=body)
        if model is None:
            return None
        return parse_response(model, data, method=method, path=path)


class _Collection(_Resource, Generic[M]):
    """The endpoints a paged collection shares: list, get, create, update, delete."""

    path: ClassVar[str]
    model: ClassVar[type[BaseModel]]

    async def _list(self, page: int, size: int, filters: Params) -> Page[M]:
        """One page as models. An item that does not match the model goes to `unreadable`
        (as sent) instead of failing the page; missing page numbers are the ones asked for."""
        envelope = await self._page_json(page, size, filters)
        data, unreadable = [], []
        for item in envelope["data"]:
            try:
                data.append(self.model.model_validate(item))
            except ValidationError:
                unreadable.append(item)
        pagination = dict(envelope.get("pagination") or {})
        pagination.setdefault("page_number", page)
        pagination.setdefault("page_size", size)
        for name, asked in (("page_number", page), ("page_size", size)):
            if pagination[name] is None:
                pagination[name] = asked
        return Page[self.model](  # type: ignore[name-defined]
            pagination=Pagination.model_validate(pagination), data=data, unreadable=unreadable
        )

    async def _page_json(self, page: int, size: int, filters: Params) -> dict[str, Any]:
        params = page_params(page, size, filters)
        data = await self._session.request("GET", self.path, params=params)
        return checked_envelope(data, method="GET", path=self.path)

    async def _iterate(self, filters: Params, size: int) -> AsyncIterator[M]:
        """Every item, page by page in list order, a few pages in flight (console.client.walk);
        stopping the loop cancels the requests in flight."""
        from console.client.walk import PageEnd, walk_pages

        def end_of(result: Page[M], number: int) -> PageEnd:
            total = result.pagination.total_pages
            return PageEnd(result.has_more and bool(result.data or result.unreadable), total)

        pages = walk_pages(
            lambda number: self._list(number, size, filters), end_of, budget=self._session.budget
        )
        async with aclosing(pages):
            async for _number, result in pages:
                for item in result.data:
                    yield item

    async def get(self, id: Id) -> M:
        return await self._call("GET", f"{self.path}/{_segment(id)}", self.model)

    async def _create(self, payload: Payload) -> M:
        """POST: never retried, so a failure never creates the object twice."""
        return await self._call("POST", self.path, self.model, body=body_of(payload))

    async def _update(self, id: Id, payload: Payload) -> M:
        return await self._call(
            "PUT", f"{self.path}/{_segment(id)}", self.model, body=body_of(payload)
        )

    async def delete(self, id: Id) -> None:
        await self._call("DELETE", f"{self.path}/{_segment(id)}")


def _name(name: str | None) -> Params:
    return [("name", name)] if name else []


class Permissions(_Resource):
    """`GET /permissions`: the catalogue, optionally for one application type."""

    async def list(self, application_type: str | None = None) -> builtins.list[Permission]:
        data = await self.list_json(application_type)
        return [
            parse_response(Permission, item, method="GET", path="/permissions") for item in data
        ]

    async def list_json(self, application_type: str | None = None) -> builtins.list[dict[str, Any]]:
        """As `list`, but the objects as sent."""
        params = [("application_type", application_type)] if application_type else None
        data = await self._session.request("GET", "/permissions", params=params)
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise UnexpectedResponse(
                200,
                "Unexpected answer",
                "The service's permission list is not a list",
                method="GET",
                path="/permissions",
            )
        return data


class Applications(_Collection[Application]):
    path = "/applications"
    model = Application

    async def list(
        self, page: int = 1, size: int = 20, ids: Iterable[Id] = ()
    ) -> Page[Application]:
        return await self._list(page, size, _ids(ids))

    async def page_json(
        self, page: int = 1, size: int = 20, ids: Iterable[Id] = ()
    ) -> dict[str, Any]:
        """As `list`, but the page as sent: for views that only show rows (see _page_json)."""
        return await self._page_json(page, size, _ids(ids))

    def iterate(
        self, ids: Iterable[Id] = (), *, size: int = ITERATE_PAGE_SIZE
    ) -> AsyncIterator[Application]:
        """Every application, page by page, fetched only as the loop goes on."""
        return self._iterate(_ids(ids), size)

    async def create(self, payload: ApplicationCreate | Mapping[str, Any]) -> Application:
        """The created application, with its key: the only time it is shown, with regenerate."""
        return await self._create(payload)

    async def update(self, id: Id, payload: ApplicationUpdate | Mapping[str, Any]) -> Application:
        return await self._update(id, payload)

    async def regenerate(self, id: Id) -> Application:
        """A new key for the application (the old one stops working at once). Never retried.

        A 404 could mean the application or the route is missing: the application is then
        read (a GET, not a second POST), and if it exists, the service lacks regenerate."""
        path = f"{self.path}/{_segment(id)}/regenerate"
        try:
            return await self._call("POST", path, Application)
        except NotFound as missing:
            try:
                await self.get(id)
            except NotFound:
                raise missing from None
            raise NotOffered(
                404,
                missing.title,
                missing.detail,
                feature="regenerating keys",
                method="POST",
                path=path,
            ) from None

    async def current(self) -> Application:
        """The application that owns the key this client uses."""
        return await self._call("GET", f"{self.path}/key", Application)


class Proxies(_Collection[Proxy]):
    path = "/proxies"
    model = Proxy

    async def list(
        self,
        page: int = 1,
        size: int = 20,
        ids: Iterable[Id] = (),
        name: str | None = None,
    ) -> Page[Proxy]:
        """`name` matches names containing it, case-insensitively; `*` matches any run."""
        return await self._list(page, size, [*_ids(ids), *_name(name)])

    async def page_json(
        self,
        page: int = 1,
        size: int = 20,
        ids: Iterable[Id] = (),
        name: str | None = None,
    ) -> dict[str, Any]:
        """As `list`, but the page as sent."""
        return await self._page_json(page, size, [*_ids(ids), *_name(name)])

    def iterate(
        self,
        ids: Iterable[Id] = (),
        name: str | None = None,
        *,
        size: int = ITERATE_PAGE_SIZE,
    ) -> AsyncIterator[Proxy]:
        return self._iterate([*_ids(ids), *_name(name)], size)

    async def create(self, payload: ProxyCreate | Mapping[str, Any]) -> Proxy:
        return await self._create(payload)

    async def update(self, id: Id, payload: ProxyUpdate | Mapping[str, Any]) -> Proxy:
        return await self._update(id, payload)


class ReactorFormulas(_Collection[ReactorFormula]):
    path = "/reactor-formulas"
    model = ReactorFormula

    async def list(
        self, page: int = 1, size: int = 20, name: str | None = None
    ) -> Page[ReactorFormula]:
        """Official formulas and this tenant's private ones; `name` filters as for proxies."""
        return await self._list(page, size, _name(name))

    async def page_json(
        self, page: int = 1, size: int = 20, name: str | None = None
    ) -> dict[str, Any]:
        """As `list`, but the page as sent."""
        return await self._page_json(page, size, _name(name))

    def iterate(
        self, name: str | None = None, *, size: int = ITERATE_PAGE_SIZE
    ) -> AsyncIterator[ReactorFormula]:
        return self._iterate(_name(name), size)

    async def create(self, payload: ReactorFormulaCreate | Mapping[str, Any]) -> ReactorFormula:
        return await self._create(payload)

    async def update(
        self, id: Id, payload: ReactorFormulaUpdate | Mapping[str, Any]
    ) -> ReactorFormula:
        return await self._update(id, payload)


class TenantResource(_Resource):
    """The tenant that owns the key (`/tenants/self`)."""

    path = "/tenants/self"

    async def get(self) -> Tenant:
        return await self._call("GET", self.path, Tenant)

    async def update(self, payload: TenantUpdate | Mapping[str, Any]) -> Tenant:
        """Without `settings` in the payload the settings stay as they are."""
        return await self._call("PUT", self.path, Tenant, body=body_of(payload))

    async def delete(self) -> None:
        """Deletes the tenant and everything it owns; this client's key stops working."""
        await self._call("DELETE", self.path)

    async def usage(self) -> UsageReport:
        return await self._call("GET", f"{self.path}/reports/usage", UsageReport)
