"""Guards for the Textual internals the console leans on (README: Textual upgrade checklist).

Behaviour tests guard most of them; these check the ones a behaviour test would only catch
indirectly, so that an upgrade that renames or drops one fails here, by name."""

from __future__ import annotations

from textual.app import App
from textual.document._wrapped_document import WrappedDocument
from textual.screen import Screen
from textual.widgets import DataTable, TextArea
from textual.widgets.text_area import SyntaxAwareDocument

from console.tui.widgets.code_editor import CodeEditor
from console.tui.widgets.row_table import RowTable, TableColumn

CODE = "".join(f"function f{i}(req) {{\n  return {i};\n}}\n" for i in range(300))


class Host(App[None]):
    def compose(self):  # type: ignore[no-untyped-def]
        yield CodeEditor(CODE, id="editor")


async def test_the_counted_wrapped_document_agrees_with_textuals_height() -> None:
    """JavaScriptTextArea swaps its WrappedDocument's class to read the height from a list
    length; Textual's own height must still be the same number."""
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        area = app.query_one(CodeEditor).text_area
        await pilot.pause()
        wrapped = area.wrapped_document
        assert type(wrapped).__name__ == "_CountedWrappedDocument"
        assert isinstance(wrapped, WrappedDocument)
        assert wrapped.height == WrappedDocument.height.fget(wrapped)  # type: ignore[attr-defined]
        assert wrapped.height == area.document.line_count


async def test_the_text_area_internals_the_editor_overrides_are_there() -> None:
    """The caches JavaScriptTextArea clears or fills itself, and the hooks it overrides."""
    app = Host()
    async with app.run_test(size=(100, 30)) as pilot:
        area = app.query_one(CodeEditor).text_area
        await pilot.pause()
        for name in ("_line_cache", "_highlights", "_highlight_query"):
            assert hasattr(area, name), name
        assert isinstance(area.document, SyntaxAwareDocument)
        assert hasattr(area.document, "_syntax_tree")
    for name in ("_build_highlight_map", "_set_document"):
        assert callable(getattr(TextArea, name, None)), name


def test_the_app_and_screen_internals_used_are_there() -> None:
    """App._handle_exception (the console's last net), App._load_screen_css (where the
    console reads later.tcss), the bindings map a node keeps (read-only mode and
    permission hints), and what the benchmarks call to draw a frame."""
    assert callable(getattr(App, "_handle_exception", None))
    assert callable(getattr(App, "_load_screen_css", None))
    assert callable(getattr(App, "_display", None))
    assert callable(getattr(Screen, "_on_timer_update", None))
    screen = Screen()
    assert hasattr(screen._bindings, "key_to_bindings") and callable(screen._bindings.bind)


class Tables(App[None]):
    def compose(self):  # type: ignore[no-untyped-def]
        yield RowTable([TableColumn("name", "Name", width=10)], id="rows")
        yield DataTable(id="data")


async def test_row_table_styles_its_parts_as_data_table_does() -> None:
    """RowTable carries a copy of DataTable's DEFAULT_CSS (textual 8.2): under every theme,
    focused or not, its header, rows and cursor must look like DataTable's."""
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        ours, theirs = app.query_one(RowTable), app.query_one(DataTable)
        parts = sorted(RowTable.COMPONENT_CLASSES)

        def looks(table: RowTable | DataTable) -> list[object]:
            styles = [table.get_component_rich_style(part) for part in parts]
            return [*styles, table.styles.background, table.styles.color]

        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            ours.focus()
            await pilot.pause()
            ours_focused, theirs_blurred = looks(ours), looks(theirs)
            theirs.focus()
            await pilot.pause()
            ours_blurred, theirs_focused = looks(ours), looks(theirs)
            assert ours_focused == theirs_focused, theme
            assert ours_blurred == theirs_blurred, theme
