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
    restored_as: str | None = None
    """The key of the kind whose create brings a deleted object back, when it is not its own:
    a removed member comes back by an invitation (`creation_body` makes that request)."""
    restore_summary: Callable[[Mapping[str, Any]], str] | None = None
    """What restoring does, in a sentence made from the create request's body; None: "Create
    <kind> <name> again (it gets a new id)"."""
    restore_note: str = ""
    """What a person must know of a restore (a member must accept the invitation again)."""
    delete_verb: str = "Delete"
    """The word for deleting one (an invitation is revoked): the undo of a create says it."""
    nothing_to_undo: tuple[tuple[str, str], ...] = ()
    """Actions recorded with nothing to take back, each with the reason (`resend`)."""

    def final_reason(self, action: str) -> str | None:
        """Why a change `action` has nothing to undo, if it has nothing."""
        return dict(self.nothing_to_undo).get(action)


@dataclass(frozen=True)
class IndexFacet:
    """How the local index (console.client.index) records objects of this kind."""

    name: str
    """The kind's name in the index's rows (kept as it was: indexes on disk hold it), and
    the word `tenant-console search --kind` takes."""
    word: str = ""
    """One object's kind in the search's table ("formula"); the singular noun if not given."""
    also: tuple[str, ...] = ()
    """Fields a live search matches besides the name (a webhook's `url`); never kept in the
    index, which holds names only (a URL may carry a token)."""

    def matches(self, item: Mapping[str, Any], found: Callable[[str], bool]) -> bool:
        """Whether `found` (a name pattern's search) holds for the object's name or any of
        its `also` fields, as sent."""
        for field in ("name", *self.also):
            value = item.get(field)
            if isinstance(value, str) and found(value):
                return True
        return False
