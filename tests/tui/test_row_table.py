"""RowTable on its own: rows, widths, cursor keys and clicks, styles, cropping, long lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.strip import Strip

from console.tui.widgets import row_table
from console.tui.widgets.row_table import Cell, RowTable, TableColumn

SIZE = (60, 12)  # 11 body rows below the header
BODY = SIZE[1] - 1

COLUMNS = (
    TableColumn("name", "Name"),
    TableColumn("kind", "Kind", width=6),
    TableColumn("expires", "Expires"),
)


def make_rows(count: int, start: int = 0) -> list[tuple[Cell, ...]]:
    return [
        (f"app-{i}", "web", Text("never", style="dim") if i % 2 else Text("2026", style="red"))
        for i in range(start, start + count)
    ]


class TableApp(App[None]):
    def __init__(self, rows: Sequence[Sequence[Cell]] = (), **options: bool) -> None:
        super().__init__()
        self.initial_rows = rows
        self.options = options
        self.highlighted: list[int] = []
        self.selected: list[int] = []

    def compose(self) -> ComposeResult:
        yield RowTable(COLUMNS, **self.options)

    def on_mount(self) -> None:
        table = self.query_one(RowTable)
        if self.initial_rows:
            table.add_rows(self.initial_rows)
        table.focus()

    def on_row_table_row_highlighted(self, event: RowTable.RowHighlighted) -> None:
        assert event.table is event.control is self.query_one(RowTable)
        self.highlighted.append(event.cursor_row)

    def on_row_table_row_selected(self, event: RowTable.RowSelected) -> None:
        self.selected.append(event.cursor_row)


def line_text(table: RowTable, y: int) -> str:
    return table.render_line(y).text


def segment_style(strip: Strip, text: str) -> Style:
    """The style of the segment holding `text` (cells with their own style get their own)."""
    for segment in strip:
        if text in segment.text:
            assert segment.style is not None
            return segment.style
    raise AssertionError(f"{text!r} not in {strip.text!r}")


def visible(table: RowTable, row: int) -> bool:
    return table.scroll_y <= row < table.scroll_y + BODY


async def test_rows_appear_below_a_header() -> None:
    app = TableApp(make_rows(3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.query_one(RowTable)
        assert table.row_count == 3
        assert table.row(1) == make_rows(1, start=1)[0]
        assert line_text(table, 0).startswith(" Name   Kind    Expires ")
        assert line_text(table, 1).startswith(" app-0  web     2026    ")
        assert line_text(table, 2).startswith(" app-1  web     never   ")
        assert line_text(table, 4).strip() == ""
        assert all(cell_len(line_text(table, y)) == table.size.width for y in range(5))
        assert table.virtual_size.height == 4
        # the cursor starts on the first row as soon as there is one
        assert table.cursor_row == 0
        assert app.highlighted == [0]


async def test_a_row_needs_one_cell_per_column() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE):
        table = app.query_one(RowTable)
        try:
            table.add_rows([("only", "two")])
        except ValueError:
            pass
        else:
            raise AssertionError("a short row was accepted")
        assert table.row_count == 0


async def test_auto_widths_grow_with_new_rows_and_fixed_widths_do_not() -> None:
    app = TableApp(make_rows(2))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        before = table.virtual_size.width
        assert before == (5 + 2) + (6 + 2) + (7 + 2)  # "app-0", Kind's 6, "Expires"
        table.add_rows([("a-much-longer-name", "web-and-more", "x")])
        await pilot.pause()
        assert table.virtual_size.width == before + len("a-much-longer-name") - 5
        assert line_text(table, 0).startswith(" Name                Kind    Expires ")
        assert line_text(table, 1).startswith(" app-0               web     2026    ")
        assert line_text(table, 3).startswith(" a-much-longer-name  web-a…  x       ")


async def test_cursor_keys_move_the_cursor_and_report_it() -> None:
    app = TableApp(make_rows(40))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        app.highlighted.clear()

        await pilot.press("down", "down", "up")
        assert table.cursor_row == 1
        await pilot.press("pagedown")
        assert table.cursor_row == 1 + BODY
        assert visible(table, table.cursor_row)
        await pilot.press("pageup")
        assert table.cursor_row == 1
        await pilot.press("end")
        assert table.cursor_row == 39
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("G")
        assert table.cursor_row == 39
        await pilot.press("g")
        assert table.cursor_row == 0
        await pilot.press("up")  # already on the first row: no move, no message
        await pilot.pause()
        assert table.scroll_y == 0
        assert app.highlighted == [1, 2, 1, 1 + BODY, 1, 39, 0, 39, 0]


async def test_enter_selects_the_row_under_the_cursor() -> None:
    app = TableApp(make_rows(5))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert app.selected == [2]
        assert table.row(app.selected[0])[0] == "app-2"


async def test_enter_on_an_empty_table_selects_nothing() -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "down", "end")
        await pilot.pause()
        assert app.selected == [] and app.highlighted == []
        assert app.query_one(RowTable).cursor_row == 0


async def test_a_click_moves_the_cursor_and_selects_the_row() -> None:
    app = TableApp(make_rows(30))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        table.move_cursor(row=20)  # scrolled: the screen starts further down
        await pilot.pause()
        top = int(table.scroll_y)
        assert top > 0
        app.highlighted.clear()
        await pilot.click(RowTable, offset=(3, 3))  # the third row on screen
        await pilot.pause()
        assert table.cursor_row == top + 2
        assert app.highlighted == [top + 2]
        assert app.selected == [top + 2]
        await pilot.click(RowTable, offset=(3, 0))  # the header selects nothing
        await pilot.pause()
        assert app.selected == [top + 2]


async def test_clear_empties_the_table_and_starts_over() -> None:
    app = TableApp(make_rows(40))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.press("end")
        await pilot.pause()
        assert table.scroll_y > 0
        table.clear()
        await pilot.pause()
        assert (table.row_count, table.cursor_row, table.scroll_y) == (0, 0, 0)
        assert line_text(table, 1).strip() == ""
        assert line_text(table, 0).strip().startswith("Name")
        app.highlighted.clear()
        table.add_rows(make_rows(3, start=100))
        await pilot.pause()
        assert app.highlighted == [0]
        assert line_text(table, 1).startswith(" app-100 ")


async def test_move_cursor_clamps_and_scrolls_the_row_into_view() -> None:
    app = TableApp(make_rows(100))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        table.move_cursor(row=50)
        await pilot.pause()
        assert table.cursor_row == 50
        assert table.scroll_y == 50 - BODY + 1  # the least scrolling: the row at the bottom
        assert line_text(table, BODY).startswith(" app-50 ")
        assert line_text(table, 0).startswith(" Name ")  # the header stays

        table.move_cursor(row=10_000)
        await pilot.pause()
        assert table.cursor_row == 99
        assert table.scroll_y == table.max_scroll_y == 100 + 1 - SIZE[1]

        table.move_cursor(row=-3)
        await pilot.pause()
        assert (table.cursor_row, table.scroll_y) == (0, 0)
        table.move_cursor(row=5)  # already visible: no scrolling
        await pilot.pause()
        assert (table.cursor_row, table.scroll_y) == (5, 0)


async def test_cell_styles_combine_with_the_row_and_the_cursor_wins_over_zebra() -> None:
    app = TableApp(make_rows(4))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        cursor_row, even_row, odd_row = (table.render_line(y) for y in (1, 3, 2))

        assert segment_style(odd_row, "never").dim
        assert segment_style(even_row, "2026").color == Style.parse("red").color
        zebra = segment_style(even_row, "app-2").bgcolor, segment_style(odd_row, "app-1").bgcolor
        assert zebra[0] != zebra[1]
        # a cell's own style keeps the row's background
        assert segment_style(odd_row, "never").bgcolor == zebra[1]

        cursor = table.get_component_rich_style("datatable--cursor")
        assert segment_style(cursor_row, "app-0").bgcolor == cursor.bgcolor
        assert segment_style(cursor_row, "2026").bgcolor == cursor.bgcolor
        # the cursor's highlight runs to the edge of the widget
        edge = list(cursor_row)[-1]
        assert edge.text.isspace() and edge.style is not None
        assert edge.style.bgcolor == cursor.bgcolor


async def test_the_cursor_looks_different_without_focus() -> None:
    app = TableApp(make_rows(4))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        focused = segment_style(table.render_line(1), "app-0")
        table.blur()
        await pilot.pause()
        table.render_lines(table.size.region)  # a render pass picks up the new styles
        blurred = segment_style(table.render_line(1), "app-0")
        assert focused != blurred


async def test_a_theme_change_restyles_rows_already_drawn() -> None:
    app = TableApp(make_rows(4))
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        before = segment_style(table.render_line(2), "app-1")
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        after = segment_style(table.render_line(2), "app-1")
        assert after.bgcolor != before.bgcolor
        assert after.bgcolor == table.get_component_rich_style("datatable--odd-row").bgcolor


async def test_header_and_rows_scroll_sideways_together() -> None:
    columns = (TableColumn("a", "Alpha", width=30), TableColumn("b", "Beta", width=30))

    class WideApp(TableApp):
        def compose(self) -> ComposeResult:
            yield RowTable(columns)

    app = WideApp([("a0", "b0"), ("a1", "b1")])
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        assert table.virtual_size.width == 64 > table.size.width
        await pilot.press("right", "right", "right", "right")
        await pilot.pause()
        assert table.scroll_x == 4
        header, row = line_text(table, 0), line_text(table, 1)
        assert header.index("Beta") == row.index("b0") == 33 - 4


async def test_without_zebra_stripes_rows_share_one_background() -> None:
    app = TableApp(make_rows(4), zebra_stripes=False)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        styles = [segment_style(table.render_line(y), f"app-{y - 1}") for y in (2, 3)]
        assert styles[0].bgcolor == styles[1].bgcolor


async def test_long_and_wide_text_is_cropped_without_breaking_alignment() -> None:
    columns = (TableColumn("name", "Name", width=8), TableColumn("note", "Note"))
    rows = [("a very long name", "x"), ("日本語の名前です", "y"), ("名前", "z")]

    class CropApp(TableApp):
        def compose(self) -> ComposeResult:
            yield RowTable(columns)

    app = CropApp(rows)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        await pilot.pause()
        assert line_text(table, 1).startswith(" a very …  x ")
        assert line_text(table, 2).startswith(" 日本語 …  y ")
        assert line_text(table, 3).startswith(" 名前      z ")
        assert all(cell_len(line_text(table, y)) == table.size.width for y in range(4))


async def test_thousands_of_rows_in_pages_stay_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    app = TableApp()
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(RowTable)
        measured = 0
        rendered: list[int] = []
        measure, render_row = row_table._cell_parts, table._render_row

        def counting_measure(cell: Cell) -> tuple[str, Style | None]:
            nonlocal measured
            measured += 1
            return measure(cell)

        def counting_render(cells: tuple[Cell, ...], *args: Any) -> Strip:
            rendered.append(int(str(cells[0]).removeprefix("app-")))
            return render_row(cells, *args)

        monkeypatch.setattr(row_table, "_cell_parts", counting_measure)
        monkeypatch.setattr(table, "_render_row", counting_render)

        for page in range(100):
            measured = 0
            table.add_rows(make_rows(50, start=page * 50))
            # auto widths look at the new page only, never at every row again
            assert measured == 50 * 2
            if page % 10 == 0:
                await pilot.pause()
        await pilot.pause()
        assert table.row_count == 5000
        # rows added below the screen were never drawn
        assert max(rendered) < BODY

        rendered.clear()
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 4999 and visible(table, 4999)
        assert line_text(table, BODY).startswith(" app-4999 ")
        # only what is on screen is drawn, whatever the length of the list
        assert rendered and min(rendered) >= 5000 - BODY
        assert len(rendered) <= 2 * BODY

        rendered.clear()
        await pilot.press("up")
        await pilot.pause()
        assert table.cursor_row == 4998
        assert sorted(rendered) == [4998, 4999]  # the cursor's old and new rows only


async def test_replace_rows_with_another_count_resizes_the_scrollable_height() -> None:
    app = TableApp(make_rows(3))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.query_one(RowTable)
        table.replace_rows(make_rows(40), cursor=39)
        await pilot.pause()
        assert table.virtual_size.height == 41
        assert visible(table, 39)
        table.replace_rows(make_rows(2))
        await pilot.pause()
        assert table.virtual_size.height == 3
