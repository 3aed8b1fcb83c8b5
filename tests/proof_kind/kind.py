"""The widgets' declaration: what a new kind writes in console/kinds, here in the tests.

Not registered at import: a test registers it for its length (the `widgets_registered`
fixture), and the launcher (serve.py) before it serves.
"""

from __future__ import annotations

from console.kinds import EstateFacet, IndexFacet, Kind, Models, Nouns, UndoFacet


def _models() -> Models:
    from proof_kind.model import Widget, WidgetCreate, WidgetUpdate

    return Models(Widget, WidgetCreate, WidgetUpdate)


WIDGETS = Kind(
    key="widgets",
    path="/widgets",
    nouns=Nouns("widget", "widgets"),
    load_models=_models,
    permission="widget",
    name_filter=True,
    # -- export / apply (after the built-in kinds: nothing refers to a widget)
    estate=EstateFacet(order=4),
    # -- undo
    undo=UndoFacet(),
    # -- local index
    index=IndexFacet(name="widgets"),
)
