"""The resource groups: what `c.collection(kind)`, `c.applications`, `c.proxies`, ... offer.

`Collection` serves any paged kind from its declaration (console.kinds): its path, models
and filters. The typed groups (Applications, Proxies, ReactorFormulas) are Collections of
their kinds with their models as types, and with the routes special to them. Each method
is one endpoint of the specification; results are the models of console.models.
"""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import aclosing
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar
from uuid import UUID

from pydantic import BaseModel, ValidationError

from console.client._http import HttpSession, Params
from console.client.envelope import checked_envelope, page_params
from console.client.errors import (
    ApiError,
    Forbidden,
    NotFound,
    NotOffered,
    RateLimited,
    ReactorFailed,
    Unauthorized,
    UnexpectedResponse,
    UnsafePath,
)
from console.client.paths import segment
from console.kinds import (
    APPLICATIONS,
    PERMISSIONS,
    PROXIES,
    REACTOR_FORMULAS,
    REACTORS,
    TENANT,
    Kind,
)
from console.models import (
    Application,
    ApplicationCreate,
    ApplicationUpdate,
    AsyncReactResponse,
    Page,
    Pagination,
    Permission,
    Proxy,
    ProxyCreate,
    ProxyUpdate,
    Reactor,
    ReactorCreate,
    ReactorFormula,
    ReactorFormulaCreate,
    ReactorFormulaUpdate,
    ReactorUpdate,
    ReactResponse,
    RequestModel,
    Tenant,
    TenantUpdate,
    UsageReport,
)
from console.models.errors import field_errors

if TYPE_CHECKING:
    from console.models.people import Member, SecurityContact

M = TypeVar("M", bound=BaseModel)
C = TypeVar("C", bound=RequestModel)
U = TypeVar("U", bound=RequestModel)
Id = UUID | str
Payload = RequestModel | Mapping[str, Any]

ITERATE_PAGE_SIZE = 100
"""Pages fetched by `iterate`: the largest the service allows, so fewest round trips."""
MAX_CURSOR_PAGES = 1000
"""A guard against a service whose cursor never ends (a kind that pages by cursor)."""


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


MERGE_PATCH = "application/merge-patch+json"
"""The content type of a PATCH body (RFC 7386): what is given changes, a null removes."""


def patch_body_of(payload: BaseModel | Mapping[str, Any]) -> dict[str, Any]:
    """A merge patch on the wire: only the fields a patch model was given (a null given is
    sent, as it removes), by their wire names; a dict as given."""
    if isinstance(payload, BaseModel):
        return payload.model_dump(mode="json", exclude_unset=True, by_alias=True)
    if isinstance(payload, Mapping):
        return dict(payload)
    raise TypeError(f"A patch must be a patch model or a dict, not {type(payload).__name__}.")


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


