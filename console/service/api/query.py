"""The query parameters of the API: one model, read after authorization, documented from itself.

Handlers read their query only once the caller is authorized (a caller without the permission
learns nothing from its messages), so FastAPI does not parse it; `AcceptedQuery` names the
parameters an endpoint takes, reads them into `QueryParameters` and describes them for the
OpenAPI document from the same fields, so the document cannot promise other rules.
"""

from __future__ import annotations

import functools
import re
import typing
import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Annotated, Any

import annotated_types
from fastapi import Request
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    WithJsonSchema,
)
from pydantic_core import ErrorDetails

from console.models.common import NAME_MAX, NAME_PATTERN, has_control_characters
from console.models.permissions import APPLICATION_TYPES, ApplicationType
from console.service.api.problems import invalid
from console.service.store.listing import (
    DEFAULT_PAGE_SIZE,
    MAX_PAGE_SIZE,
    BadCursor,
    PageRequest,
    read_cursor,
)

MAX_IDS = 100
CURSOR_MAX = 1000


def _whole_number(value: Any, info: ValidationInfo) -> Any:
    """As Python reads an integer (surrounding spaces allowed), never a float's text."""
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            raise ValueError(f"The {info.field_name} must be a whole number.") from None
    return value


def _uuid(value: Any) -> Any:
    """Any spelling Python's `uuid.UUID` reads (any letter case, braces, `urn:uuid:`)."""
    if isinstance(value, str):
        try:
            return uuid.UUID(value)
        except ValueError:
            raise ValueError("The id must be a UUID.") from None
    return value


def _name_filter(value: str | None) -> str | None:
    """Names hold no control characters, and SQLite's LIKE would read a pattern as cut at a
    NUL; an empty filter does not filter."""
    if value and has_control_characters(value):
        raise ValueError("The name filter must not contain control characters.")
    return value or None


def _cursor(value: str | None) -> str | None:
    """A cursor is one this service gave (an `after`), or empty: the first page."""
    if value is not None:
        try:
            read_cursor(value)
        except BadCursor:
            raise ValueError(
                "The start must be the `after` of an earlier page (or empty for the first)."
            ) from None
    return value


ENTITY_TYPE_PATTERN = "^[a-z][a-z0-9_]*$"
ENTITY_TYPE_MAX = 64
_ENTITY_TYPE = re.compile(ENTITY_TYPE_PATTERN)
_DATE_ONLY = re.compile(r"\d{4}-\d{2}-\d{2}")
_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]")
_DATETIME = TypeAdapter(datetime)


def _entity_type(value: Any) -> Any:
    """An audit log's entity type as logs spell them (`proxy`, `reactor_formula`)."""
    if isinstance(value, str) and (
        len(value) > ENTITY_TYPE_MAX or not _ENTITY_TYPE.fullmatch(value)
    ):
        raise ValueError(
            f"The entity_type must be lower-case letters, digits and underscores (at most"
            f" {ENTITY_TYPE_MAX}), as `GET /logs/entity-types` names them."
        )
    return value


def _entity_id(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return str(uuid.UUID(value))
        except ValueError:
            raise ValueError("The entity_id must be a UUID.") from None
    return value


def _in_utc(moment: datetime) -> datetime:
    """In UTC; a moment at the calendar's very ends (year 1 east of UTC, year 9999 west of
    it) is outside Python's range there, and stands for the earliest or latest one."""
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        edge = datetime.min if moment.year == 1 else datetime.max
        return edge.replace(tzinfo=UTC)


def _moment(value: Any, info: ValidationInfo) -> Any:
    """An ISO 8601 date (midnight UTC) or date-time (UTC when it names no offset)."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    try:
        if _DATE_ONLY.fullmatch(text):
            return datetime.combine(date.fromisoformat(text), time(), tzinfo=UTC)
        if _DATE_TIME.match(text):
            moment = _DATETIME.validate_python(text)
            return _in_utc(moment if moment.tzinfo else moment.replace(tzinfo=UTC))
    except (ValueError, ValidationError):
        pass
    raise ValueError(
        f"The {info.field_name} must be an ISO 8601 date (2026-11-22) or date-time"
        " (2026-11-22T10:00:00Z; UTC when no offset is given)."
    )


WholeNumber = Annotated[int, BeforeValidator(_whole_number)]
QueryId = Annotated[uuid.UUID, BeforeValidator(_uuid)]
QueryMoment = Annotated[
    datetime | None,
    BeforeValidator(_moment),
    WithJsonSchema(
        {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "string", "format": "date"}]}
    ),
]


class QueryParameters(BaseModel):
    """Every query parameter the API reads, with its rules; an endpoint takes some of them
    (see AcceptedQuery) and the others keep their defaults."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: list[QueryId] = Field(
        default_factory=list, max_length=MAX_IDS, description="Repeatable: `?id=a&id=b`."
    )
    name: Annotated[
        str | None,
        Field(max_length=NAME_MAX, json_schema_extra={"pattern": NAME_PATTERN}),
        AfterValidator(_name_filter),
    ] = Field(
        default=None,
        description="Case-insensitive; matches names containing it; `*` matches any run.",
    )
    page: WholeNumber = Field(default=1, ge=1)
    size: WholeNumber = Field(default=DEFAULT_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE)
    start: Annotated[str | None, Field(max_length=CURSOR_MAX), AfterValidator(_cursor)] = Field(
        default=None,
        description=(
            "Cursor paging: the `after` of the page before, or empty for the first page. The"
            " page's `pagination` is then `page_size` and `after` (null on the last page),"
            " without totals; `page` counts pages after the cursor."
        ),
    )
    application_type: ApplicationType | None = None
    type: list[ApplicationType] = Field(
        default_factory=list,
        max_length=MAX_IDS,
        description="Repeatable: `?type=private&type=public`: applications of these types.",
    )

    entity_type: Annotated[
        str | None,
        BeforeValidator(_entity_type),
        WithJsonSchema(
            {"type": "string", "pattern": ENTITY_TYPE_PATTERN, "maxLength": ENTITY_TYPE_MAX}
        ),
    ] = Field(default=None, description="Entries about objects of this type (`proxy`).")
    entity_id: Annotated[
        str | None,
        BeforeValidator(_entity_id),
        WithJsonSchema({"type": "string", "format": "uuid"}),
    ] = Field(default=None, description="Entries about this one object.")
    start_date: QueryMoment = Field(
        default=None,
        description="Entries made at or after this time: an ISO 8601 date (midnight UTC) or"
        " date-time (UTC unless it names an offset).",
    )
    end_date: QueryMoment = Field(
        default=None,
        description="Entries made before this time (a date or date-time, as `start_date`).",
    )

    @property
    def paging(self) -> PageRequest:
        return PageRequest(page=self.page, size=self.size, start=self.start)

    @property
    def types(self) -> list[str]:
        """The `type` filter, each type once."""
        return list(dict.fromkeys(self.type))

    @property
    def ids(self) -> list[str]:
        """The `id` filter in canonical form, as ids are stored."""
        return [str(value) for value in self.id]


