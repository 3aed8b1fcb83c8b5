"""What `/` types, read: a text matched against a list's rows, any column or one (`type:private`).

The same reading serves the live filter of the loaded rows, the choice of a server filter on
enter (resources.ResourceKind.server_query) and the tenant-wide search (console.tui.browse.search),
so a row the live filter shows is a row the search finds. No Textual here: the benchmark
drives the search without a screen.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from console.tui.base.columns import Column, Labels, Renderable, RowKind
    from console.tui.base.shown import Shown

ID_COLUMN = "id"
"""Not a column on screen, but every object has one: `id:` matches it (and enter asks the
server by id where it can)."""


def name_pattern(query: str) -> re.Pattern[str]:
    """As the server's name filter: contains, case-insensitively, `*` matching any run."""
    return re.compile(".*".join(re.escape(part) for part in query.split("*")), re.IGNORECASE)


def _word(text: str) -> str:
    return re.sub(r"[^0-9a-z]+", "", text.casefold())


def column_named(columns: Sequence[Column], word: str) -> str | None:
    """The key of the column `word` names: its key or its label, case and punctuation
    aside ("Permissions / rules", "permissions-rules"), or the start of only one of them
    ("perm"); "id" for the id. None if it names none (or more than one)."""
    wanted = _word(word)
    if not wanted:
        return None
    if wanted == ID_COLUMN:
        return ID_COLUMN
    names = [(column.key, {_word(column.key), _word(column.label)}) for column in columns]
    for key, spellings in names:
        if wanted in spellings:
            return key
    starting = {key for key, spellings in names if any(s.startswith(wanted) for s in spellings)}
    return starting.pop() if len(starting) == 1 else None


def cell_text(cell: Renderable) -> str:
    """A cell as the person reads it (a Rich Text's plain text)."""
    return cell.plain if isinstance(cell, Text) else str(cell)


@dataclass(frozen=True)
class RowFilter:
    """A typed filter. `column` is a column key, "id", or None for any column (and the id).

    `not_a_column` is the word before a colon that names no column: the whole text is then
    matched as typed (a permission such as `token:read` has a colon of its own), and the
    console says the word is not a column."""

    text: str
    term: str
    column: str | None = None
    not_a_column: str | None = None
    _pattern: re.Pattern[str] | None = field(default=None, compare=False, repr=False)
    _needle: str = field(default="", compare=False, repr=False)
    _skipped: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    """Columns whose text cannot hold the term (a name in a date column): not drawn."""

    @property
    def empty(self) -> bool:
        return not self.term

    def matches_text(self, text: str) -> bool:
        if self._pattern is not None:
            return self._pattern.search(text) is not None
        return self._needle in text.casefold()

    def matches(self, kind: RowKind, item: Shown, labels: Labels) -> bool:
        """Whether the row of `item` has the term in the column (any column, or its id)."""
        if self.empty:
            return True
        if self.column == ID_COLUMN or self.column is None:
            if self.matches_text(kind.item_id(item)):
                return True
            if self.column == ID_COLUMN:
                return False
        if not isinstance(item, dict) or not kind.item_id(item):  # an unreadable row
            return any(self.matches_text(cell_text(c)) for c in kind.row_cells(item, labels))
        skipped = self._skipped
        for column in kind.columns:
            wanted = self.column in (None, column.key) and column.key not in skipped
            if wanted and self.matches_text(cell_text(column.cell(item, labels))):
                return True
        return False


def parse_row_filter(columns: Sequence[Column], text: str) -> RowFilter:
    """`type:private` (a column, named as column_named reads it, then its value) or plain
    text matched against every column; `*` matches any run of characters, as on the server."""
    text = text.strip()
    column: str | None = None
    not_a_column: str | None = None
    term = text
    head, colon, rest = text.partition(":")
    if colon and head.strip() and not any(ch.isspace() for ch in head.strip()):
        column = column_named(columns, head)
        if column is not None:
            term = rest.strip()
        else:
            not_a_column = head.strip()
    pattern = name_pattern(term) if "*" in term else None
    letters = set(term.casefold().replace("*", ""))
    skipped = frozenset(
        c.key for c in columns if c.charset is not None and not letters <= set(c.charset)
    )
    return RowFilter(text, term, column, not_a_column, pattern, term.casefold(), skipped)


def column_words(columns: Sequence[Column]) -> str:
    """The column names one may type before a colon, for a message: "name, type, …, id"."""
    return ", ".join([*(column.label.lower() for column in columns), ID_COLUMN])