class Collection(_Resource, Generic[M, C, U]):
    """A paged kind's endpoints, from its declaration: list, get, create, update, delete.

    `M` is its model as read, `C` and `U` its create and update requests (console.models);
    a payload may also be a dict, sent as given. Filters the kind does not have (`ids`,
    `name`: its declaration's `id_filter`, `name_filter`) are refused before anything is
    sent (ValueError), as are changes its features do not offer."""

    def __init__(self, session: HttpSession, kind: Kind) -> None:
        super().__init__(session)
        if kind.singleton or kind.routes.catalogue:
            raise ValueError(f"{kind!r} is not a paged collection")
        self.kind = kind

    @property
    def path(self) -> str:
        return self.kind.path

    @property
    def model(self) -> type[BaseModel]:
        """The kind's model as read (importing it on first use)."""
        return self.kind.models.read

    def _filters(self, ids: Iterable[Id], name: str | None) -> Params:
        filters = _ids(ids)
        if filters and not self.kind.id_filter:
            raise ValueError(f"The service does not filter {self.kind.nouns.plural} by id.")
        if name and not self.kind.name_filter:
            raise ValueError(f"The service does not filter {self.kind.nouns.plural} by name.")
        return [*filters, *_name(name)]

    def _offered(self, offered: bool, verb: str) -> None:
        if not offered:
            raise ValueError(f"The service does not {verb} {self.kind.nouns.plural}.")

    async def list(
        self, page: int = 1, size: int = 20, *, ids: Iterable[Id] = (), name: str | None = None
    ) -> Page[M]:
        """One page as models. An item that does not match the model goes to `unreadable`
        (as sent) instead of failing the page; missing page numbers are the ones asked for.
        `name` matches names containing it, case-insensitively; `*` matches any run."""
        return await self._list(page, size, self._filters(ids, name))

    async def page_json(
        self, page: int = 1, size: int = 20, *, ids: Iterable[Id] = (), name: str | None = None
    ) -> dict[str, Any]:
        """As `list`, but the page as sent: for views that only show rows."""
        return await self._page_json(page, size, self._filters(ids, name))

    def iterate(
        self, *, ids: Iterable[Id] = (), name: str | None = None, size: int = ITERATE_PAGE_SIZE
    ) -> AsyncIterator[M]:
        """Every object, page by page, fetched only as the loop goes on."""
        return self._iterate(self._filters(ids, name), size)

    async def create(self, payload: C | Mapping[str, Any]) -> M:
        """POST: never retried, so a failure never creates the object twice."""
        self._offered(self.kind.features.create, "create")
        return await self._call("POST", self.path, self.model, body=body_of(payload))

    async def update(self, id: Id, payload: U | Mapping[str, Any]) -> M:
        self._offered(self.kind.features.update, "update")
        path = self.kind.item_path(_segment(id))
        return await self._call("PUT", path, self.model, body=body_of(payload))

    async def get(self, id: Id) -> M:
        return await self._call("GET", self.kind.item_path(_segment(id)), self.model)

    async def delete(self, id: Id) -> None:
        self._offered(self.kind.features.delete, "delete")
        await self._call("DELETE", self.kind.item_path(_segment(id)))

    async def patch(self, id: Id, payload: BaseModel | Mapping[str, Any]) -> M | None:
        """PATCH as a merge patch (application/merge-patch+json): what is given changes, a
        null removes it. The service answers 204 (as the vendor's SDKs expect), so this
        returns None then; a service that answers with the object returns it as a model.
        Retried only if the client's RetryPolicy names PATCH (by default it does not)."""
        self._offered(self.kind.features.patch, "patch")
        path = self.kind.item_path(_segment(id))
        data = await self._session.request(
            "PATCH", path, body=patch_body_of(payload), content_type=MERGE_PATCH
        )
        if data is None:
            return None
        return parse_response(self.model, data, method="PATCH", path=path)

    async def _list(self, page: int, size: int, filters: Params) -> Page[M]:
        envelope = await self._page_json(page, size, filters)
        model = self.model
        data, unreadable = [], []
        for item in envelope["data"]:
            try:
                data.append(model.model_validate(item))
            except ValidationError:
                unreadable.append(item)
        pagination = dict(envelope.get("pagination") or {})
        pagination.setdefault("page_number", page)
        pagination.setdefault("page_size", size)
        for name, asked in (("page_number", page), ("page_size", size)):
            if pagination[name] is None:
                pagination[name] = asked
        return Page[model](  # type: ignore[valid-type]
            pagination=Pagination.model_validate(pagination), data=data, unreadable=unreadable
        )

    async def _page_json(self, page: int, size: int, filters: Params) -> dict[str, Any]:
        if self.kind.cursor_pages:
            return await self._cursor_pages(page, size, filters)
        params = page_params(page, size, filters)
        data = await self._session.request("GET", self.path, params=params)
        return checked_envelope(data, method="GET", path=self.path)

    async def _cursor_pages(self, page: int, size: int, filters: Params) -> dict[str, Any]:
        """A kind whose list pages by cursor (`pagination.next`, sent back as `start`), as
        one numbered page: page 1 holds every object (each page after the first read by its
        cursor), a later page none (asked for nothing), with the totals saying so, so that
        every walker of numbered pages ends after the first. For small lists only (webhooks:
        at most five); a cursor that does not move is an UnexpectedResponse."""
        objects: builtins.list[Any] = []
        if page == 1:
            cursor: str | None = None
            for _ in range(MAX_CURSOR_PAGES):
                params = [*filters, *([("start", cursor)] if cursor else [])]
                data = await self._session.request("GET", self.path, params=params)
                envelope = checked_envelope(data, method="GET", path=self.path)
                objects += envelope["data"]
                following = (envelope.get("pagination") or {}).get("next")
                if not isinstance(following, str) or not following or not envelope["data"]:
                    break
                if following == cursor:
                    raise UnexpectedResponse(
                        200,
                        "Unexpected answer",
                        f"The service's {self.kind.nouns.plural} pages repeat the same cursor",
                        method="GET",
                        path=self.path,
                    )
                cursor = following
        pagination = {
            "page_number": page,
            "page_size": max(size, len(objects)),
            "total_items": len(objects) if page == 1 else None,
            "total_pages": 1,
        }
        return {"pagination": pagination, "data": objects}

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


