"""A fast, read-only table of pre-styled rows, drawn straight to Strips.

DataTable sends every cell through Rich's render pipeline (Padding, Text, line splitting), which
costs ~70 ms for one screen of a resource list. RowTable keeps each row as a tuple of cells and
turns a visible row into a handful of Segments, so a frame costs a few milliseconds and
thousands of rows cost little more than their tuples.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar, NamedTuple

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import PseudoClasses

Cell = str | Text
"""A cell: plain text, or a Text carrying one style for the whole cell (its spans are ignored)."""

CELL_PADDING = 1
"""Blank cells on each side of every column, as DataTable's default cell_padding."""

ELLIPSIS = "…"

# Row kinds, the index into _Styles.rows: even and odd rows alternate (zebra stripes).
_EVEN, _ODD, _CURSOR_EVEN, _CURSOR_ODD = range(4)


@dataclass(frozen=True)
class TableColumn:
    """One column; `width` is the content width without padding, None to fit the content.

    Fitting the table to its width: `min_width` lets the column shrink that far (ellipsis)
    when the table is too wide, else it stays whole; a column with a `drop_order` is left
    out, lowest first, when even the shrunk columns do not fit; a `grow` column takes the
    width left over, up to its widest cell (long names, URLs)."""

    key: str
    label: str
    width: int | None = None
    min_width: int | None = None
    drop_order: int | None = None
    grow: bool = False


class _Styles(NamedTuple):
    """The component styles of one render pass; strips cached under other styles are stale."""

    base: Style
    header: Style
    rows: tuple[Style, Style, Style, Style]
    cursor_color: Style
    """The cursor's foreground, laid over cell styles (DataTable's cursor_foreground_priority)."""


@lru_cache(maxsize=256)
def _parse_style(style: str) -> Style | None:
    """A Text's style given as a string, parsed once per distinct string."""
    return Style.parse(style) if style else None


def _first_line(text: str) -> str:
    """A row is one line high: like DataTable, show only the first line of a cell."""
    return text.split("\n", 1)[0] if "\n" in text else text


def _cell_parts(cell: Cell) -> tuple[str, Style | None]:
    """The cell's displayed text and its own style (None for plain strings)."""
    if type(cell) is str:
        return _first_line(cell), None
    if isinstance(cell, Text):
        style = _parse_style(cell.style) if isinstance(cell.style, str) else cell.style
        return _first_line(cell.plain), style or None
    return _first_line(str(cell)), None


def _fit(text: str, width: int) -> tuple[str, int]:
    """`text` cropped to `width` cells (ending in an ellipsis), and the blank cells left over.

    The blanks are returned apart so that they take the row's style, not the cell's (as Rich
    pads a Text in DataTable)."""
    length = cell_len(text)
    if length <= width:
        return text, width - length
    if width <= 1:
        return ELLIPSIS[:width], 0
    return set_cell_size(text, width - 1) + ELLIPSIS, 0


class _RowMessage(Message):
    """A message about one row of a RowTable."""

    def __init__(self, table: RowTable, cursor_row: int) -> None:
        super().__init__()
        self.table = table
        self.cursor_row = cursor_row

    @property
    def control(self) -> RowTable:
        return self.table


