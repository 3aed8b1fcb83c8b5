"""A TextArea for JavaScript that stays fast on long code and indents as a code editor should.

Textual 8.2's TextArea re-queries highlights for the whole document after every keystroke,
redraws every visible row, and sums every line's wrap offsets for each row it draws: 150 ms and
more per key on a 2,000-line formula. Here highlights are queried only for the rows on screen,
an edit redraws only the rows whose text or syntax it changed (tree-sitter's changed ranges),
and the document height is read from a list length. Enter keeps the indentation (one level more
after an opening bracket); a closing bracket typed on a blank line lines up with its opener.

The overrides lean on TextArea internals (`_build_highlight_map`, `_highlights`, `_line_cache`,
`document._syntax_tree`, the line cache key); textual is pinned to 8.2.x in pyproject.toml.
"""

from __future__ import annotations

import re
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.color import Color
from textual.widgets import TextArea
from textual.widgets.text_area import Edit, EditResult, TextAreaTheme, WrappedDocument

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_OPENERS.values())
_INDENT = re.compile(r"^[ \t]*")
_INDENT_KEYS = Binding.Group("Indent/Outdent")


class _CountedWrappedDocument(WrappedDocument):
    """WrappedDocument whose height is the length of its line-info list (one entry per row)."""

    @property
    def height(self) -> int:
        return len(self._offset_to_line_info)


def _console_themes() -> list[TextAreaTheme]:
    """Syntax colours for dark and light app themes; the background follows the app's CSS."""
    dark = TextAreaTheme.get_builtin_theme("vscode_dark")
    light = TextAreaTheme.get_builtin_theme("github_light")
    return [
        TextAreaTheme(
            name=JavaScriptTextArea.DARK_THEME,
            syntax_styles=dict(dark.syntax_styles) if dark else {},
        ),
        TextAreaTheme(
            name=JavaScriptTextArea.LIGHT_THEME,
            syntax_styles=dict(light.syntax_styles) if light else {},
        ),
    ]


