"""The OpenAPI document: real request bodies, problem-details errors, the API key scheme.

FastAPI infers nothing from our handlers (they parse by hand, after authorization), so this
adds what they declare: request body schemas from the shared models, the ProblemDetails
schema on every error response, and `SVC-API-KEY` as the security scheme. Every `pattern` in
the document is the one its validator uses, defined next to it in console.models.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from console.models import (
    TRANSFORMS,
    ApplicationCreate,
    ApplicationUpdate,
    ProblemDetails,
    ProxyCreate,
    ReactorFormulaCreate,
    TenantUpdate,
)
from console.models.formulas import VALUE_TYPES
from console.models.proxies import CODE_MAX
from console.models.tenants import (
    NAMED_SETTINGS,
    OTHER_SETTINGS_MAX,
    SETTING_NAME_MAX,
    SETTING_VALUE_MAX,
)
from console.service.grants import catalogue

REQUEST_BODIES: dict[str, type[BaseModel]] = {
    "ApplicationCreate": ApplicationCreate,
    "ApplicationUpdate": ApplicationUpdate,
    "ProxyCreate": ProxyCreate,
    "ReactorFormulaCreate": ReactorFormulaCreate,
    "TenantUpdate": TenantUpdate,
}

_REF = "#/components/schemas/{model}"
_BOOL_STRING = {"type": "string", "enum": ["true", "false"]}
_SETTINGS = {
    "type": "object",
    "properties": {"fingerprint_tokens": _BOOL_STRING, "deduplicate_tokens": _BOOL_STRING},
    "additionalProperties": {"type": "string", "maxLength": SETTING_VALUE_MAX},
    "propertyNames": {"minLength": 1, "maxLength": SETTING_NAME_MAX},
    "maxProperties": OTHER_SETTINGS_MAX + len(NAMED_SETTINGS),
}
_CODE_TRANSFORM = {
    "type": "object",
    "title": "ProxyTransform",
    "properties": {"code": {"type": "string", "minLength": 1, "maxLength": CODE_MAX}},
    "required": ["code"],
}


def _permission_types() -> list[str]:
    """The catalogue the service checks grants against (console.service.grants)."""
    return [p.type for p in catalogue()]


def _schema(model: type[BaseModel], mode: str, schemas: dict[str, Any]) -> dict[str, Any]:
    schema = model.model_json_schema(ref_template=_REF, mode=mode)  # type: ignore[arg-type]
    for name, definition in schema.pop("$defs", {}).items():
        schemas.setdefault(name, definition)
    return schema


def _request_schema(name: str, model: type[BaseModel], schemas: dict[str, Any]) -> dict[str, Any]:
    """The model's schema, plus the rules its validators apply that a schema can express."""
    schema = _schema(model, "validation", schemas)
    properties = schema["properties"]
    if name == "ApplicationUpdate":
        # `type` is declared only to be refused: a type never changes.
        properties.pop("type", None)
    if name in ("ApplicationCreate", "ApplicationUpdate"):
        properties["permissions"]["items"] = {"type": "string", "enum": _permission_types()}
    if name == "TenantUpdate":
        properties["settings"] = {"anyOf": [_SETTINGS, {"type": "null"}], "title": "Settings"}
    if name == "ReactorFormulaCreate":
        # Official formulas belong to the operator: tenants can only send `private`.
        properties["type"] = {"type": "string", "enum": ["private"], "title": "Type"}
    schema["title"] = name
    return schema


def _tighten_shared(schemas: dict[str, Any]) -> None:
    for name in ("FormulaConfiguration", "FormulaRequestParameter"):
        if name in schemas:  # as for rule transforms: the console may send back a service's own
            schemas[name]["properties"]["type"]["enum"] = list(VALUE_TYPES)
    rule = schemas.get("AccessRule")
    if rule:  # the model lets the console send back a service's own value; this has three
        rule["properties"]["transform"]["enum"] = list(TRANSFORMS)
    if "ProxyTransform" in schemas:
        # The shared model also carries the hosted service's other kinds of transform through
        # the console; this service runs only code transforms.
        schemas["ProxyTransform"] = _CODE_TRANSFORM


def build_openapi(app: FastAPI) -> dict[str, Any]:
    document = get_openapi(
        title=app.title, version=app.version, description=app.description, routes=app.routes
    )
    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name, model in REQUEST_BODIES.items():
        schemas[name] = _request_schema(name, model, schemas)
    _tighten_shared(schemas)
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
