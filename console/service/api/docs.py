"""How each route describes itself in the OpenAPI document.

Handlers parse their own query, path and body (so that authorization comes first), so the
parameters and request bodies are declared here rather than inferred from signatures: the
query parameters from the model that reads them (console.service.api.query).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Response
from pydantic import BaseModel

from console.kinds import Kind
from console.service.api.query import NO_QUERY, AcceptedQuery

ERROR_DESCRIPTIONS = {
    400: "Invalid input: a validation failure (with `errors`), malformed JSON or a bad query.",
    401: "The SVC-API-KEY header is missing, or its key is unknown, expired or regenerated.",
    403: "The key's application lacks the permission this endpoint requires.",
    404: "No such object in the caller's tenant.",
    413: "The body is larger than the service accepts (4 MiB).",
    415: "The body is not application/json.",
    409: "The object is not in a state that allows this (a reactor not active yet, the tenant's"
    " owner), or it would duplicate one (a member or pending invitation with that email).",
    422: "The reactor's code is not a valid function.",
    429: "Too many requests for this key; retry after `Retry-After` seconds.",
    500: "The reactor's code failed: it threw, timed out, ran out of memory or returned a "
    "value outside the contract (a thrown error's own status is answered instead).",
    503: "Reactors' code cannot run here (no sandbox, or no engine).",
}

AUTH = (401, 403, 429)

PATH_ID = {
    "name": "id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "format": "uuid"},
}


Schema = dict[str, Any]


def tag_of(kind: Kind) -> str:
    """The document's tag of a kind's routes: its plural with a capital ("Reactor formulas",
    "Tenants")."""
    plural = kind.nouns.plural
    return plural[:1].upper() + plural[1:]


@dataclass(frozen=True)
class RequestBody:
    """A body that routes read (and parse by hand, so FastAPI documents nothing of it): its
    model, and what this service's checks add to the model's own schema in the document."""

    model: type[BaseModel]
    tighten: Callable[[Schema], None] | None = None
    """Edits the body's `properties` (an enum from the service's catalogue...)."""
    tighten_shared: Callable[[Schema], None] | None = None
    """Edits the document's shared schemas (components.schemas) the body refers to."""

    @property
    def name(self) -> str:
        """Its schema's name in the document: the model's."""
        return self.model.__name__


class ServiceRouter(APIRouter):
    """A router of the service, with the request bodies its routes read (console.service.openapi
    puts them in the document)."""

    def __init__(self, *, bodies: Sequence[RequestBody] = (), **options: Any) -> None:
        super().__init__(**options)
        self.bodies = tuple(bodies)


def route(
    success: int,
    model: Any = None,
    *,
    body: RequestBody | None = None,
    params: tuple[dict[str, Any], ...] = (),
    query: AcceptedQuery = NO_QUERY,
    errors: tuple[int, ...] = AUTH,
    summary: str | None = None,
) -> dict[str, Any]:
    """Decorator keyword arguments declaring a route's parameters, success and error responses.

    A route that takes `query` parameters can answer 400; one with a `body`, 400, 413 and 415.
    """
    responses: dict[int | str, dict[str, Any]] = {}
    if success == 204:
        responses[204] = {"description": "Done; no body."}
    else:
        responses[success] = {"model": model, "description": "Success."}
    codes = set(errors)
    if query.names:
        codes.add(400)
    if body is not None:
        codes |= {400, 413, 415}
    for code in sorted(codes):
        responses[code] = {"description": ERROR_DESCRIPTIONS[code]}
    extra: dict[str, Any] = {}
    parameters = [*params, *query.parameters()]
    if parameters:
        extra["parameters"] = parameters
    if body is not None:
        extra["requestBody"] = {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": f"#/components/schemas/{body.name}"}}
            },
        }
    kwargs: dict[str, Any] = {
        "status_code": success,
        "responses": responses,
        "openapi_extra": extra or None,
        "summary": summary,
    }
    if success == 204:
        kwargs["response_class"] = Response
    return kwargs


def item_route(
    success: int,
    model: Any = None,
    *,
    body: RequestBody | None = None,
    more_params: tuple[dict[str, Any], ...] = (),
    query: AcceptedQuery = NO_QUERY,
    more_errors: tuple[int, ...] = (),
    summary: str | None = None,
) -> dict[str, Any]:
    """`route` of a route on one object the path's `{id}` names: every such route takes the
    id (then `more_params`) and answers 404 when the caller's tenant holds no such object, so
    its handlers declare only what differs (a body, a 409)."""
    return route(
        success,
        model,
        body=body,
        params=(PATH_ID, *more_params),
        query=query,
        errors=(*AUTH, 404, *more_errors),
        summary=summary,
    )