class JavaScriptTextArea(TextArea):
    """The code editor's text area: lazy highlighting and bracket-aware indentation.

    Tab leaves the code (so tabbing through a form never changes it) unless `tab_behavior`
    is "indent" (the editor's full-screen mode); ctrl+] and ctrl+\\ indent and outdent.
    """

    BINDINGS = [
        Binding(
            "ctrl+right_square_bracket",
            "indent",
            "Indent",
            key_display="ctrl+]",
            group=_INDENT_KEYS,
        ),
        Binding("ctrl+backslash", "outdent", "Outdent", key_display="ctrl+\\", group=_INDENT_KEYS),
    ]

    DARK_THEME = "console-dark"
    LIGHT_THEME = "console-light"
    HIGHLIGHT_MARGIN = 20
    """Rows highlighted beyond the screen, so scrolling a little needs no new query."""

    BRACKET_SEARCH_ROWS = 500
    """How far up a closing bracket looks for its opener to line up with."""

    PARTIAL_REDRAW_ROWS = 50
    """An edit whose syntax changes span more rows than this redraws everything."""

    _highlighted_rows: range = range(0)
    _before_edit: tuple[Any, int, int, int] | None = None
    """(syntax tree, line count, first row, last row) while an edit is being applied."""
    _problem_marks: dict[int, list[tuple[int, str]]] = {}  # replaced whole, never mutated

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for theme in _console_themes():
            self.register_theme(theme)

    # -- speed ----------------------------------------------------------------------------

    def _set_document(self, text: str, language: str | None) -> None:
        super()._set_document(text, language)
        if type(self.wrapped_document) is WrappedDocument:
            self.wrapped_document.__class__ = _CountedWrappedDocument

    def edit(self, edit: Edit) -> EditResult:
        """Remember the tree and line count before the edit, to redraw only what changed."""
        tree = getattr(self.document, "_syntax_tree", None)
        self._before_edit = (tree, self.document.line_count, edit.top[0], edit.bottom[0])
        try:
            return super().edit(edit)
        finally:
            self._before_edit = None

    def _build_highlight_map(self) -> None:
        """Called after every edit (and new document): forget what the edit made stale.

        Usually that is the edited line alone; when lines were added or removed, or the edit
        changed the syntax elsewhere (an opened string or comment), every row is redrawn.
        """
        rows = self._rows_changed_by_edit()
        if rows is None:
            self._line_cache.clear()
            self._highlights.clear()
            self._highlighted_rows = range(0)
            return
        cache = self._line_cache
        for key in list(cache.keys()):
            if key[2] in rows:  # render_line's key: (size, scroll_x, absolute_y, ...)
                cache.discard(key)
        window = self._highlighted_rows
        start, end = max(rows.start, window.start), min(rows.stop, window.stop)
        if start < end:
            for row in range(start, end):
                self._highlights.pop(row, None)
            self._query_highlights(start, end)

    def _rows_changed_by_edit(self) -> range | None:
        """Rows an edit touched, or None when all must be redrawn."""
        before = self._before_edit
        if before is None or self.soft_wrap or not self._highlighted_rows:
            return None
        old_tree, line_count, first, last = before
        new_tree = getattr(self.document, "_syntax_tree", None)
        if line_count != self.document.line_count or old_tree is None or new_tree is None:
            return None
        if old_tree is new_tree:
            return None
        for changed in old_tree.changed_ranges(new_tree):
            first = min(first, changed.start_point.row)
            last = max(last, changed.end_point.row)
        if last - first > self.PARTIAL_REDRAW_ROWS:
            return None
        return range(first, last + 1)

    def get_line(self, line_index: int) -> Text:
        if line_index not in self._highlighted_rows:
            self._highlight_rows_around(line_index)
        line = super().get_line(line_index)
        for column, severity in self._problem_marks.get(line_index, ()):
            self._mark(line, column, severity)
        return line

    def mark_problems(self, marks: dict[int, list[tuple[int, str]]]) -> None:
        """Underline problem positions: {row: [(column, "error"|"warning")]}, 0-based."""
        if marks != self._problem_marks:
            self._problem_marks = marks
            self._line_cache.clear()
            self.refresh()

    def _mark(self, line: Text, column: int, severity: str) -> None:
        """Colour the character at a problem (the last one when the problem is past the end)."""
        theme = self.app.current_theme
        colour = Color.parse((theme.error if severity == "error" else theme.warning) or "red")
        background = Color.parse(theme.surface or "black")
        style = Style(underline=True, bgcolor=colour.blend(background, 0.55).rich_color)
        length = len(line.plain)
        if length == 0:
            return
        start = min(column, length - 1)
        line.stylize(style, start, start + 1)

    def _highlight_rows_around(self, row: int) -> None:
        """Query highlights for the rows on screen (or around `row`), plus a margin."""
        margin = self.HIGHLIGHT_MARGIN
        height = max(self.size.height, 1)
        top = self.scroll_offset.y
        anchor = top if top <= row < top + height else row
        start = max(0, anchor - margin)
        end = min(self.document.line_count, anchor + height + margin)
        self._highlights.clear()
        self._highlighted_rows = range(start, end)
        self._query_highlights(start, end)

    def _query_highlights(self, start: int, end: int) -> None:
        """Add the highlights of rows start..end-1 (tree-sitter columns are bytes)."""
        query = self._highlight_query
        if not query:
            return
        highlights = self._highlights
        captures = self.document.query_syntax_tree(
            query, start_point=(start, 0), end_point=(end, 0)
        )
        for name, nodes in captures.items():
            for node in nodes:
                (first_row, first_column), (last_row, last_column) = (
                    node.start_point,
                    node.end_point,
                )
                if first_row == last_row:
                    if start <= first_row < end:
                        highlights[first_row].append((first_column, last_column, name))
                    continue
                if first_row >= start:
                    highlights[first_row].append((first_column, None, name))
                for middle in range(max(first_row + 1, start), min(last_row, end)):
                    highlights[middle].append((0, None, name))
                if last_row < end:
                    highlights[last_row].append((0, last_column, name))

    # -- indentation ----------------------------------------------------------------------

    def adapt_indent_width(self, text: str) -> None:
        """Indent by 2 or 4 spaces, whichever the code already uses (2 when it cannot tell)."""
        widths = []
        for line in text.splitlines()[:400]:
            stripped = line.lstrip(" ")
            if stripped and not line.startswith("\t") and len(line) != len(stripped):
                widths.append(len(line) - len(stripped))
        smallest = min(widths, default=2)
        self.indent_width = 4 if smallest >= 4 and smallest % 4 == 0 else 2

    def action_indent(self) -> None:
        """Indents the selected lines (or the cursor's line) by one level."""
        self._shift_lines(+1)

    def action_outdent(self) -> None:
        """Takes one level of indentation off the selected lines (or the cursor's line)."""
        self._shift_lines(-1)

    def _shift_lines(self, step: int) -> None:
        if self.read_only:
            return
        start, end = self.selection
        first, last = sorted((start[0], end[0]))
        if end[0] != start[0] and max(start, end)[1] == 0:
            last -= 1  # a selection ending at a line's start leaves that line alone
        unit = self._indent_unit()
        lines = [self.document.get_line(row) for row in range(first, last + 1)]
        shifts: list[int] = []
        changed: list[str] = []
        for line in lines:
            if step > 0:
                shift = len(unit) if line.strip() else 0
                changed.append(unit + line if shift else line)
            else:
                if line.startswith(unit):
                    shift = -len(unit)
                elif line.startswith("\t"):
                    shift = -1
                else:
                    shift = -(len(line) - len(line.lstrip(" ")))
                changed.append(line[-shift:] if shift else line)
            shifts.append(shift)
        if changed == lines:
            return
        self.replace(
            "\n".join(changed), (first, 0), (last, len(lines[-1])), maintain_selection_offset=False
        )

        def moved(location: tuple[int, int]) -> tuple[int, int]:
            row, column = location
            if first <= row <= last:
                column = max(0, column + shifts[row - first])
            return row, column

        self.selection = type(self.selection)(moved(start), moved(end))

    async def _on_key(self, event: events.Key) -> None:
        """Enter and closing brackets; everything else goes on to TextArea's own handler."""
        if self.read_only:
            return
        if event.key == "shift+tab" and self.tab_behavior == "indent":
            event.stop()
            event.prevent_default()
            self.action_outdent()
            return
        if (
            event.key == "tab"
            and self.tab_behavior == "indent"
            and self.selection.start[0] != (self.selection.end[0])
        ):
            event.stop()  # Tab on a selection of lines indents them, as editors do
            event.prevent_default()
            self.action_indent()
            return
        handled = False
        if event.key == "enter":
            handled = self._newline_with_indent()
        elif event.character in _CLOSERS:
            handled = self._close_with_dedent(event.character)
        if handled:
            event.stop()
            event.prevent_default()  # TextArea's _on_key is not called after this
            self._restart_blink()

    def _indent_unit(self) -> str:
        return "\t" if self.indent_type == "tabs" else " " * self.indent_width

    def _newline_with_indent(self) -> bool:
        top, bottom = sorted(self.selection)
        row, column = top
        line = self.document.get_line(row)
        before = line[:column]
        after = self.document.get_line(bottom[0])[bottom[1] :]
        indent = _INDENT.match(before)
        assert indent is not None
        base = indent.group()
        opener = before.rstrip()[-1:]
        if opener not in _OPENERS:
            if before and not before.strip():
                top = (row, 0)  # leave no trailing blanks on a line that holds only indentation
            self.replace("\n" + base, top, bottom, maintain_selection_offset=False)
            return True
        inner = base + self._indent_unit()
        if after.lstrip()[:1] == _OPENERS[opener]:
            # Between a pair: the closing bracket goes to its own line, the cursor in between.
            end = (bottom[0], bottom[1] + len(after) - len(after.lstrip()))
            self.replace("\n" + inner + "\n" + base, top, end, maintain_selection_offset=False)
            self.move_cursor((row + 1, len(inner)))
        else:
            self.replace("\n" + inner, top, bottom, maintain_selection_offset=False)
        return True

    def _close_with_dedent(self, closer: str) -> bool:
        """On a blank line, a closing bracket lines up with the line that opened it."""
        top, bottom = sorted(self.selection)
        if top != bottom:
            return False
        row, column = top
        before = self.document.get_line(row)[:column]
        if not before or before.strip():
            return False
        indent = self._opener_indent(closer, row)
        if indent is None:
            unit = self._indent_unit()
            indent = before[: -len(unit)] if before.endswith(unit) else before[:-1]
        if indent == before:
            return False
        self.replace(indent + closer, (row, 0), (row, column), maintain_selection_offset=False)
        return True

    def _opener_indent(self, closer: str, row: int) -> str | None:
        """Indentation of the line holding the bracket that `closer` on `row` would close."""
        openers = {value: key for key, value in _OPENERS.items()}
        stack = [closer]
        for line_index in range(row - 1, max(-1, row - self.BRACKET_SEARCH_ROWS), -1):
            line = self.document.get_line(line_index)
            for character in reversed(line):
                if character in _CLOSERS:
                    stack.append(character)
                elif character in _OPENERS:
                    if openers[stack[-1]] != character:
                        return None
                    stack.pop()
                    if not stack:
                        indent = _INDENT.match(line)
                        return indent.group() if indent else ""
        return None
