"""What the client says of an endpoint: which permission it needs, what a person calls it,
what a 404 on it is about. All of it comes from the kinds' routes (console.kinds.endpoints),
asked when a response needs it.

The client uses it to say which permission a 403 was about; screens can use it to grey
out actions a key may not take.
"""

from __future__ import annotations

from console.kinds import KINDS
from console.kinds.endpoints import endpoint, endpoints, fill, path_template

__all__ = [
    "feature",
    "feature_by_endpoint",
    "is_route_level",
    "path_template",
    "required_permission",
    "subject",
]


def feature_by_endpoint() -> dict[tuple[str, str], str]:
    """What a person would call each endpoint, for "This service does not offer ..."."""
    return {(e.method, e.template): e.feature for e in endpoints() if e.feature}


def feature(method: str, path: str) -> str:
    """The endpoint at `method path` in words: `reactor formulas`, `regenerating keys`."""
    template = path_template(path)
    found = endpoint(method, template)
    return found.feature if found and found.feature else f"{method.upper()} {template}"


def is_route_level(path: str) -> bool:
    """Whether a 404 on `path` can only mean the route is missing: the path names no object
    (a list, `/tenants/self`, `/applications/key`), so no object can be the one not found."""
    return "{id}" not in path_template(path)


def required_permission(method: str, path: str) -> str | None:
    """The permission the endpoint at `method path` requires, or None if none or unknown."""
    found = endpoint(method, path_template(path))
    return found.permission if found else None


def subject(path: str) -> str | None:
    """What a 404 on `path` is about, in words: `proxy 3f2c...`, or None for a list or route."""
    parts = [p for p in path.split("?", 1)[0].split("/") if p]
    kind = KINDS.by_path(path) if len(parts) >= 2 else None
    if kind is None or kind.routes.catalogue:
        return None
    if kind.singleton:
        return kind.nouns.singular
    said = [e for e in endpoints() if e.kind is kind and e.subject and _begins(parts, e.template)]
    if said:
        route = max(said, key=lambda e: len(e.template))
        return fill(route.subject, route.template, path)
    depth = len([p for p in kind.path.split("/") if p])
    return f"{kind.nouns.singular} {parts[depth]}" if len(parts) > depth else None


def _begins(parts: list[str], template: str) -> bool:
    """Whether the path `parts` begins with the route `template` (a placeholder matches any
    segment): `/applications/a/keys/k` with `/applications/{id}/keys/{keyId}`."""
    wanted = [p for p in template.split("/") if p]
    return len(parts) >= len(wanted) and all(
        w == p or (w.startswith("{") and w.endswith("}"))
        for w, p in zip(wanted, parts, strict=False)
    )