def _name(name: str | None) -> Params:
    return [("name", name)] if name else []


class Permissions(_Resource):
    """`GET /permissions`: the catalogue, optionally for one application type."""

    async def list(self, application_type: str | None = None) -> builtins.list[Permission]:
        data = await self.list_json(application_type)
        path = PERMISSIONS.path
        return [parse_response(Permission, item, method="GET", path=path) for item in data]

    async def list_json(self, application_type: str | None = None) -> builtins.list[dict[str, Any]]:
        """As `list`, but the objects as sent."""
        params = [("application_type", application_type)] if application_type else None
        data = await self._session.request("GET", PERMISSIONS.path, params=params)
        if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
            raise UnexpectedResponse(
                200,
                "Unexpected answer",
                "The service's permission list is not a list",
                method="GET",
                path=PERMISSIONS.path,
            )
        return data


class Applications(Collection[Application, ApplicationCreate, ApplicationUpdate]):
    """`client.applications`: filtered by id; `create` answers with the new key, the only
    time it is shown (with `regenerate`)."""

    def __init__(self, session: HttpSession) -> None:
        super().__init__(session, APPLICATIONS)

    async def regenerate(self, id: Id) -> Application:
        """A new key for the application (the old one stops working at once). Never retried.

        A 404 could mean the application or the route is missing: the application is then
        read (a GET, not a second POST), and if it exists, the service lacks regenerate."""
        path = f"{self.kind.item_path(_segment(id))}/regenerate"
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


class Proxies(Collection[Proxy, ProxyCreate, ProxyUpdate]):
    """`client.proxies`: filtered by id and by name; `patch` takes a ProxyPatch or a dict
    (pipelines are replaced whole, configuration merged key by key)."""

    def __init__(self, session: HttpSession) -> None:
        super().__init__(session, PROXIES)


class ReactorFormulas(Collection[ReactorFormula, ReactorFormulaCreate, ReactorFormulaUpdate]):
    """`client.reactor_formulas`: official formulas and this tenant's private ones, filtered
    by name."""

    def __init__(self, session: HttpSession) -> None:
        super().__init__(session, REACTOR_FORMULAS)


@dataclass(frozen=True)
class ReactResult:
    """What `results/{request_id}` says of an asynchronous react: still running (`pending`),
    done (`response`), or failed (`error`: the react's own error, as `react` raises it)."""

    pending: bool = False
    response: ReactResponse | None = None
    error: ReactorFailed | None = None

    @property
    def done(self) -> bool:
        return not self.pending


