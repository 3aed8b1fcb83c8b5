"""The parts of a kind's declaration one workflow reads: export/apply, undo, the local index.

Each facet is optional: a kind without `estate` does not travel between tenants, one without
`undo` cannot be undone, one without `index` is not kept in the local index.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EstateFacet:
    """How a kind travels in a configuration document (console.estate)."""

    order: int
    """Its place in apply order: a kind another refers to comes first."""


@dataclass(frozen=True)
class UndoFacet:
    """How the journal takes a change of this kind back (console.journal.undo)."""


@dataclass(frozen=True)
class IndexFacet:
    """How the local index (console.client.index) records objects of this kind."""

    name: str
    """The kind's name in the index's rows (kept as it was: indexes on disk hold it), and
    the word `tenant-console search --kind` takes."""
    word: str = ""
    """One object's kind in the search's table ("formula"); the singular noun if not given."""
