"""The kinds a configuration document carries, asked of the registry (console.kinds) each
time: a kind registered later (a test's own) travels with no other change.

Besides the kinds, a document holds the tenant's settings: a step of a plan is of a kind's key
or of SETTINGS.
"""

from __future__ import annotations

from console.kinds import KINDS, EstateFacet, Kind

SETTINGS = "settings"
"""The document's section of tenant settings, and the kind of a plan's setting steps."""
TENANT = "tenant"
"""The document's field naming the tenant it was exported from."""


def in_document() -> tuple[Kind, ...]:
    """The travelling kinds in the order a document writes them: the order they are declared
    in (so existing exports stay as they were)."""
    return tuple(kind for kind in KINDS if kind.estate is not None)


def in_apply_order() -> tuple[Kind, ...]:
    """The travelling kinds, a kind another refers to first."""
    return KINDS.travelling()


def estate_of(kind: Kind) -> EstateFacet:
    """The kind's estate facet; only travelling kinds are asked."""
    assert kind.estate is not None, f"{kind!r} does not travel"
    return kind.estate


def noun(key: str) -> str:
    """What a person calls one thing of a step's kind: "proxy", "setting"."""
    return "setting" if key == SETTINGS else KINDS.get(key).nouns.singular


def heading(key: str) -> str:
    """The heading of a step's kind in a plan: "Reactor formulas", "Settings"."""
    return "Settings" if key == SETTINGS else KINDS.get(key).nouns.title
