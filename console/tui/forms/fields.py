"""Building blocks of a form: a labelled field that can show its own errors, and parsers."""

from __future__ import annotations

import re

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Label, Static

_INDEX = re.compile(r"\[\d+\]$")


class FormField(Vertical):
    """A label, the input widget(s), an optional hint, and the errors for one JSON path.

    `path` is where the API reports problems with this field (`name`, `rules[0].container`);
    a form routes every error to the field whose path is its nearest prefix.
    """

    DEFAULT_CSS = """
    FormField {
        height: auto;
        margin-bottom: 1;
    }
    FormField > .field-label {
        color: $text-muted;
        text-style: bold;
    }
    FormField > .field-hint {
        color: $text-muted;
    }
    FormField > .field-error {
        color: $error;
        display: none;
    }
    FormField.-invalid > .field-error {
        display: block;
    }
    FormField.-invalid > .field-label {
        color: $error;
    }
    """

    def __init__(
        self,
        label: str,
        *widgets: Widget,
        path: str,
        hint: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.label = label
        self.path = path
        self.hint = hint
        self._widgets = widgets

    def compose(self) -> ComposeResult:
        if self.label:
            yield Label(self.label, classes="field-label")
        yield from self._widgets
        if self.hint:
            yield Static(self.hint, classes="field-hint", markup=False)
        yield Static("", classes="field-error", markup=False)

    def show_errors(self, sentences: list[str]) -> None:
        self.query_one(".field-error", Static).update("\n".join(sentences))
        self.set_class(bool(sentences), "-invalid")

    @property
    def errors(self) -> str:
        return str(self.query_one(".field-error", Static).content) if self.invalid else ""

    @property
    def invalid(self) -> bool:
        return self.has_class("-invalid")


def parent_path(path: str) -> str | None:
    """One level up: `rules[0].permissions[2]` -> `rules[0].permissions` -> `rules[0]`."""
    if not path:
        return None
    if _INDEX.search(path):
        return _INDEX.sub("", path)
    if "." in path:
        return path.rsplit(".", 1)[0]
    return None


def nearest_field(path: str, fields: dict[str, FormField]) -> FormField | None:
    """The field that should show an error at `path`: itself, else its nearest ancestor."""
    current: str | None = path
    while current:
        if current in fields:
            return fields[current]
        current = parent_path(current)
    return None


def format_size(size: int) -> str:
    """`12634` -> `12.3 KB`."""
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"
