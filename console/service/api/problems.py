"""RFC 7807 problem details: every error the service sends, in one shape."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from starlette.responses import JSONResponse

PROBLEM_JSON = "application/problem+json"


class Problem(Exception):
    """An error response to send: raise it anywhere in a handler."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        errors: dict[str, list[str]] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}


def invalid(errors: dict[str, list[str]]) -> Problem:
    """A 400 for a payload or query that broke rules, keyed by JSON path."""
    return Problem(400, "One or more validation errors occurred.", errors=errors)


def problem_body(
    status: int, detail: str | None, errors: dict[str, list[str]] | None = None
) -> dict[str, Any]:
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = "Error"
    body: dict[str, Any] = {"type": "about:blank", "title": title, "status": status}
    if detail is not None:
        body["detail"] = detail
    if errors is not None:
        body["errors"] = errors
    return body


def problem_response(
    status: int,
    detail: str | None,
    errors: dict[str, list[str]] | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    return JSONResponse(
        problem_body(status, detail, errors),
        status_code=status,
        headers=headers,
        media_type=PROBLEM_JSON,
    )