_DEFAULTS = QueryParameters()
REPEATABLE = frozenset(
    name
    for name, field in QueryParameters.model_fields.items()
    if typing.get_origin(field.annotation) is list
)


def _bounds(name: str) -> str:
    """`from 1 to 100` or `at least 1`, from the field's own constraints."""
    low = high = None
    for constraint in QueryParameters.model_fields[name].metadata:
        if isinstance(constraint, annotated_types.Ge):
            low = constraint.ge
        elif isinstance(constraint, annotated_types.Le):
            high = constraint.le
    return f"from {low} to {high}" if high is not None else f"at least {low}"


def _sentence(error: ErrorDetails) -> str:
    """One failed rule as the API words it."""
    name = str(error["loc"][0])
    kind = error["type"]
    if kind in ("greater_than_equal", "less_than_equal"):
        return f"The {name} must be {_bounds(name)}."
    if kind == "too_long":
        return f"At most {MAX_IDS} {'types' if name == 'type' else 'ids'} may be given."
    if kind == "string_too_long" and name == "start":
        return f"The start must be at most {CURSOR_MAX} characters."
    if kind == "string_too_long":
        return f"The name filter must be at most {NAME_MAX} characters."
    if kind == "literal_error":
        return f"The application type must be one of {APPLICATION_TYPES}."
    if kind == "value_error":  # our validators' own sentences
        return str((error.get("ctx") or {}).get("error", error["msg"]))
    return f"The {name} is invalid: {error['msg']}."


def _path(loc: tuple[int | str, ...]) -> str:
    """`("id", 2)` -> `id[2]`, the key `errors` names a query parameter by."""
    return str(loc[0]) + "".join(f"[{part}]" for part in loc[1:])


@functools.cache
def _schemas() -> dict[str, Any]:
    """The JSON schema of each field, built once (routes are declared at import)."""
    return QueryParameters.model_json_schema(mode="validation")["properties"]


def _without_null(schema: dict[str, Any]) -> dict[str, Any]:
    """A field that may be absent is `anyOf [X, null]` in pydantic's schema; a query
    parameter is never null, so it is documented as X (with the field's own extras)."""
    schema = {k: v for k, v in schema.items() if k != "title"}
    branches = schema.pop("anyOf", None)
    if branches is not None:
        kept = [branch for branch in branches if branch != {"type": "null"}]
        schema = {**kept[0], **schema} if len(kept) == 1 else {"anyOf": kept, **schema}
    if schema.get("default", ...) is None:
        del schema["default"]
    return schema


@dataclass(frozen=True, init=False)
class AcceptedQuery:
    """The query parameters one endpoint takes; any other parameter is ignored."""

    names: tuple[str, ...]

    def __init__(self, *names: str) -> None:
        unknown = set(names) - set(QueryParameters.model_fields)
        if unknown:
            raise ValueError(f"No query parameter is named {sorted(unknown)}.")
        object.__setattr__(self, "names", names)

    def read(self, request: Request) -> QueryParameters:
        """The parameters, validated: a 400 naming every one that breaks a rule. Of a
        parameter given twice, the last counts (a repeatable one keeps all)."""
        if not self.names:
            return _DEFAULTS
        params = request.query_params
        given = {
            name: params.getlist(name) if name in REPEATABLE else params[name]
            for name in self.names
            if name in params
        }
        try:
            return QueryParameters.model_validate(given)
        except ValidationError as exc:
            errors: dict[str, list[str]] = {}
            for error in exc.errors(include_url=False):
                errors.setdefault(_path(error["loc"]), []).append(_sentence(error))
            raise invalid(errors) from None

    def parameters(self) -> list[dict[str, Any]]:
        """The OpenAPI parameter objects, from the model's own fields."""
        documented = []
        for name in self.names:
            field = QueryParameters.model_fields[name]
            parameter: dict[str, Any] = {"name": name, "in": "query", "required": False}
            schema = _without_null(_schemas()[name])
            description = schema.pop("description", None) or field.description
            if description:
                parameter["description"] = description
            if name in REPEATABLE:
                parameter |= {"style": "form", "explode": True}
            parameter["schema"] = schema
            documented.append(parameter)
        return documented


NO_QUERY = AcceptedQuery()
"""For endpoints that take no query parameters: the query is not read at all."""
