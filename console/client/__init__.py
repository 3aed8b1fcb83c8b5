"""Async HTTP client for every endpoint of the tenant administration API.

    from console.client import AdminClient, ApiError

The error classes load at once (they need neither httpx nor pydantic); AdminClient, Page
and RetryPolicy load on first use, so importing this package costs next to nothing.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from console.client.errors import (
    ApiError,
    Forbidden,
    NotFound,
    NotOffered,
    RateLimited,
    ReactorFailed,
    ServerError,
    ServiceUnreachable,
    Unauthorized,
    UnexpectedResponse,
    UnsafePath,
    ValidationFailed,
)

if TYPE_CHECKING:
    from console.client._http import DEFAULT_TIMEOUT, RetryPolicy
    from console.client.client import AdminClient
    from console.client.endpoints import required_permission
    from console.models import Page

_LAZY = {
    "AdminClient": "console.client.client",
    "RetryPolicy": "console.client._http",
    "DEFAULT_TIMEOUT": "console.client._http",
    "Page": "console.models",
    "required_permission": "console.client.endpoints",
}


def _without_httpx_cli() -> None:
    """httpx's package init imports its command-line tool (click, pygments, rich.syntax...)
    whenever those are installed, as they are beside Textual: some 3 MB and 30-50 ms of the
    console's start-up for a `main` nothing here calls. An empty `httpx._main` registered
    before httpx loads keeps them out (`httpx.main` is then a no-op in this process only)."""
    if "httpx" in sys.modules or "httpx._main" in sys.modules:
        return
    stub = types.ModuleType("httpx._main")
    stub.main = lambda: None  # type: ignore[attr-defined]
    sys.modules["httpx._main"] = stub


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'console.client' has no attribute {name!r}")
    _without_httpx_cli()
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_TIMEOUT",
    "AdminClient",
    "ApiError",
    "Forbidden",
    "NotFound",
    "NotOffered",
    "Page",
    "RateLimited",
    "ReactorFailed",
    "RetryPolicy",
    "ServerError",
    "ServiceUnreachable",
    "Unauthorized",
    "UnexpectedResponse",
    "UnsafePath",
    "ValidationFailed",
    "required_permission",
]
