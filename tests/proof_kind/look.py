"""How widgets look in the console, and their form: what a new kind writes in
console/tui/browse and console/tui/forms, here in the tests (issue 34's proof)."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.widgets import Input

from console.tui.base.columns import Column
from console.tui.base.shown import JsonObject
from console.tui.browse.looks import ListLook
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.fields import FormField
from proof_kind.kind import WIDGETS
from proof_kind.model import Widget, WidgetCreate


class WidgetsLook(ListLook):
    """How widgets look: what a new kind writes in console/tui/browse, here in the tests."""

    filter_placeholder = "any column or column:value; enter asks the service by name"
    columns = (
        Column("name", "Name", lambda w: w["name"], min_width=16, grow=True),
        Column("colour", "Colour", lambda w: w.get("colour") or ""),
    )

    def fields(self, item: Widget, labels: Any = None) -> list[tuple[str, Any]]:
        return [("Id", str(item.id)), ("Name", item.name), ("Colour", item.colour or "")]


WIDGETS_LOOK = WidgetsLook(WIDGETS)


class WidgetForm(ResourceForm[Widget, WidgetCreate]):
    """A widget's form: what a new kind writes in console/tui/forms, here in the tests."""

    kind = WIDGETS_LOOK
    field_labels: ClassVar[dict[str, str]] = {"name": "Name", "colour": "Colour"}

    def compose_fields(self) -> ComposeResult:
        widget = self.obj
        yield FormField("Name", Input(widget.name if widget else "", id="name"), path="name")
        colour = (widget.colour or "") if widget else ""
        yield FormField("Colour", Input(colour, id="colour"), path="colour")

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        name = self.query_one("#name", Input).value
        return {"name": name, "colour": self.query_one("#colour", Input).value or None}, {}

    def validate(self, payload: JsonObject) -> WidgetCreate:
        return WidgetCreate.parse(payload)

    def payload_of(self, obj: Widget) -> JsonObject:
        return {"name": obj.name, "colour": obj.colour}

    async def send(self, body: JsonObject) -> Widget:
        widgets = self.client.collection(WIDGETS)
        if self.obj is None:
            return await widgets.create(body)
        return await widgets.update(self.obj.id, body)

    async def fetch_current(self) -> Widget:
        assert self.obj is not None
        return await self.client.collection(WIDGETS).get(self.obj.id)
