"""A two-column label/value view of an object's fields."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from console.tui.browse.kinds import Renderable


def fields_table(fields: list[tuple[str, Renderable]]) -> Table:
    table = Table.grid(padding=(0, 2), expand=True)
    table.add_column(style="bold", no_wrap=True, min_width=18)
    table.add_column(ratio=1, overflow="fold")
    for label, value in fields:
        table.add_row(Text(label, style="bold"), value)
    return table


class FieldsView(Static):
    """Label/value rows; `fields` keeps what is shown, for tests."""

    DEFAULT_CSS = "FieldsView { height: auto; padding: 0 1; }"

    def __init__(self, fields: list[tuple[str, Renderable]] | None = None, **kwargs: Any) -> None:
        self.fields = fields or []
        super().__init__(fields_table(self.fields), **kwargs)

    def show(self, fields: list[tuple[str, Renderable]]) -> None:
        self.fields = fields
        self.update(fields_table(fields))

    def value_of(self, label: str) -> str:
        for name, value in self.fields:
            if name == label:
                return value.plain if isinstance(value, Text) else str(value)
        raise KeyError(label)
