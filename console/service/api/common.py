"""The pieces of a request's plumbing: the store, the key, the body, the path's id.

`serving` (console.service.api.serving) puts them together in the order the API checks them.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from datetime import datetime
from typing import Any, TypeVar

from fastapi import Request
from pydantic import ValidationError
from starlette.requests import ClientDisconnect

from console.clock import now
from console.models.errors import PayloadInvalid, field_errors
from console.service.api.problems import Problem, invalid
from console.service.store import Caller, Store
from console.service.store import applications as app_rows
from console.service.timestamps import stamp

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
    """The header this service reads the API key from (`serve --key-header`; create_app
    keeps it in the app's state)."""
    return request.app.state.key_header


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
        raise Problem(401, "The API key is not valid: unknown, expired, revoked or regenerated.")
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


def not_found(kind: str) -> Problem:
    return Problem(404, f"No {kind} with that id exists.")


def found_or_404(row: sqlite3.Row | None, kind: str) -> sqlite3.Row:
    """The stored row, or the 404 that unknown and other tenants' ids alike get."""
    if row is None:
        raise not_found(kind)
    return row
