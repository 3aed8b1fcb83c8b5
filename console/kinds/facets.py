"""The parts of a kind's declaration one workflow reads: export/apply, undo, the local index.

Each facet is optional: a kind without `estate` does not travel between tenants, one without
`undo` cannot be undone, one without `index` is not kept in the local index.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from console.kinds.estate_facet import EstateFacet as EstateFacet
from console.kinds.reference import Reference as Reference
from console.kinds.undo_hooks import recorded_fields

BodyHook = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A request body made from an object as the journal recorded it (console.kinds.undo_hooks)."""


@dataclass(frozen=True)
class UndoFacet:
    """How the journal takes a change of this kind back (console.journal.undo): a delete by
    creating the object again, an update by writing it back, a create by deleting it."""

    creation_body: BodyHook = recorded_fields
    """The create request that makes a recorded object again."""
    update_body: BodyHook | None = None
    """The update request that writes a recorded object back; None: as `creation_body`."""
    new_key: Callable[[Mapping[str, Any]], str | None] | None = None
    """The key an object made again comes with, from the create's answer (shown once);
    None: the kind's objects have none."""
    reference: Reference | None = None
    """The field through which its objects use another kind's, if any."""


@dataclass(frozen=True)
class IndexFacet:
    """How the local index (console.client.index) records objects of this kind."""

    name: str
    """The kind's name in the index's rows (kept as it was: indexes on disk hold it), and
    the word `tenant-console search --kind` takes."""
    word: str = ""
    """One object's kind in the search's table ("formula"); the singular noun if not given."""
