"""The widgets' declaration: what a new kind writes in console/kinds, here in the tests.

Not registered at import: a test registers it for its length (the `widgets_registered`
fixture), and the launcher (serve.py) before it serves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from console.kinds import EstateFacet, IndexFacet, Kind, Models, Nouns, UndoFacet
from console.kinds.estate_facet import FileCheck

WIDGET_FIELDS = ("name", "colour")


def _models() -> Models:
    from proof_kind.model import Widget, WidgetCreate, WidgetUpdate

    return Models(Widget, WidgetCreate, WidgetUpdate)


def widget_item(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A widget as configured (its normal form in a configuration document)."""
    return {"name": raw.get("name"), "colour": raw.get("colour")}


def check_widget(check: FileCheck, item: Mapping[str, Any], path: str) -> None:
    """A widget of a configuration file, checked as the service would."""
    check.fields(item, WIDGET_FIELDS, path)
    check.name(item, path)
    check.text(item.get("colour"), f"{path}.colour")


WIDGETS = Kind(
    key="widgets",
    path="/widgets",
    nouns=Nouns("widget", "widgets"),
    load_models=_models,
    permission="widget",
    name_filter=True,
    # -- export / apply (after the built-in kinds: nothing refers to a widget)
    estate=EstateFacet(order=4, form=widget_item, check=check_widget),
    # -- undo
    undo=UndoFacet(),
    # -- local index
    index=IndexFacet(name="widgets"),
)
