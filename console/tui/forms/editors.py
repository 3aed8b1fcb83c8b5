"""Small editors of lists: key/value pairs, and rows of a formula's contract."""

from __future__ import annotations

from typing import Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static, Switch

from console.tui.base.shown import JsonObject
from console.tui.forms.fields import FormField
from console.tui.widgets.toggles import TextSwitch

RowT = TypeVar("RowT")
"""What one row edits (a name/value pair, a contract item as a dict)."""

VALUE_TYPES = ("string", "boolean", "number")


def _type_options(item: JsonObject) -> list[tuple[str, str]]:
    """The three value types, plus a type of the service's own that the item has (kept)."""
    options = [(t, t) for t in VALUE_TYPES]
    current = item.get("type")
    if current and current not in VALUE_TYPES:
        options.append((f"{current} (this service's own)", current))
    return options


class ListEditor(Vertical, Generic[RowT]):
    """Rows added with a button and removed with their own; subclasses make the rows."""

    DEFAULT_CSS = """
    ListEditor {
        height: auto;
    }
    ListEditor > .rows {
        height: auto;
    }
    ListEditor > .list-empty {
        color: $text-muted;
    }
    ListEditor > .list-head {
        height: 1;
        color: $text-muted;
        text-style: bold;
    }
    ListEditor > .list-head > Static {
        padding-left: 2;
    }
    ListEditor .-wide {
        width: 1fr;
    }
    ListEditor .-type {
        width: 16;
    }
    ListEditor .-switch {
        width: 10;
    }
    ListEditor .-gap {
        width: 5;
    }
    ListEditor .list-row {
        height: auto;
        margin-bottom: 0;
    }
    ListEditor .list-row > Horizontal {
        height: auto;
    }
    ListEditor .list-row Input {
        width: 1fr;
    }
    ListEditor .list-row Select {
        width: 16;
    }
    ListEditor .list-row Switch {
        width: 10;
    }
    ListEditor .list-row .row-remove {
        min-width: 5;
        width: 5;
    }
    ListEditor > .add-row {
        margin-top: 1;
    }
    """

    add_label = "+ Add"
    empty_text = "None."
    head: tuple[tuple[str, str], ...] = ()
    """Column titles, one per input widget of a row (their classes give the widths)."""

    class Changed(Message):
        """A row was added or removed."""

    def __init__(self, rows: list[RowT], *, read_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial = rows
        self.read_only = read_only

    def compose(self) -> ComposeResult:
        yield Static(self.empty_text, classes="list-empty")
        if self.head:
            with Horizontal(classes="list-head"):
                for title, width_class in self.head:
                    yield Static(title, classes=width_class)
        with Vertical(classes="rows"):
            for index, row in enumerate(self._initial):
                yield self.make_row(row, index)
        if not self.read_only:
            yield Button(self.add_label, classes="add-row")

    def on_mount(self) -> None:
        self._show_empty()

    def make_row(self, value: RowT | None, index: int) -> Vertical:
        raise NotImplementedError

    def renumber(self, row: Vertical, index: int) -> None:
        """Rows whose errors are reported by index update their paths here."""

    @property
    def rows(self) -> list[Vertical]:
        return list(self.query_one(".rows").query_children(".list-row").results(Vertical))

    def _show_empty(self) -> None:
        self.query_one(".list-empty", Static).display = not self.rows
        for head in self.query(".list-head"):
            head.display = bool(self.rows)

    async def add_row(self, value: RowT | None = None) -> Vertical:
        row = self.make_row(value, len(self.rows))
        await self.query_one(".rows").mount(row)
        self._show_empty()
        inputs = row.query(Input)
        if inputs:
            inputs.first().focus()
        self.post_message(self.Changed())
        return row

    @on(Button.Pressed, ".add-row")
    async def _add_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self.add_row()

    @on(Button.Pressed, ".row-remove")
    async def _remove_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        row = next(a for a in event.button.ancestors if isinstance(a, Vertical) and a in self.rows)
        await row.remove()
        for index, other in enumerate(self.rows):
            self.renumber(other, index)
        self._show_empty()
        self.post_message(self.Changed())


class KeyValueEditor(ListEditor[tuple[str, str]]):
    """A map of string to string, e.g. a proxy's configuration."""

    add_label = "+ Add setting"
    empty_text = "No settings."
    head = (("Name", "-wide"), ("Value", "-wide"), ("", "-gap"))

    def __init__(
        self, values: dict[str, str] | None, *, read_only: bool = False, id: str | None = None
    ) -> None:
        super().__init__(list((values or {}).items()), read_only=read_only, id=id)

    def make_row(self, value: tuple[str, str] | None, index: int) -> Vertical:
        key, text = value or ("", "")
        widgets: list[Widget] = [
            Input(key, placeholder="name", classes="kv-key"),
            Input(text, placeholder="value", classes="kv-value"),
        ]
        if not self.read_only:
            widgets.append(
                Button("✕", classes="row-remove", compact=True, tooltip="Remove this setting")
            )
        row = Vertical(Horizontal(*widgets), classes="list-row")
        if self.read_only:
            for widget in row.query("Input, Button"):
                widget.disabled = True
        return row

    def pairs(self) -> list[tuple[str, str]]:
        return [
            (row.query_one(".kv-key", Input).value, row.query_one(".kv-value", Input).value)
            for row in self.rows
        ]

    def value(self) -> tuple[dict[str, str] | None, list[str]]:
        """The map (None when empty) and sentences about rows that cannot be in it."""
        result: dict[str, str] = {}
        problems: list[str] = []
        for key, text in self.pairs():
            name = key.strip()
            if not name and not text:
                continue
            if not name:
                problems.append(f'The setting with value "{text}" needs a name.')
            elif name in result:
                problems.append(f"The setting {name} is given twice.")
            else:
                result[name] = text
        return (result or None), problems


class ContractEditor(ListEditor[JsonObject]):
    """A formula's configuration or request parameters: name, description, type (optional)."""

    def __init__(
        self, kind: str, items: list[JsonObject], *, read_only: bool = False, id: str | None = None
    ) -> None:
        super().__init__(items, read_only=read_only, id=id)
        self.kind = kind
        self.with_optional = kind == "request_parameters"
        noun = "parameter" if self.with_optional else "setting"
        self.add_label = f"+ Add {noun}"
        self.empty_text = f"No {noun}s."
        columns = [("Name", "-wide"), ("Description", "-wide"), ("Type", "-type")]
        if self.with_optional:
            columns.append(("Optional", "-switch"))
        self.head = (*columns, ("", "-gap"))

    def make_row(self, value: JsonObject | None, index: int) -> Vertical:
        item = value or {"type": "string"}
        widgets: list[Widget] = [
            Input(item.get("name") or "", placeholder="name", classes="contract-name"),
            Input(
                item.get("description") or "", placeholder="description", classes="contract-desc"
            ),
            Select(
                _type_options(item),
                value=item.get("type") or "string",
                allow_blank=False,
                classes="contract-type",
            ),
        ]
        if self.with_optional:
            widgets.append(TextSwitch(bool(item.get("optional")), classes="contract-optional"))
        if not self.read_only:
            widgets.append(Button("✕", classes="row-remove", compact=True, tooltip="Remove"))
        row = FormField("", Horizontal(*widgets), path=f"{self.kind}[{index}]", classes="list-row")
        if self.read_only:
            for widget in widgets:
                widget.disabled = True
        return row

    def renumber(self, row: Vertical, index: int) -> None:
        if isinstance(row, FormField):
            row.path = f"{self.kind}[{index}]"

    def value(self) -> list[JsonObject]:
        items = []
        for row in self.rows:
            description = row.query_one(".contract-desc", Input).value
            type_value = row.query_one(".contract-type", Select).value
            item: JsonObject = {
                "name": row.query_one(".contract-name", Input).value.strip(),
                "description": description or None,
                "type": None if type_value is Select.NULL else type_value,
            }
            if self.with_optional:
                item["optional"] = row.query_one(".contract-optional", Switch).value
            items.append(item)
        return items
