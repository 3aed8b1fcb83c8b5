"""The cursor of a list, kept where the admin acted: on the same object when the rows are read
again, sorted or filtered (else its neighbour, else its row), and the highlighted object as a
model, made once. A part of ResourceList (console.tui.widgets.resource_list).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from console.tui.base.shown import JsonObject, Shown
    from console.tui.browse.kinds import ResourceKind


@dataclass(frozen=True)
class Place:
    """Where the cursor stood before the rows were read again: the ids of the objects to put
    it back on, best first, and its row, for when none of them is there any more."""

    ids: tuple[str, ...]
    row: int


class ListCursor:
    """Where the cursor goes when the rows shown change, and the model of the row under it.

    Rows are the objects as the service sent them; the model (console.models) is made only
    when asked for, and once per object, so moving the cursor costs no validation."""

    def __init__(self, kind: ResourceKind) -> None:
        self.kind = kind
        self._typed: tuple[JsonObject, Shown] | None = None

    def place(self, shown: list[JsonObject], row: int, focus_id: str | None) -> Place:
        """Where the cursor is (on `row` of `shown`): the ids to put it back on, best first
        (`focus_id`, when given: an object just created or changed), and its row."""
        ids = [focus_id] if focus_id else []
        # The row itself, then its neighbours: the one below takes a deleted row's place.
        ids += [self.kind.item_id(shown[n]) for n in (row, row + 1, row - 1) if 0 <= n < len(shown)]
        return Place(tuple(i for i in ids if i), row)

    def row_in(
        self, shown: list[JsonObject], current: JsonObject | None, place: Place | None
    ) -> int:
        """The row of `current` among `shown`, or of the first of `place`'s ids there (else
        its row, within the rows); 0 when neither is given or found."""
        if place is None:
            return next((n for n, item in enumerate(shown) if item is current), 0)
        rows = {self.kind.item_id(item): n for n, item in enumerate(shown)}
        found = next((rows[i] for i in place.ids if i in rows), None)
        return found if found is not None else max(0, min(place.row, len(shown) - 1))

    def model(self, row: JsonObject) -> Shown:
        """The model of `row`, made the first time it is asked for."""
        if self._typed is None or self._typed[0] is not row:
            self._typed = (row, self.kind.model_of(row))
        return self._typed[1]

    def forget(self) -> None:
        """The rows were read again: no model made from the old ones is kept."""
        self._typed = None
