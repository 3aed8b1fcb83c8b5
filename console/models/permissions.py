"""The catalogue of the 30 permissions: the one place that lists them.

The service serves it from `GET /permissions`, request models check against it, and the
console's checklists are filled from the served copy.
"""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict

from console.models.common import LenientModel, Strings

ApplicationType = Literal["private", "public", "management"]
APPLICATION_TYPES: tuple[ApplicationType, ...] = ("private", "public", "management")


class Permission(LenientModel):
    """A grant an endpoint requires, and the application types it may be given to.

    Read leniently: a service's catalogue may hold more permissions, and more types, than
    the thirty compiled in here."""

    model_config = ConfigDict(frozen=True)

    type: str
    description: str = ""
    application_types: Strings = []


_PUBLIC_PRIVATE: list[str] = ["public", "private"]
_PRIVATE: list[str] = ["private"]
_MANAGEMENT: list[str] = ["management"]
_INVOKERS: list[str] = ["private", "management"]
"""Who may invoke reactors: private applications, as on the hosted service, and management
ones, so that the console's own key can try a reactor on the local service."""

PERMISSIONS: tuple[Permission, ...] = tuple(
    Permission(type=t, description=d, application_types=a)
    for t, d, a in [
        ("token:create", "Create tokens", _PUBLIC_PRIVATE),
        ("token:update", "Update tokens", _PUBLIC_PRIVATE),
        ("token:read", "Read tokens", _PRIVATE),
        ("token:search", "Search tokens", _PRIVATE),
        ("token:delete", "Delete tokens", _PRIVATE),
        (
            "token:use",
            "Use tokens in the service's own features (for example proxies, reactors)",
            _PRIVATE,
        ),
        ("tenant:read", "Read tenants", _MANAGEMENT),
        ("tenant:update", "Update tenants", _MANAGEMENT),
        ("tenant:delete", "Delete tenants", _MANAGEMENT),
        ("application:read", "Read applications", _MANAGEMENT),
        ("application:create", "Create applications", _MANAGEMENT),
        (
            "application:update",
            "Update applications and regenerate their API keys",
            _MANAGEMENT,
        ),
        ("application:delete", "Delete applications", _MANAGEMENT),
        ("log:read", "Read audit logs", _MANAGEMENT),
        ("reactor:read", "Read reactor formulas and reactors", _MANAGEMENT),
        ("reactor:create", "Create reactor formulas and reactors", _MANAGEMENT),
        ("reactor:update", "Update reactor formulas and reactors", _MANAGEMENT),
        ("reactor:delete", "Delete reactor formulas and reactors", _MANAGEMENT),
        ("reactor:invoke", "Invoke reactors (react, react-async, results)", _INVOKERS),
        ("proxy:read", "Read proxies", _MANAGEMENT),
        ("proxy:create", "Create proxies", _MANAGEMENT),
        ("proxy:update", "Update proxies", _MANAGEMENT),
        ("proxy:delete", "Delete proxies", _MANAGEMENT),
        ("tenant:member:read", "Read tenant members", _MANAGEMENT),
        ("tenant:member:update", "Update tenant members", _MANAGEMENT),
        ("tenant:member:delete", "Delete tenant members", _MANAGEMENT),
        ("tenant:invitation:create", "Create tenant invitations", _MANAGEMENT),
        ("tenant:invitation:read", "Read tenant invitations", _MANAGEMENT),
        ("tenant:invitation:update", "Update tenant invitations", _MANAGEMENT),
        ("tenant:invitation:delete", "Delete tenant invitations", _MANAGEMENT),
        ("report:read", "Read reports", _MANAGEMENT),
        ("webhook:read", "Read webhooks and their event types", _MANAGEMENT),
        ("webhook:create", "Create webhooks", _MANAGEMENT),
        (
            "webhook:update",
            "Update webhooks (enable, disable) and trigger sample events",
            _MANAGEMENT,
        ),
        ("webhook:delete", "Delete webhooks", _MANAGEMENT),
    ]
)

PERMISSIONS_BY_TYPE: dict[str, Permission] = {p.type: p for p in PERMISSIONS}

MANAGEMENT_PERMISSIONS: tuple[str, ...] = tuple(
    p.type for p in PERMISSIONS if "management" in p.application_types
)


def permissions_for(application_type: str | None) -> list[Permission]:
    """The catalogue, or the part of it that an application of this type may hold."""
    if application_type is None:
        return list(PERMISSIONS)
    return [p for p in PERMISSIONS if application_type in p.application_types]
