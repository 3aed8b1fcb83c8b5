"""The OpenAPI document: real request bodies, problem-details errors, the API key scheme.

FastAPI infers nothing from our handlers (they parse by hand, after authorization), so this
adds what they declare: the request bodies their routers name (console.service.api.docs,
each with what the service's checks add to its model's schema), the ProblemDetails schema on
every error response, and `SVC-API-KEY` as the security scheme. Every `pattern` in the
document is the one its validator uses, defined next to it in console.models.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from console.models import ProblemDetails
from console.service.api.docs import RequestBody

_REF = "#/components/schemas/{model}"


def _schema(model: type[BaseModel], mode: str, schemas: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template=_REF, mode=mode)  # type: ignore[arg-type]
    for name, definition in schema.pop("$defs", {}).items():
        schemas.setdefault(name, definition)
    return schema


def _request_schema(body: RequestBody, schemas: dict[str, Any]) -> dict[str, Any]:
    """The model's schema, plus the rules its validators apply that a schema can express."""
    schema = _schema(body.model, "validation", schemas)
    if body.tighten is not None:
        body.tighten(schema["properties"])
    schema["title"] = body.name
    return schema


def request_bodies(app: FastAPI) -> list[RequestBody]:
    """The bodies the app's routers read, once each, by name."""
    bodies: dict[str, RequestBody] = {body.name: body for body in app.state.request_bodies}
    return [bodies[name] for name in sorted(bodies)]


def build_openapi(app: FastAPI) -> dict[str, Any]:
    document = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    bodies = request_bodies(app)
    for body in bodies:
        schemas[body.name] = _request_schema(body, schemas)
    for body in bodies:
        if body.tighten_shared is not None:
            body.tighten_shared(schemas)
    schemas["ProblemDetails"] = _schema(ProblemDetails, "serialization", schemas)
    components["securitySchemes"] = {
        "ApiKey": {"type": "apiKey", "in": "header", "name": app.state.key_header}
    }
    problem = {
        "application/problem+json": {"schema": {"$ref": _REF.format(model="ProblemDetails")}}
    }
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            operation["security"] = [{"ApiKey": []}]
            for status, response in operation.get("responses", {}).items():
                if str(status).startswith(("4", "5")):
                    response["content"] = problem
                    if str(status) == "429":
                        response["headers"] = {
                            "Retry-After": {
                                "description": "Seconds to wait before retrying.",
                                "schema": {"type": "integer"},
                            }
                        }
                elif str(status) == "204":
                    response.pop("content", None)
    return document


def install_openapi(app: FastAPI) -> None:
    """Replaces app.openapi with our builder, computed once."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_openapi(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
