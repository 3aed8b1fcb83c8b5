"""Every route of every kind, derived when asked: the permission each requires (the service
and the client), what a person calls it, what a 404 on it is about, what the journal calls a
write to it.

A kind's standard routes follow from its path and features: a collection's list and create
at its path, read, update, patch and delete at an object's (`/proxies/{id}`); a singleton's
read, update and delete at its own path. Its special routes come from its declaration
(console.kinds.routes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from console.kinds.registry import KINDS

if TYPE_CHECKING:
    from console.kinds.declaration import Kind


@dataclass(frozen=True)
class Endpoint:
    """One route of the API as the console knows it: method, path template and what of it."""

    method: str
    template: str
    """The full path template: `/applications/{id}/keys/{keyId}`."""
    kind: Kind
    permission: str | None
    """What it requires; None: any valid key."""
    feature: str = ""
    subject: str = ""
    action: str = ""


def _permission(kind: Kind, needs: str | None) -> str | None:
    if needs is None:
        return None
    return needs if ":" in needs else kind.permission_for(needs)


def _standard(kind: Kind) -> list[Endpoint]:
    """The routes a kind's path and features give it."""
    nouns, features = kind.nouns, kind.features
    if kind.singleton:
        the = nouns.singular
        offered = [
            ("GET", "read", True, f"reading the {the}"),
            ("PUT", "update", features.update, f"editing the {the}"),
            ("PATCH", "update", features.patch, f"editing the {the}"),
            ("DELETE", "delete", features.delete, f"deleting the {the}"),
        ]
        return [
            Endpoint(method, kind.path, kind, kind.permission_for(verb), words)
            for method, verb, has, words in offered
            if has
        ]
    found = [Endpoint("GET", kind.path, kind, kind.permission_for("read"), nouns.plural)]
    if features.create:
        permission = kind.permission_for("create")
        found.append(Endpoint("POST", kind.path, kind, permission, f"creating {nouns.plural}"))
    if kind.routes.catalogue or not kind.routes.objects:
        return found
    item = kind.item_path("{id}")
    for method, verb, has in (
        ("GET", "read", True),
        ("PUT", "update", features.update),
        ("PATCH", "update", features.patch),
        ("DELETE", "delete", features.delete),
    ):
        if has:
            found.append(Endpoint(method, item, kind, kind.permission_for(verb)))
    return found


def endpoints_of(kind: Kind) -> tuple[Endpoint, ...]:
    """Every route of `kind`: the standard ones, then its special ones (a special route with
    a standard one's method and path replaces it)."""
    found = {(e.method, e.template): e for e in _standard(kind)}
    for route in kind.routes.special:
        template = kind.path + route.path
        found[(route.method, template)] = Endpoint(
            route.method,
            template,
            kind,
            _permission(kind, route.needs),
            route.feature,
            route.subject,
            route.action,
        )
    return tuple(found.values())


@dataclass(frozen=True)
class _Derived:
    """The routes of one set of kinds, kept while the registry holds those same kinds."""

    kinds: tuple[Kind, ...]
    endpoints: tuple[Endpoint, ...]
    by_route: dict[tuple[str, str], Endpoint]
    literals: frozenset[str]
    """The segments the routes name beyond a kind's first (`self`, `key`, `keys`)."""
    named: dict[str, str]
    """A segment -> the placeholder that follows it where not `{id}` (`keys` -> `{keyId}`)."""


_last: list[_Derived] = []


def _derived() -> _Derived:
    """The routes of the kinds registered now: derived again whenever a kind came or went
    (declarations are frozen, so the same kinds have the same routes)."""
    kinds = tuple(KINDS)
    if _last and _last[0].kinds == kinds:
        return _last[0]
    found = tuple(endpoint for kind in kinds for endpoint in endpoints_of(kind))
    literals: set[str] = set()
    named: dict[str, str] = {}
    for each in found:
        parts = _segments(each.template)
        for i, part in enumerate(parts[1:], start=1):
            if not _is_placeholder(part):
                literals.add(part)
            elif part != "{id}" and not _is_placeholder(parts[i - 1]):
                named[parts[i - 1]] = part
    by_route = {(e.method, e.template): e for e in found}
    derived = _Derived(kinds, found, by_route, frozenset(literals), named)
    _last[:] = [derived]
    return derived


def endpoints() -> tuple[Endpoint, ...]:
    """Every route of every registered kind."""
    return _derived().endpoints


def endpoint(method: str, template: str) -> Endpoint | None:
    """The route at `method template`, or None if no kind has it."""
    return _derived().by_route.get((method.upper(), template))


def permission_by_endpoint() -> dict[tuple[str, str], str | None]:
    """(method, path template) -> the permission it requires (None: any valid key)."""
    return {(e.method, e.template): e.permission for e in endpoints()}


def required_permission(method: str, template: str) -> str | None:
    """The permission `method template` requires (None: any valid key); KeyError for a route
    no kind has."""
    found = endpoint(method, template)
    if found is None:
        raise KeyError((method.upper(), template))
    return found.permission


def _segments(path: str) -> list[str]:
    return [p for p in path.split("?", 1)[0].split("/") if p]


def _is_placeholder(segment: str) -> bool:
    return segment.startswith("{") and segment.endswith("}")


def path_template(path: str) -> str:
    """`/proxies/3f2c.../` -> `/proxies/{id}`: ids become a placeholder, the segments the
    kinds' routes name stay; an id after a segment a route names it by takes that name
    (`/applications/{id}/keys/{keyId}`)."""
    derived = _derived()
    literals, named = derived.literals, derived.named
    parts = _segments(path)
    shaped = []
    for i, part in enumerate(parts):
        if i > 0 and parts[i - 1] in named:
            shaped.append(named[parts[i - 1]])
        elif i == 0 or part in literals:
            shaped.append(part)
        else:
            shaped.append("{id}")
    return "/" + "/".join(shaped)


def fill(template: str, route_template: str, path: str) -> str:
    """`template` ("key {keyId} of application {id}") with its placeholders taken from
    `path`, where `route_template` has them."""
    values = {
        part: value
        for part, value in zip(_segments(route_template), _segments(path), strict=False)
        if _is_placeholder(part)
    }
    for placeholder, value in values.items():
        template = template.replace(placeholder, value)
    return template


__all__ = [
    "Endpoint",
    "endpoint",
    "endpoints",
    "endpoints_of",
    "fill",
    "path_template",
    "permission_by_endpoint",
    "required_permission",
]