class RowTable(ScrollView, can_focus=True):
    """A read-only table with a row cursor and a fixed header, for long resource lists."""

    ALLOW_SELECT = False

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Open"),
        Binding("up,k", "cursor_up", "Cursor up", show=False),
        Binding("down,j", "cursor_down", "Cursor down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("ctrl+u", "half_page_up", "Half page up", show=False),
        Binding("ctrl+d", "half_page_down", "Half page down", show=False),
        Binding("home,g", "scroll_top", "First row", show=False),
        Binding("end,G", "scroll_bottom", "Last loaded row", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "datatable--cursor",
        "datatable--header",
        "datatable--odd-row",
        "datatable--even-row",
    }
    """DataTable's own component names, so that themes and app CSS style both alike."""

    # DataTable's DEFAULT_CSS (textual 8.2), reduced to the components RowTable draws.
    DEFAULT_CSS = """
    RowTable {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;

        &:focus {
            background-tint: $foreground 5%;
            & > .datatable--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .datatable--header {
                background-tint: $foreground 5%;
            }
        }
        &:dark {
            & > .datatable--even-row {
                background: $surface-darken-1 40%;
            }
        }
        & > .datatable--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .datatable--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .datatable--odd-row {
        }
        & > .datatable--even-row {
            background: $surface-lighten-1 50%;
        }
        & > .datatable--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
    }
    """

    STRIP_CACHE_SIZE = 96
    """Rendered lines kept: about two screens, enough for scrolling back and forth."""

    class RowHighlighted(_RowMessage):
        """The cursor moved to a row (also sent for row 0 when the first rows arrive)."""

    class RowSelected(_RowMessage):
        """The row under the cursor was chosen: enter, or a click on a row."""

    class EndRequested(_RowMessage):
        """`G` or end (`cursor_row`: the row the cursor leaves): a list may hold fewer rows
        than there are."""

    def __init__(
        self,
        columns: Sequence[TableColumn],
        *,
        zebra_stripes: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        self.columns: tuple[TableColumn, ...] = tuple(columns)
        self._zebra_stripes = zebra_stripes
        self._rows: list[tuple[Cell, ...]] = []
        self._cursor = 0
        self._base = [cell_len(c.label) if c.width is None else c.width for c in self.columns]
        """Each column's width with room enough: its widest cell, or its fixed width."""
        self._content = [cell_len(c.label) for c in self.columns]
        """The widest cell (or label) of each measured column (auto or `grow`)."""
        self._auto = [i for i, c in enumerate(self.columns) if c.width is None or c.grow]
        self._widths = list(self._base)
        """The widths drawn: the base widths fitted to the table's width; 0 for a column
        left out."""
        self._fitted_to = 0
        self._widths_version = 0
        self._sort: tuple[int, bool] | None = None
        self._strips: LRUCache[tuple[int, bool, int, int, int], Strip] = LRUCache(
            self.STRIP_CACHE_SIZE
        )
        self._styles: _Styles | None = None
        self._last_styles: _Styles | None = None
        self._pseudo_state: PseudoClasses | None = None
        self._cell_styles: dict[tuple[int, Style], Style] = {}
        self._update_virtual_size()

    # ---- public API ----------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self._rows)

    @property
    def cursor_row(self) -> int:
        return self._cursor

    def row(self, index: int) -> tuple[Cell, ...]:
        """The cells of a row, as added."""
        return self._rows[index]

    def add_rows(self, rows: Iterable[Sequence[Cell]]) -> None:
        """Appends rows; auto widths grow from the new cells only, never a rescan."""
        new_rows = [tuple(row) for row in rows]
        columns = len(self.columns)
        for row in new_rows:
            if len(row) != columns:
                raise ValueError(f"a row needs {columns} cells, not {len(row)}: {row!r}")
        if not new_rows:
            return
        grown = False
        for index in self._auto:
            widest = max(cell_len(_cell_parts(row[index])[0]) for row in new_rows)
            if widest > self._content[index]:
                self._content[index] = widest
                if self.columns[index].width is None:
                    self._base[index] = widest
                grown = True
        start = len(self._rows)
        self._rows.extend(new_rows)
        if grown:
            self._fit(self._fitted_to)
            self._update_virtual_size()
            self._widths_version += 1
            self._strips.clear()
            self.refresh()
        else:
            self._update_virtual_size()
            self._refresh_rows(start, len(self._rows))
        if start == 0:
            self.post_message(self.RowHighlighted(self, 0))

    def replace_rows(self, rows: Iterable[Sequence[Cell]], *, cursor: int = 0) -> None:
        """The same rows in another order (a sort): widths stay, every line is redrawn.

        Given another number of rows, the scrollable height follows it."""
        count = len(self._rows)
        self._rows = [tuple(row) for row in rows]
        self._cursor = max(0, min(cursor, len(self._rows) - 1))
        self._strips.clear()
        if len(self._rows) != count:
            self._update_virtual_size()
        self.refresh()
        self._scroll_to_cursor()
        if self._rows:
            self.post_message(self.RowHighlighted(self, self._cursor))

    def set_rows(self, rows: Iterable[Sequence[Cell]], *, cursor: int = 0) -> None:
        """Other rows in place of these (a filter's or a search's, fewer or more): auto widths
        grow for new cells as in add_rows, and the cursor goes to `cursor`."""
        self._rows = []
        self._cursor = 0
        self._strips.clear()
        self.add_rows(rows)
        self._update_virtual_size()
        self.replace_rows(self._rows, cursor=cursor)

    def set_sort(self, column: int | None, descending: bool = False) -> None:
        """Marks the sorted column's header with ▲ (ascending) or ▼ (descending)."""
        self._sort = None if column is None else (column, descending)
        self._widths_version += 1
        self.refresh()

    def clear(self) -> None:
        """No rows, cursor on row 0, scrolled home. Auto widths stay, as in DataTable."""
        self._rows = []
        self._cursor = 0
        self._strips.clear()
        self._update_virtual_size()
        self.scroll_to(0, 0, animate=False, force=True)
        self.refresh()

    def move_cursor(self, *, row: int, animate: bool = False) -> None:
        """Moves the cursor to `row` (clamped) and scrolls it into view."""
        self._set_cursor(row)
        self._scroll_to_cursor(animate=animate)

    # ---- geometry --------------------------------------------------------------------------

    @property
    def _table_width(self) -> int:
        return sum(w + 2 * CELL_PADDING for w in self._widths if w)

    @property
    def shown_columns(self) -> tuple[str, ...]:
        """The keys of the columns drawn at the current width."""
        return tuple(c.key for c, w in zip(self.columns, self._widths, strict=True) if w)

    @property
    def column_widths(self) -> dict[str, int]:
        """The drawn width of each column shown, by key."""
        return {c.key: w for c, w in zip(self.columns, self._widths, strict=True) if w}

    def _fit(self, available: int) -> None:
        """Fits the columns to `available` cells (0: not laid out yet, every column whole):
        shrink those that may, then leave out by drop order, then give what is left over to
        the `grow` columns that are cut."""
        columns, base, pad = self.columns, self._base, 2 * CELL_PADDING
        least = [
            base[i] if c.min_width is None else min(base[i], c.min_width)
            for i, c in enumerate(columns)
        ]
        if not available:
            self._widths = list(base)
            return
        shown = [True] * len(columns)
        need = sum(w + pad for w in least)
        droppable = sorted(
            (c.drop_order, -i, i) for i, c in enumerate(columns) if c.drop_order is not None
        )
        for _order, _neg, i in droppable:
            if need <= available:
                break
            shown[i] = False
            need -= least[i] + pad
        widths = [least[i] if shown[i] else 0 for i in range(len(columns))]
        spare = available - need
        # Back towards whole: the fixed columns first, then the growing ones (names, URLs).
        order = [i for i, c in enumerate(columns) if shown[i] and not c.grow]
        order += [i for i, c in enumerate(columns) if shown[i] and c.grow]
        for i in order:
            add = max(0, min(spare, base[i] - widths[i]))
            widths[i] += add
            spare -= add
        content = self._content
        while spare > 0:
            cut = [
                i for i, c in enumerate(columns) if shown[i] and c.grow and content[i] > widths[i]
            ]
            if not cut:
                break
            share = max(1, spare // len(cut))
            for i in cut:
                add = max(0, min(share, content[i] - widths[i], spare))
                widths[i] += add
                spare -= add
        self._widths = widths

    def _refit(self, *, repaint: bool = True) -> None:
        """Fits the columns again if the width they were fitted to has changed."""
        available = self.scrollable_content_region.width
        if available != self._fitted_to:
            self._fitted_to = available
            old = self._widths
            self._fit(available)
            if self._widths != old:
                self._widths_version += 1
                self._strips.clear()
                self._update_virtual_size()
                if repaint:
                    self.refresh()

    def on_resize(self, event: events.Resize) -> None:
        """Fitted when the size is known, before the frame that draws it."""
        self._refit()

    @property
    def _body_height(self) -> int:
        """Rows visible below the header."""
        return max(0, self.scrollable_content_region.height - 1)

    def _update_virtual_size(self) -> None:
        self.virtual_size = Size(self._table_width, len(self._rows) + 1)

    def _refresh_rows(self, start: int, end: int) -> None:
        """Repaints the rows in [start, end) that are on screen, and nothing else."""
        top = self.scroll_offset.y
        start, end = max(start, top), min(end, top + self._body_height)
        if start < end:
            # Row r is line r + 1 of the virtual space (the header is line 0).
            self.refresh_lines(start + 1, end - start)

    # ---- cursor ----------------------------------------------------------------------------

    def _set_cursor(self, row: int) -> None:
        """Moves the cursor, repainting only the two rows involved."""
        if not self._rows:
            return
        row = max(0, min(row, len(self._rows) - 1))
        old, self._cursor = self._cursor, row
        if row != old:
            self._refresh_rows(old, old + 1)
            self._refresh_rows(row, row + 1)
            self.post_message(self.RowHighlighted(self, row))

    def _scroll_to_cursor(self, animate: bool = False, *, retry: bool = True) -> None:
        if not self._rows:
            return
        height = self._body_height
        if height <= 0:  # not laid out yet: try once more when the size is known
            if retry:
                self.call_after_refresh(self._scroll_to_cursor, animate, retry=False)
            return
        top, row = self.scroll_offset.y, self._cursor
        if row < top:
            self.scroll_to(y=row, animate=animate, force=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=animate, force=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(row=self._cursor - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(row=self._cursor + 1)

    def action_page_up(self) -> None:
        """A screenful up, the view moving with the cursor (as DataTable)."""
        page = max(1, self._body_height)
        self.scroll_to(y=self.scroll_offset.y - page, animate=False, force=True)
        self.move_cursor(row=self._cursor - page)

    def action_page_down(self) -> None:
        page = max(1, self._body_height)
        self.scroll_to(y=self.scroll_offset.y + page, animate=False, force=True)
        self.move_cursor(row=self._cursor + page)

    def action_half_page_up(self) -> None:
        """Half a screen up, the view moving with the cursor (less's and vim's ctrl+u)."""
        half = max(1, self._body_height // 2)
        self.scroll_to(y=self.scroll_offset.y - half, animate=False, force=True)
        self.move_cursor(row=self._cursor - half)

    def action_half_page_down(self) -> None:
        half = max(1, self._body_height // 2)
        self.scroll_to(y=self.scroll_offset.y + half, animate=False, force=True)
        self.move_cursor(row=self._cursor + half)

    def action_scroll_top(self) -> None:
        self.move_cursor(row=0)

    def action_scroll_bottom(self) -> None:
        if self._rows:
            self.post_message(self.EndRequested(self, self._cursor))  # the row it leaves
        self.move_cursor(row=len(self._rows) - 1)

    def action_select_cursor(self) -> None:
        if self._rows:
            self.post_message(self.RowSelected(self, self._cursor))

    def on_click(self, event: events.Click) -> None:
        """A click on a row moves the cursor there and selects it; the header does nothing."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y < 1:
            return
        row = self.scroll_offset.y + offset.y - 1
        if row >= len(self._rows):
            return
        event.stop()
        self.move_cursor(row=row)
        self.post_message(self.RowSelected(self, row))

    # ---- rendering -------------------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._styles = None
        self.refresh()

    def render_lines(self, crop: Region) -> list[Strip]:
        # Component styles follow the pseudo-classes (:focus); textual re-resolves them apart
        # from notify_style_update, so check the state once per render pass (as DataTable).
        state = self.get_pseudo_class_state()
        if state != self._pseudo_state:
            self._pseudo_state = state
            self._styles = None
        # A scrollbar that came or went changes the width without a resize; this pass draws
        # with the new widths already.
        self._refit(repaint=False)
        return super().render_lines(crop)

    def _get_styles(self) -> _Styles:
        """The current component styles; a change drops every cached strip."""
        styles = self._styles
        if styles is not None:
            return styles
        get = self.get_component_rich_style
        base = self.rich_style
        even = get("datatable--even-row") if self._zebra_stripes else base
        odd = get("datatable--odd-row") if self._zebra_stripes else base
        cursor = get("datatable--cursor")
        styles = _Styles(
            base=base,
            header=get("datatable--header"),
            rows=(even, odd, even + cursor, odd + cursor),
            cursor_color=Style(color=cursor.color),
        )
        if styles != self._last_styles:
            self._strips.clear()
            self._cell_styles.clear()
        self._styles = self._last_styles = styles
        return styles

    def _cell_style(self, kind: int, style: Style) -> Style:
        """A cell's own style over its row's (DataTable's order), cursor colour on top."""
        key = (kind, style)
        combined = self._cell_styles.get(key)
        if combined is None:
            styles = self._get_styles()
            combined = styles.rows[kind] + style
            if kind >= _CURSOR_EVEN:
                combined += styles.cursor_color
            self._cell_styles[key] = combined
        return combined

    def render_line(self, y: int) -> Strip:
        styles = self._get_styles()
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        row = -1 if y == 0 else scroll_y + y - 1
        if row >= len(self._rows):
            return Strip.blank(width, styles.base)
        is_cursor = row == self._cursor
        key = (row, is_cursor, self._widths_version, width, scroll_x)
        strip = self._strips.get(key)
        if strip is None:
            if row < 0:
                strip = self._render_header(styles, width, scroll_x)
            else:
                kind = (_CURSOR_EVEN if is_cursor else _EVEN) + row % 2
                strip = self._render_row(self._rows[row], kind, styles, width, scroll_x)
            self._strips[key] = strip
        return strip

    def _render_header(self, styles: _Styles, width: int, scroll_x: int) -> Strip:
        pad = " " * CELL_PADDING
        text = ""
        for index, (column, w) in enumerate(zip(self.columns, self._widths, strict=True)):
            if not w:
                continue
            label = column.label
            if self._sort is not None and self._sort[0] == index:
                label = f"{label} {'▼' if self._sort[1] else '▲'}"
            label, blank = _fit(label, w)
            text += pad + label + " " * (blank + CELL_PADDING)
        return self._finish([], text, styles.header, width, scroll_x)

    def _render_row(
        self, cells: tuple[Cell, ...], kind: int, styles: _Styles, width: int, scroll_x: int
    ) -> Strip:
        """A few Segments per cell: runs in the row's style are merged, styled cells split."""
        row_style = styles.rows[kind]
        pad = " " * CELL_PADDING
        segments: list[Segment] = []
        pending = ""  # text in the row's style not yet emitted
        for cell, w in zip(cells, self._widths, strict=True):
            if not w:
                continue
            text, style = _cell_parts(cell)
            text, blank = _fit(text, w)
            if style is None:
                pending += pad + text + " " * (blank + CELL_PADDING)
            else:
                segments.append(Segment(pending + pad, row_style))
                segments.append(Segment(text, self._cell_style(kind, style)))
                pending = " " * (blank + CELL_PADDING)
        return self._finish(segments, pending, row_style, width, scroll_x)

    def _finish(
        self, segments: list[Segment], tail: str, style: Style, width: int, scroll_x: int
    ) -> Strip:
        """Extends the row's style to the widget's edge and crops to the scrolled window."""
        table_width = self._table_width
        extend = max(0, scroll_x + width - table_width)
        segments.append(Segment(tail + " " * extend, style))
        strip = Strip(segments, table_width + extend)
        return strip.crop(scroll_x, scroll_x + width)