_NOT_THE_RUN = (Unauthorized, Forbidden, NotFound, NotOffered, RateLimited, UnsafePath)
"""Errors of asking for a result that say nothing of the run: raised, not returned."""


class Reactors(Collection[Reactor, ReactorCreate, ReactorUpdate]):
    """`client.reactors`: filtered by id and by name; changed by PUT or merge patch (`patch`
    takes a ReactorPatch or a dict);
    invoked on the service with `react` (or `react_async` and `result`). Running a reactor
    changes no object, so it is never journalled, and as a POST it is never repeated."""

    def __init__(self, session: HttpSession) -> None:
        super().__init__(session, REACTORS)

    async def react(self, id: Id, args: Any = None) -> ReactResponse:
        """Runs the reactor's active code with `args`; what it returned. The run's own
        failure raises ReactorFailed (not active, not a function, it threw, a limit, its
        args refused); an error about the asking (401, 403, 404, 429, no answer) as any
        call's does."""
        path = f"{self.kind.item_path(_segment(id))}/react"
        _status, data = await self._reacting("POST", path, {"args": args})
        return parse_response(ReactResponse, data or {}, method="POST", path=path)

    async def _reacting(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """One unjournalled request of a run; a failure of the run as ReactorFailed."""
        try:
            return await self._session.invoke(method, path, body)
        except _NOT_THE_RUN:
            raise
        except ApiError as error:
            if error.status is None or isinstance(error, UnexpectedResponse):
                raise
            raise ReactorFailed(
                error.status,
                error.title,
                error.detail,
                error.errors,
                method=error.method,
                path=error.path,
            ) from None

    async def react_async(self, id: Id, args: Any = None) -> str:
        """Starts a run in the background; its request id, for `result`."""
        path = f"{self.kind.item_path(_segment(id))}/react-async"
        _status, data = await self._reacting("POST", path, {"args": args})
        answer = parse_response(AsyncReactResponse, data or {}, method="POST", path=path)
        request_id = answer.async_reactor_request_id
        if not request_id:
            raise UnexpectedResponse(
                _status,
                "Unexpected answer",
                "The service's answer has no asyncReactorRequestId",
                method="POST",
                path=path,
            )
        return str(request_id)

    async def result(self, id: Id, request_id: Id) -> ReactResult:
        """Where an asynchronous react is: pending (202), its response (200), or the error it
        failed with. An error about the asking (401, 403, 404 of an unknown request id, no
        answer) raises instead."""
        path = f"{self.kind.item_path(_segment(id))}/results/{_segment(request_id)}"
        try:
            status, data = await self._reacting("GET", path)
        except ReactorFailed as failed:
            return ReactResult(error=failed)
        if status == 202 or (isinstance(data, dict) and data.get("status") == "pending"):
            return ReactResult(pending=True)
        response = parse_response(ReactResponse, data or {}, method="GET", path=path)
        return ReactResult(response=response)


class TenantResource(_Resource):
    """The tenant that owns the key (its kind's path)."""

    path = TENANT.path

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

    async def owner(self) -> Member:
        """The tenant's owner, as a member (NotFound when the tenant has none)."""
        from console.models.people import Member

        return await self._call("GET", f"{self.path}/owner", Member)

    async def security_contact(self) -> SecurityContact:
        """Who the service writes to about security (`email` None when nobody is set)."""
        from console.models.people import SecurityContact

        return await self._call("GET", f"{self.path}/security-contact", SecurityContact)

    async def set_security_contact(self, email: str) -> SecurityContact:
        """Sets the security contact; the address is checked before anything is sent
        (PayloadInvalid, a ValueError naming `email`)."""
        from console.models.people import SecurityContact, SecurityContactUpdate

        body = SecurityContactUpdate.parse({"email": email}).to_json()
        path = f"{self.path}/security-contact"
        return await self._call("PUT", path, SecurityContact, body=body)
