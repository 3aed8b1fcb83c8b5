"""What every handler does: find the store, authenticate and authorize, read the body, page.

The order is fixed: key (401), permission (403), then the body (415, 400). A caller without
the permission learns nothing from validation messages.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

from fastapi import Request
from pydantic import ValidationError
from starlette.requests import ClientDisconnect

from console.clock import now
from console.key_header import DEFAULT_KEY_HEADER
from console.models.common import NAME_MAX, has_control_characters
from console.models.errors import PayloadInvalid, field_errors
from console.models.permissions import APPLICATION_TYPES
from console.service.api.problems import Problem, invalid
from console.service.store import Caller, Store
from console.service.store import applications as app_rows
from console.service.store.listing import MAX_PAGE_SIZE, PageRequest
from console.service.timestamps import stamp

API_KEY_HEADER = DEFAULT_KEY_HEADER
"""The default; `serve --key-header` names another (kept in `app.state.key_header`)."""
MAX_IDS = 100
MAX_BODY_BYTES = 4 * 1024 * 1024
"""Generous for a formula's code (50,000 characters) with an icon; a guard, not a quota."""

M = TypeVar("M")


class Clock:
    """The request's one reading of the project clock, as a datetime and as stored text."""

    def __init__(self) -> None:
        self.moment: datetime = now()
        self.text: str = stamp(self.moment)


def store_of(request: Request) -> Store:
    return request.app.state.store


def key_header_of(request: Request) -> str:
    """The header this service reads the API key from."""
    return getattr(request.app.state, "key_header", API_KEY_HEADER)


@contextmanager
def writing(request: Request) -> Iterator[tuple[sqlite3.Connection, Clock]]:
    """A write transaction and the request's clock, read once the write lock is held.

    Read before the lock, a write that waited longer would commit later with an earlier
    `modified_at` than the write it overwrites.
    """
    with store_of(request).write() as conn:
        yield conn, Clock()


async def raw_body(request: Request) -> bytes:
    """The body, read but not parsed: parsing waits until the caller is authorized.

    Bodies over MAX_BODY_BYTES are refused (413) before they are read in full.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise Problem(413, f"The body must be at most {MAX_BODY_BYTES // 2**20} MiB.")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise Problem(413, f"The body must be at most {MAX_BODY_BYTES // 2**20} MiB.")
            chunks.append(chunk)
    except ClientDisconnect:
        # The client went away, or its body stalled past the request timeout and the
        # connection was closed: nobody will read an answer, and it is not a failure of ours.
        raise Problem(408, "The request body did not arrive in full.") from None
    return b"".join(chunks)


def authenticate(
    conn: sqlite3.Connection, request: Request, clock: Clock, permission: str | None
) -> Caller:
    """The caller behind the request's key: 401 without a live key, 403 without `permission`."""
    header = key_header_of(request)
    key = request.headers.get(header)
    if not key:
        raise Problem(401, f"The {header} header is missing.")
    row = app_rows.by_key(conn, key, clock.text)
    if row is None:
        raise Problem(401, "The API key is not valid: unknown, expired or regenerated.")
    caller = Caller.from_row(row)
    if permission is not None and permission not in caller.permissions:
        raise Problem(403, f"The application lacks the {permission} permission.")
    return caller


def _not_json(constant: str) -> Any:
    """Python's parser accepts NaN and Infinity; RFC 8259 does not, so neither do we."""
    raise ValueError(f"{constant} is not a JSON value")


def json_body(request: Request, raw: bytes) -> Any:
    """The parsed JSON body: 415 if it is not declared as JSON, 400 if it does not parse."""
    content_type = request.headers.get("content-type", "")
    media_type = content_type.split(";", 1)[0].strip().lower()
    is_json = media_type == "application/json" or media_type.endswith("+json")
    if (media_type or raw.strip()) and not is_json:
        shown = media_type or "none"
        raise Problem(415, f"The body must be application/json, not {shown}.")
    if not raw.strip():
        raise Problem(400, "The request needs a JSON body.")
    try:
        return json.loads(raw, parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError) as exc:
        raise Problem(400, f"The body is not valid JSON: {exc}.") from None
    except RecursionError:
        raise Problem(400, "The body is nested too deeply.") from None


def parse(model: type[M], body: Any, raw: bytes, **context: Any) -> M:
    """`model.parse(body)` with its PayloadInvalid turned into a 400 with field errors.

    The JSON is first checked in pydantic's strict mode, so that a value of the wrong JSON
    type (`"true"` or `1` for a boolean, `1.0` for an integer) is refused as the OpenAPI
    document says, rather than coerced.
    """
    if isinstance(body, dict):
        try:
            model.model_validate_json(raw, strict=True, context=context)  # type: ignore[attr-defined]
        except ValidationError as exc:
            raise invalid(field_errors(exc)) from None
    try:
        return model.parse(body, **context)  # type: ignore[attr-defined]
    except PayloadInvalid as exc:
        raise invalid(exc.errors) from None


def path_id(request: Request) -> str:
    """The `{id}` of the path in canonical form; an id that is not a UUID is simply not found."""
    try:
        return str(uuid.UUID(request.path_params["id"]))
    except ValueError:
        raise Problem(404, "No object with that id exists.") from None


def _int_param(request: Request, name: str, default: int, low: int, high: int | None) -> int:
    value = request.query_params.get(name)
    if value is None:
        return default
    try:
        number = int(value.strip())
    except ValueError:
        raise invalid({name: [f"The {name} must be a whole number."]}) from None
    if number < low or (high is not None and number > high):
        bound = f"from {low} to {high}" if high is not None else f"at least {low}"
        raise invalid({name: [f"The {name} must be {bound}."]})
    return number


def page_request(request: Request) -> PageRequest:
    """`page` (>= 1, default 1) and `size` (1..100, default 20) from the query."""
    return PageRequest(
        page=_int_param(request, "page", 1, 1, None),
        size=_int_param(request, "size", 20, 1, MAX_PAGE_SIZE),
    )


def id_filter(request: Request) -> list[str]:
    """The repeatable `id` query parameter, each a UUID."""
    values = request.query_params.getlist("id")
    if len(values) > MAX_IDS:
        raise invalid({"id": [f"At most {MAX_IDS} ids may be given."]})
    ids: list[str] = []
    for i, value in enumerate(values):
        try:
            ids.append(str(uuid.UUID(value)))
        except ValueError:
            raise invalid({f"id[{i}]": ["The id must be a UUID."]}) from None
    return ids


def name_filter(request: Request) -> str | None:
    """The `name` filter, at most as long as a name: a longer one could match nothing, and
    would reach SQLite's limit on LIKE patterns (a 500)."""
    value = request.query_params.get("name")
    if value and len(value) > NAME_MAX:
        raise invalid({"name": [f"The name filter must be at most {NAME_MAX} characters."]})
    if value and has_control_characters(value):
        # Names hold none, and SQLite's LIKE would read the pattern as cut at a NUL.
        raise invalid({"name": ["The name filter must not contain control characters."]})
    return value if value else None


def application_type_filter(request: Request) -> str | None:
    value = request.query_params.get("application_type")
    if value is None:
        return None
    if value not in APPLICATION_TYPES:
        raise invalid(
            {"application_type": [f"The application type must be one of {APPLICATION_TYPES}."]}
        )
    return value


def not_found(kind: str) -> Problem:
    return Problem(404, f"No {kind} with that id exists.")


def found_or_404(row: sqlite3.Row | None, kind: str) -> sqlite3.Row:
    """The stored row, or the 404 that unknown and other tenants' ids alike get."""
    if row is None:
        raise not_found(kind)
    return row
