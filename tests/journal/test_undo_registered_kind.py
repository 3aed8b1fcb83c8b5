"""Undo knows kinds through the registry alone: a kind registered in a test, with an undo
facet, is planned like the built-in ones (a delete made again at its path, an update written
back, a create deleted), and the objects that used a deleted one are linked again."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any
from uuid import uuid4

import pytest
from pydantic import BaseModel

from console.journal.store import OK, Change
from console.journal.undo import CannotUndo, creation_body, plan_undo
from console.kinds import KINDS, Features, Kind, Models, Nouns, UndoFacet
from console.kinds.facets import Reference


class Widget(BaseModel):
    id: str
    name: str


def _models() -> Models:
    return Models(Widget, Widget, Widget)


WIDGETS = Kind(
    key="widgets",
    path="/widgets",
    nouns=Nouns("widget", "widgets"),
    load_models=_models,
    permission="widget",
    undo=UndoFacet(),
)
GIZMOS = Kind(
    key="gizmos",
    path="/gizmos",
    nouns=Nouns("gizmo", "gizmos"),
    load_models=_models,
    permission="gizmo",
    undo=UndoFacet(reference=Reference("widgets", "widget", "widget_id")),
)
GADGETS = Kind(
    key="gadgets",
    path="/gadgets",
    nouns=Nouns("gadget", "gadgets"),
    load_models=_models,
    features=Features(),
)
"""A kind without an undo facet: its changes cannot be undone."""


@pytest.fixture(autouse=True)
def test_kinds() -> Iterator[None]:
    with KINDS.registered(WIDGETS), KINDS.registered(GIZMOS), KINDS.registered(GADGETS):
        yield


def change(kind: str, action: str, **fields: Any) -> Change:
    values: dict[str, Any] = {
        "id": 7,
        "started_at": datetime.now(UTC),
        "completed_at": datetime.now(UTC),
        "profile": "prod",
        "base_url": "http://127.0.0.1:1",
        "tenant": "Prod",
        "kind": kind,
        "object_id": None,
        "name": "Blue",
        "action": action,
        "origin": "console",
        "undoes": None,
        "method": "",
        "path": "",
        "before": None,
        "after": None,
        "request": None,
        "outcome": OK,
    }
    return Change(**(values | fields))


def test_a_deleted_object_of_a_registered_kind_is_created_again_at_its_path() -> None:
    widget_id = str(uuid4())
    before = {"id": widget_id, "name": "Blue", "size": 3, "created_at": "2026-01-01T00:00:00"}
    plan = plan_undo(change("widgets", "delete", object_id=widget_id, before=before))
    assert (plan.action, plan.path, plan.target_id) == ("create", "/widgets", None)
    assert plan.payload == {"name": "Blue", "size": 3}
    assert plan.permission == "widget:create"
    assert plan.summary == 'Create widget "Blue" again (it gets a new id)'
    assert (plan.relink, plan.notes) == ([], [])


def test_an_update_of_a_registered_kind_is_written_back_to_the_object() -> None:
    widget_id = str(uuid4())
    before = {"id": widget_id, "name": "Blue", "size": 3}
    after = {"id": widget_id, "name": "Blue", "size": 4}
    plan = plan_undo(change("widgets", "update", object_id=widget_id, before=before, after=after))
    assert (plan.action, plan.path, plan.target_id) == (
        "update",
        f"/widgets/{widget_id}",
        widget_id,
    )
    assert plan.payload == {"name": "Blue", "size": 3}
    assert plan.permission == "widget:update"
    assert [(d.field, d.old, d.new) for d in plan.diffs] == [("size", "4", "3")]


def test_a_create_of_a_registered_kind_is_taken_back_by_deleting_it() -> None:
    widget_id = str(uuid4())
    plan = plan_undo(change("widgets", "create", after={"id": widget_id, "name": "Blue"}))
    assert (plan.action, plan.path, plan.permission) == (
        "delete",
        f"/widgets/{widget_id}",
        "widget:delete",
    )


def test_a_registered_kind_without_an_undo_facet_cannot_be_undone() -> None:
    with pytest.raises(CannotUndo, match="Changes to gadgets cannot be undone from the console"):
        plan_undo(change("gadgets", "delete", object_id=str(uuid4()), before={"name": "x"}))


def test_objects_using_a_deleted_object_of_a_registered_kind_are_linked_again() -> None:
    widget_id, gizmo_id = str(uuid4()), str(uuid4())
    deleted = change(
        "widgets",
        "delete",
        object_id=widget_id,
        before={"id": widget_id, "name": "Blue"},
        related={"linked_gizmos": [{"id": gizmo_id, "name": "Cog"}]},
    )
    plan = plan_undo(deleted)
    assert plan.relink == [{"id": gizmo_id, "name": "Cog", "kind": "gizmos"}]
    assert plan.notes == ["1 gizmo used it: Cog"]
    gizmo = {"id": gizmo_id, "name": "Cog", "widget_id": widget_id}
    assert creation_body("gizmos", gizmo) == {"name": "Cog", "widget": {"id": widget_id}}


def test_the_id_of_the_object_a_registered_kind_uses_is_checked() -> None:
    gizmo_id = str(uuid4())
    deleted = change(
        "gizmos",
        "delete",
        object_id=gizmo_id,
        before={"id": gizmo_id, "name": "Cog", "widget_id": "../tenants/self"},
    )
    with pytest.raises(CannotUndo, match=re.escape("before.widget_id '../tenants/self'")):
        plan_undo(deleted)
