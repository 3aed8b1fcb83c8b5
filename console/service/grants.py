"""The permission catalogue the service serves and checks grants against.

It is the specification's catalogue (console.models.permissions) and, for a kind registered
beside the built-in ones (a test's own kind), the permissions its routes require: the
built-in kinds add nothing, their permissions are in the specification's catalogue. Derived
from the registry when asked, so a kind registered after import is granted like the others.
"""

from __future__ import annotations

from console.kinds import KINDS, Kind
from console.models.applications import Catalogue
from console.models.permissions import PERMISSIONS, PERMISSIONS_BY_TYPE, Permission

_MANAGEMENT = "management"


def verbs_of(kind: Kind) -> tuple[str, ...]:
    """The verbs a kind's routes answer, by its features: reading always."""
    features = kind.features
    wanted = (
        ("read", True),
        ("create", features.create),
        ("update", features.update or features.patch),
        ("delete", features.delete),
    )
    return tuple(verb for verb, served in wanted if served)


def _kind_permissions(kind: Kind) -> list[Permission]:
    """`widget:read`... of a kind whose permissions the specification does not list."""
    found = []
    for verb in verbs_of(kind):
        name = kind.permission_for(verb)
        if name is not None and name not in PERMISSIONS_BY_TYPE:
            description = f"{verb.capitalize()} {kind.nouns.plural}"
            found.append(
                Permission(type=name, description=description, application_types=[_MANAGEMENT])
            )
    return found


def catalogue() -> tuple[Permission, ...]:
    """Every permission, the specification's first, in its order."""
    return PERMISSIONS + tuple(p for kind in KINDS for p in _kind_permissions(kind))


def catalogue_types() -> Catalogue:
    """Permission type -> the application types that may hold it (a request's `catalogue=`)."""
    return {p.type: p.application_types for p in catalogue()}


def permissions_for(application_type: str | None) -> list[Permission]:
    """The catalogue, or the part of it that an application of this type may hold."""
    return [
        p
        for p in catalogue()
        if application_type is None or application_type in p.application_types
    ]


def management_grants() -> list[str]:
    """What a bootstrap management application holds: every management permission."""
    return [p.type for p in permissions_for(_MANAGEMENT)]
