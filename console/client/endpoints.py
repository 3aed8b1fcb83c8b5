"""Which permission each endpoint needs, as the specification states it.

The client uses it to say which permission a 403 was about; screens can use it to grey
out actions a key may not take.
"""

from __future__ import annotations

from console.models.contract import PERMISSION_BY_ENDPOINT

FEATURE_BY_ENDPOINT: dict[tuple[str, str], str] = {
    ("GET", "/permissions"): "a permission catalogue",
    ("GET", "/reactor-formulas"): "reactor formulas",
    ("POST", "/reactor-formulas"): "creating reactor formulas",
    ("GET", "/tenants/self"): "reading the tenant",
    ("PUT", "/tenants/self"): "editing the tenant",
    ("DELETE", "/tenants/self"): "deleting the tenant",
    ("GET", "/tenants/self/reports/usage"): "a usage report",
    ("GET", "/proxies"): "proxies",
    ("POST", "/proxies"): "creating proxies",
    ("GET", "/applications"): "listing applications",
    ("POST", "/applications"): "creating applications",
    ("GET", "/applications/key"): "looking up the key's own application",
    ("POST", "/applications/{id}/regenerate"): "regenerating keys",
    ("POST", "/applications/{id}/keys"): "application keys",
    ("GET", "/applications/{id}/keys"): "application keys",
    ("GET", "/applications/{id}/keys/{keyId}"): "application keys",
    ("DELETE", "/applications/{id}/keys/{keyId}"): "application keys",
}
"""What a person would call each endpoint, for "This service does not offer ..."."""


def feature(method: str, path: str) -> str:
    """The endpoint at `method path` in words: `reactor formulas`, `regenerating keys`."""
    template = path_template(path)
    return FEATURE_BY_ENDPOINT.get((method.upper(), template), f"{method.upper()} {template}")


def is_route_level(path: str) -> bool:
    """Whether a 404 on `path` can only mean the route is missing: the path names no object
    (a list, `/tenants/self`, `/applications/key`), so no object can be the one not found."""
    return "{id}" not in path_template(path)


# First path segment -> the noun a person would use for one such object.
_NOUNS = {
    "applications": "application",
    "proxies": "proxy",
    "reactor-formulas": "reactor formula",
    "tenants": "tenant",
}
_LITERAL_SEGMENTS = {"key", "self", "reports", "usage", "regenerate", "keys"}


def path_template(path: str) -> str:
    """`/proxies/3f2c.../` -> `/proxies/{id}`: ids become a placeholder, literals stay; the
    id after `keys` is `{keyId}` (`/applications/{id}/keys/{keyId}`)."""
    parts = [p for p in path.split("?", 1)[0].split("/") if p]
    shaped = [
        p
        if (i == 0 or p in _LITERAL_SEGMENTS) and not (i > 0 and parts[i - 1] == "keys")
        else ("{keyId}" if parts[i - 1] == "keys" else "{id}")
        for i, p in enumerate(parts)
    ]
    return "/" + "/".join(shaped)


def required_permission(method: str, path: str) -> str | None:
    """The permission the endpoint at `method path` requires, or None if none or unknown."""
    return PERMISSION_BY_ENDPOINT.get((method.upper(), path_template(path)))


def subject(path: str) -> str | None:
    """What a 404 on `path` is about, in words: `proxy 3f2c...`, or None for a list or route."""
    parts = [p for p in path.split("?", 1)[0].split("/") if p]
    if len(parts) < 2 or parts[0] not in _NOUNS:
        return None
    if parts[0] == "tenants":
        return "tenant"
    if parts[1] == "key":
        return "application of this key"
    if len(parts) >= 4 and parts[0] == "applications" and parts[2] == "keys":
        return f"key {parts[3]} of application {parts[1]}"
    return f"{_NOUNS[parts[0]]} {parts[1]}"
