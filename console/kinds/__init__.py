"""The registry of resource kinds: each kind declared once, below the client and the TUI.

`KINDS` holds the built-in kinds (console.kinds.builtin) and any a test registers; every
table of kinds in the console is derived from it when used.
"""

from __future__ import annotations

from console.kinds import builtin
from console.kinds.builtin import (
    APPLICATIONS,
    INVITATIONS,
    LOGS,
    MEMBERS,
    PERMISSIONS,
    PROXIES,
    REACTOR_FORMULAS,
    REACTORS,
    ROLES,
    TENANT,
    WEBHOOKS,
)
from console.kinds.declaration import READ_ONLY, Features, Kind, Models, Nouns, field_of
from console.kinds.facets import EstateFacet, IndexFacet, UndoFacet
from console.kinds.registry import KINDS, Registry

__all__ = [
    "APPLICATIONS",
    "INVITATIONS",
    "KINDS",
    "LOGS",
    "MEMBERS",
    "PERMISSIONS",
    "PROXIES",
    "REACTORS",
    "REACTOR_FORMULAS",
    "READ_ONLY",
    "ROLES",
    "TENANT",
    "WEBHOOKS",
    "EstateFacet",
    "Features",
    "IndexFacet",
    "Kind",
    "Models",
    "Nouns",
    "Registry",
    "UndoFacet",
    "builtin",
    "field_of",
]
