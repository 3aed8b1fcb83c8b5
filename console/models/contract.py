"""The API's contract constants, in one place for the client, the service and the tests:
the header that carries the key, and the permission each endpoint requires.

Light (standard library only): the console's first-page reader and the profiles import it
before pydantic loads (this package's names load lazily, see console/models/__init__.py).
"""

from __future__ import annotations

import re

DEFAULT_KEY_HEADER = "SVC-API-KEY"

_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")
"""An HTTP field name (RFC 9110 token), bounded."""


def checked_header_name(name: str) -> str:
    """`name`, stripped, if it can name an HTTP header; ValueError with a sentence otherwise."""
    name = str(name).strip()
    if not _TOKEN.match(name):
        raise ValueError(
            f"{name!r} is not a valid header name: use letters, digits and - (e.g. SVC-API-KEY)."
        )
    return name


# (method, path template) -> permission; None where any valid key will do.
PERMISSION_BY_ENDPOINT: dict[tuple[str, str], str | None] = {
    ("GET", "/permissions"): None,
    ("POST", "/reactor-formulas"): "reactor:create",
    ("GET", "/reactor-formulas"): "reactor:read",
    ("GET", "/reactor-formulas/{id}"): "reactor:read",
    ("PUT", "/reactor-formulas/{id}"): "reactor:update",
    ("DELETE", "/reactor-formulas/{id}"): "reactor:delete",
    ("GET", "/tenants/self"): "tenant:read",
    ("PUT", "/tenants/self"): "tenant:update",
    ("DELETE", "/tenants/self"): "tenant:delete",
    ("GET", "/tenants/self/reports/usage"): "report:read",
    ("POST", "/proxies"): "proxy:create",
    ("GET", "/proxies"): "proxy:read",
    ("GET", "/proxies/{id}"): "proxy:read",
    ("PUT", "/proxies/{id}"): "proxy:update",
    ("DELETE", "/proxies/{id}"): "proxy:delete",
    ("POST", "/applications"): "application:create",
    ("GET", "/applications"): "application:read",
    ("GET", "/applications/key"): "application:read",
    ("GET", "/applications/{id}"): "application:read",
    ("PUT", "/applications/{id}"): "application:update",
    ("POST", "/applications/{id}/regenerate"): "application:update",
    ("DELETE", "/applications/{id}"): "application:delete",
    # Application Keys: beyond the spec, as the hosted service has them (api-decisions.md
    # leaves them out; docs/local-service-keys.md says what the local service does).
    ("POST", "/applications/{id}/keys"): "application:update",
    ("GET", "/applications/{id}/keys"): "application:read",
    ("GET", "/applications/{id}/keys/{keyId}"): "application:read",
    ("DELETE", "/applications/{id}/keys/{keyId}"): "application:update",
}


def required_permission(method: str, template: str) -> str | None:
    """The permission `method template` requires (None: any valid key); KeyError for an
    endpoint the specification does not have."""
    return PERMISSION_BY_ENDPOINT[(method.upper(), template)]
