"""An application's keys on its detail: id, version, age, who made it, and which one this
session uses; a rotation in progress above them, until it is finished or cancelled.

The keys come with the application (`keys` in its answer); where a service does not list
them, the panel says what it offers instead. N, x and o act on them (console.tui.actions.key_flows).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from console.tui.base import formatting as fmt

if TYPE_CHECKING:
    from console.keys.rotation import Rotation
    from console.models import ApplicationKey

KEYS_HINT = "N new key · x revoke · o rotate"


def short_id(key_id: object) -> str:
    """The first block of a UUID: enough to tell an application's keys apart."""
    return str(key_id).split("-", 1)[0]


class KeysPanel(Static):
    """Shown on an application's detail only."""

    DEFAULT_CSS = """
    KeysPanel {
        height: auto;
        margin: 1 0 0 0;
        padding: 0 1;
        border: round $primary-darken-1;
        border-title-color: $text;
    }
    KeysPanel.-rotating {
        border: round $warning;
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self.border_title = "Keys"
        self.keys: list[ApplicationKey] | None = None
        self.session_key: str | None = None
        self.session_application = False
        self.rotation: Rotation | None = None
        self.note = ""
        self.shown: Text | Group = Text("")
        self._labels: dict[str, str] = {}

    def show_keys(
        self,
        keys: list[ApplicationKey] | None,
        *,
        session_application: bool = False,
        session_key: str | None = None,
        rotation: Rotation | None = None,
        labels: Mapping[str, str] | None = None,
        note: str = "",
    ) -> None:
        """Draws the keys; `session_key` None with `session_application` True: this session
        uses one of them, the console cannot tell which."""
        self.keys = keys
        self.session_application = session_application
        self.session_key = session_key
        self.rotation = rotation
        self.note = note
        self.set_class(rotation is not None, "-rotating")
        self.border_title = "Keys" if keys is None else f"Keys ({len(keys)})"
        self.border_subtitle = KEYS_HINT if keys is not None else ""
        self._labels = dict(labels or {})
        self.shown = self._render_keys(self._labels)
        self.update(self.shown)

    def redraw(self) -> None:
        """The same keys with their ages as of now (the detail's timer calls this)."""
        if self.keys is not None:
            self.shown = self._render_keys(self._labels)
            self.update(self.shown)

    def plain_text(self, width: int = 160) -> str:
        """What the panel shows, as plain text (tests, screen readers' logs)."""
        from rich.console import Console

        console = Console(width=width, record=True, file=io.StringIO())
        console.print(self.shown)
        return console.export_text()

    def _render_keys(self, labels: Mapping[str, str]) -> Text | Group:
        """The rotation's line and the note above and below the table, never in it: in its
        first column they would widen the ID column to their length (83 of 140 cells)."""
        if self.keys is None:
            return Text(self.note or "This service does not list the application's keys.")
        above: list[Text] = []
        if self.rotation is not None:
            above.append(Text(self._rotation_line(), style="bold yellow"))
        if not self.keys:
            above.append(Text("No keys: nothing can authenticate as this application."))
        below = [Text(self.note, style="dim")] if self.note else []
        return Group(*above, *([self._table(self.keys, labels)] if self.keys else []), *below)

    def _table(self, keys: list[ApplicationKey], labels: Mapping[str, str]) -> Table:
        """One row a key: its short id (the first block), version, age, maker, marks."""
        table = Table.grid(padding=(0, 2))
        for _ in range(5):
            table.add_column(no_wrap=True)
        table.add_row(*(Text(h, style="dim") for h in ("ID", "VER", "MADE", "BY", "")))
        for key in keys:
            key_id = str(key.id)
            by = str(key.created_by) if key.created_by else ""
            who = labels.get(by) or short_id(by) if by else "—"
            table.add_row(
                short_id(key_id),
                fmt_text(key.version or "—"),
                fmt.relative(key.created_at) or "—",
                fmt_text(who),
                self._marker(key_id),
            )
        return table

    def _marker(self, key_id: str) -> Text:
        marks: list[tuple[str, str]] = []
        if self.session_application and self.session_key == key_id:
            marks.append(("◀ this session", "bold"))
        elif self.session_application and self.session_key is None:
            marks.append(("this session uses one of these", "dim"))
        if self.rotation is not None:
            if key_id == self.rotation.new_key_id:
                marks.append(("new (rotating)", "yellow"))
            elif key_id in self.rotation.old_key_ids:
                marks.append(("to revoke", "yellow"))
        text = Text()
        for i, (mark, style) in enumerate(marks):
            text.append(("  " if i else "") + mark, style=style)
        return text

    def _rotation_line(self) -> str:
        rotation = self.rotation
        assert rotation is not None
        count = len(rotation.old_key_ids)
        return (
            f"Rotation in progress: new key {short_id(rotation.new_key_id)} made; "
            f"{count} old key{'s' if count != 1 else ''} still work. o continues it."
        )


def fmt_text(value: str) -> Text:
    """What the service sent, as plain text (never markup), control characters escaped."""
    return Text("".join(c if c.isprintable() else "?" for c in value))
