"""The JavaScript code editor: highlighting, problems from the parse tree, files, $EDITOR."""

from __future__ import annotations

import asyncio
import random
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.widget import AwaitMount
from textual.widgets import Input, TextArea
from textual.widgets.text_area import SyntaxAwareDocument

from console.code_files.problems import check_javascript, describe_problems
from console.tui.widgets.code_editor import CodeEditor, CodeFileError, CodeProblem
from console.tui.widgets.external_editor import EditorNotFound, editor_command
from console.tui.widgets.javascript_text_area import JavaScriptTextArea
from console.tui.widgets.path_prompt import PathPrompt

VALID = """\
module.exports = function (req) {
  const total = req.args.amount + 1;
  return { raw: { total } };
};
"""

# Line 3 lacks its closing parenthesis: tree-sitter inserts a MISSING ")" before the ";".
BROKEN = """\
module.exports = function (req) {
  const amount = req.args.amount;
  const total = (amount + 1;
  return { raw: { total } };
};
"""

NO_EXPORT = """\
function handler(req) {
  return { raw: req.args };
}
"""


class Host(App[None]):
    """A bare app holding one editor, recording what the editor tells it."""

    def __init__(self, text: str = "", **options: object) -> None:
        super().__init__()
        self.initial_text = text
        self.options = options
        self.changes: list[str] = []
        self.area_changes = 0
        self.notices: list[tuple[str, str]] = []

    def compose(self) -> ComposeResult:
        yield CodeEditor(self.initial_text, id="editor", **self.options)  # type: ignore[arg-type]

    def on_code_editor_changed(self, event: CodeEditor.Changed) -> None:
        self.changes.append(event.text)

    def on_text_area_changed(self) -> None:
        self.area_changes += 1

    def notify(self, message: str, *, severity: str = "information", **kwargs: object) -> None:  # type: ignore[override]
        self.notices.append((message, severity))
        super().notify(message, severity=severity, **kwargs)  # type: ignore[arg-type]

    def show(self, dialog: Screen[Any], callback: Any = None) -> AwaitMount:
        """As the console's app (console.tui.base.dialog_host): the editor asks it for dialogs."""
        return self.push_screen(dialog, callback)

    def ask(self, dialog: Screen[Any]) -> asyncio.Future[Any]:
        return self.push_screen(dialog, wait_for_dismiss=True)

    @property
    def editor(self) -> CodeEditor:
        return self.query_one(CodeEditor)

    def strip_text(self) -> str:
        return str(self.query_one("#code-problems").render())


async def wait_for(pilot, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Pump the app until condition holds; fail after timeout (no sleeping as sync)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met before the deadline")
        await pilot.pause(0.05)


# -- problems from the parse tree (no screen) ---------------------------------------------


def test_missing_parenthesis_is_reported_where_it_belongs() -> None:
    assert check_javascript(BROKEN) == [
        CodeProblem(3, 28, "Missing ')' at line 3, column 28", "error", "Missing ')'")
    ]


def test_unexpected_tokens_are_a_syntax_error_at_their_position() -> None:
    problems = check_javascript("module.exports = (a) => {\n  retur n a;\n};\n")
    assert [(p.line, p.column, p.message) for p in problems] == [
        (2, 9, "Syntax error at line 2, column 9")
    ]


def test_an_unclosed_block_points_at_its_opening_bracket() -> None:
    problems = check_javascript("module.exports = {\n  a: 1,\n")
    assert [(p.line, p.column, p.title) for p in problems] == [(1, 18, "Unclosed '{'")]


def test_columns_count_characters_not_bytes() -> None:
    (problem,) = check_javascript("let s = 'é';  foo(;\nmodule.exports = s;\n")
    assert (problem.line, problem.column, problem.title) == (1, 19, "Missing ')'")


@pytest.mark.parametrize(
    "code",
    [
        "module.exports = function () {};",
        "module.exports.handler = () => ({});",
        "exports.handler = () => ({});",
        "module['exports'] = () => ({});",
        "exports = module.exports = function () {};",
        "module.exports =\n  function () {};",
    ],
)
def test_each_way_of_assigning_the_export_counts(code: str) -> None:
    assert check_javascript(code) == []


@pytest.mark.parametrize(
    "code",
    [
        NO_EXPORT,
        "const exportsCount = 1;\nmodule.exportsX = 2;\n",
        "// module.exports = handler\nfunction handler() {}\n",
        "console.log(module.exports);\n",
    ],
)
def test_code_that_never_assigns_the_export_gets_a_warning(code: str) -> None:
    problems = check_javascript(code)
    assert [(p.severity, p.message) for p in problems] == [
        ("warning", "module.exports is never assigned")
    ]


def test_a_length_limit_is_an_error_at_the_first_character_past_it() -> None:
    code = "module.exports = 1;\n" + "x" * 40
    (problem,) = check_javascript(code, max_length=30)
    assert (problem.severity, problem.line, problem.column) == ("error", 2, 11)
    assert "at most 30" in problem.message


def test_save_warning_sentence_names_the_first_error_and_each_warning() -> None:
    assert describe_problems(check_javascript(VALID)) is None
    sentence = describe_problems(check_javascript(BROKEN.replace("module.exports", "x")))
    assert sentence == (
        "The code has an error: Missing ')' at line 3, column 28. "
        "Warning: module.exports is never assigned."
    )


# -- the widget -----------------------------------------------------------------------------


async def test_javascript_highlighting_is_active_and_visible() -> None:
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        area = app.editor.text_area
        assert area.language == "javascript"
        assert isinstance(area.document, SyntaxAwareDocument)
        assert area.show_line_numbers and area.match_cursor_bracket
        assert area.tab_behavior == "focus" and not area.soft_wrap  # Tab leaves the code

        def colour_of(row: int, word: str) -> object:
            strip = area.render_line(row)
            for segment in strip:
                if segment.text.strip() == word:
                    return segment.style.color if segment.style else None
            raise AssertionError(f"{word!r} not rendered on row {row}")

        # keyword and plain identifier are drawn in different colours
        assert colour_of(0, "function") != colour_of(0, "req")
        assert colour_of(1, "const") == colour_of(0, "function")


async def test_highlighting_follows_scrolling_and_edits_in_long_code() -> None:
    block = "function f{i}(req) {{\n  return {{ raw: 'v{i}' }};\n}}\n"
    code = "".join(block.format(i=i) for i in range(700)) + "module.exports = f1;\n"
    app = Host(code)
    async with app.run_test(size=(120, 40)) as pilot:
        area = app.editor.text_area
        area.focus()
        area.move_cursor((1500, 0), center=True)
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        top = area.scroll_offset.y
        assert top > 1400
        rendered = [area.render_line(y) for y in range(area.size.height)]
        keyword_rows = [strip for strip in rendered if any(seg.text == "return" for seg in strip)]
        assert keyword_rows, "no 'return' visible"
        plain = next(seg for seg in rendered[0] if seg.text.strip()).style
        for strip in keyword_rows:
            styled = next(seg for seg in strip if seg.text == "return")
            assert styled.style is not None and styled.style.color != plain.color


async def test_redrawing_only_edited_rows_looks_the_same_as_a_full_redraw() -> None:
    """Edits redraw only the rows they change; openers of strings and comments redraw more."""
    block = "function f{i}(req) {{\n  const s = 'v{i}'; // note\n  return {{ raw: s }};\n}}\n"
    code = "".join(block.format(i=i) for i in range(60)) + "module.exports = f1;\n"
    app = Host(code)
    async with app.run_test(size=(120, 40)) as pilot:
        area = app.editor.text_area
        area.focus()
        area.move_cursor((100, 0), center=True)
        await pilot.pause()
        rnd = random.Random(7)
        for _ in range(40):
            top = area.scroll_offset.y
            row = rnd.randrange(top, top + 30)
            column = rnd.randrange(0, len(area.document.get_line(row)) + 1)
            area.move_cursor((row, column))
            area.insert(rnd.choice(["x", "'", '"', "/*", "*/", "{", "}", "`", "//", "\n"]))
            fast = [area.render_line(y).text for y in range(area.size.height)]
            styles = [[seg.style for seg in area.render_line(y)] for y in range(area.size.height)]
            area._line_cache.clear()
            area._highlights.clear()
            area._highlighted_rows = range(0)
            assert fast == [area.render_line(y).text for y in range(area.size.height)]
            assert styles == [
                [seg.style for seg in area.render_line(y)] for y in range(area.size.height)
            ]


async def test_a_syntax_error_is_listed_with_line_and_column_and_shown_in_red() -> None:
    app = Host(BROKEN)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        problems = app.editor.problems()
        assert [(p.line, p.column, p.severity) for p in problems] == [(3, 28, "error")]
        assert app.strip_text().startswith("✗ Missing ')' at 3:28")
        assert app.query_one("#code-problems").has_class("-error")


async def test_missing_export_is_a_warning_and_valid_code_has_no_problems() -> None:
    app = Host(NO_EXPORT)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert [p.severity for p in app.editor.problems()] == ["warning"]
        assert app.strip_text().startswith("⚠ module.exports is never assigned")
        assert app.query_one("#code-problems").has_class("-warning")

        app.editor.text = VALID
        assert app.editor.problems() == []
        await wait_for(pilot, lambda: app.strip_text() == "✓ No problems")


async def test_typing_updates_the_strip_after_the_pause_and_posts_changed() -> None:
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        assert app.strip_text() == "✓ No problems"
        editor.focus()
        editor.text_area.move_cursor((1, 16))  # before "req" in "= req.args..."
        await pilot.press("(")
        assert app.changes and "= (req.args" in app.changes[-1]
        assert app.area_changes == 1  # the TextArea's own message bubbles on as well
        assert editor.problems()[0].severity == "error"  # computed on demand at once
        await wait_for(pilot, lambda: app.strip_text().startswith("✗"))
        await pilot.press("backspace")
        await wait_for(pilot, lambda: app.strip_text() == "✓ No problems")


async def test_the_strip_waits_for_a_pause_in_typing() -> None:
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        editor.CHECK_DELAY = 60.0  # a pause that never comes during this test
        await pilot.pause()
        editor.focus()
        editor.text_area.move_cursor((1, 16))
        await pilot.press("(", "(", "(")
        await pilot.pause()
        assert app.strip_text() == "✓ No problems"
        assert editor._check_timer is not None  # one pending check, not one per key


async def test_f8_and_clicking_the_strip_jump_to_the_problem() -> None:
    app = Host(BROKEN)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        editor.focus()
        assert editor.text_area.cursor_location == (0, 0)
        await pilot.press("f8")
        assert editor.text_area.cursor_location == (2, 27)
        editor.text_area.move_cursor((4, 0))
        await pilot.click("#code-problems")
        assert editor.text_area.cursor_location == (2, 27)
        assert editor.text_area.has_focus


async def test_f8_with_several_problems_moves_to_the_next_one_and_wraps() -> None:
    code = "const a = (1;\nconst b = [2;\nfunction f() {}\n"
    app = Host(code)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        assert app.strip_text().endswith("(+2 more · F8 next)")
        editor.focus()
        seen = []
        for _ in range(4):
            await pilot.press("f8")
            seen.append(editor.text_area.cursor_location)
        assert seen == [(0, 12), (1, 12), (2, 15), (0, 12)]


async def test_enter_indents_and_a_closing_bracket_lines_up_with_its_opener() -> None:
    app = Host("module.exports = function (req) {}")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        editor.focus()
        editor.text_area.move_cursor((0, 33))  # between { and }
        await pilot.press("enter")
        assert editor.text == "module.exports = function (req) {\n  \n}"
        assert editor.text_area.cursor_location == (1, 2)
        await pilot.press("i", "f", "space", "(", "x", ")", "space", "{", "enter")
        assert editor.text.split("\n")[2] == "    "
        await pilot.press("r", "enter", "}")
        assert editor.text == "module.exports = function (req) {\n  if (x) {\n    r\n  }\n}"
        await pilot.press("ctrl+z")
        assert editor.text.split("\n")[3] == "    "
        await pilot.press("enter")  # Enter on a blank indented line leaves it empty
        assert editor.text.split("\n")[3:5] == ["", "    "]


async def test_read_only_refuses_edits_loads_and_the_external_editor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _editor_script(tmp_path, "Path(sys.argv[1]).write_text('changed')")
    monkeypatch.setenv("EDITOR", str(script))
    monkeypatch.delenv("VISUAL", raising=False)
    source = tmp_path / "other.js"
    source.write_text("module.exports = 2;\n")
    app = Host(VALID, read_only=True)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        assert editor.read_only and editor.text_area.read_only
        editor.focus()
        await pilot.press("x", "enter", "backspace", "}")
        with pytest.raises(CodeFileError, match="read-only"):
            editor.load_from(source)
        assert editor.edit_externally() is False
        await pilot.press("f2", "f4")
        assert editor.text == VALID
        assert not isinstance(app.screen, PathPrompt)
        assert ("This code is read-only.", "warning") in app.notices
        target = tmp_path / "copy.js"
        editor.save_to(target)  # saving a copy is still allowed
        assert target.read_text() == VALID
        assert "read-only" in str(app.query_one("#code-keys").render())

        editor.read_only = False
        await pilot.press("x")
        assert editor.text.startswith("x")


async def test_load_and_save_round_trip_through_files(tmp_path: Path) -> None:
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        target = tmp_path / "formula.js"
        editor.save_to(target)
        assert target.read_text(encoding="utf-8") == VALID

        other = tmp_path / "other.js"
        other.write_text("module.exports = () => 'é';\n", encoding="utf-8")
        editor.load_from(other)
        assert editor.text == "module.exports = () => 'é';\n"
        await pilot.pause()
        assert app.changes  # loading is a change for the form's dirty tracking
        editor.text_area.undo()
        assert editor.text == VALID  # loading a file can be undone

        editor.load_from(target)
        assert editor.text == VALID


async def test_file_errors_are_sentences_and_keep_the_code(tmp_path: Path) -> None:
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        binary = tmp_path / "image.js"
        binary.write_bytes(b"module.exports = '\xff\xfe';")
        with pytest.raises(CodeFileError, match="is not UTF-8 text"):
            editor.load_from(binary)
        with pytest.raises(CodeFileError, match="There is no file at"):
            editor.load_from(tmp_path / "absent.js")
        with pytest.raises(CodeFileError, match="is a folder"):
            editor.load_from(tmp_path)
        with pytest.raises(CodeFileError, match="does not exist"):
            editor.save_to(tmp_path / "missing-dir" / "x.js")
        assert editor.text == VALID
        existing = tmp_path / "keep.js"
        existing.write_text("old")
        existing.chmod(0o640)
        editor.save_to(existing)
        assert existing.read_text() == VALID
        assert stat.S_IMODE(existing.stat().st_mode) == 0o640
        assert sorted(p.name for p in tmp_path.iterdir()) == ["image.js", "keep.js"]


async def test_f3_and_f2_ask_for_a_path_and_confirm_before_replacing(tmp_path: Path) -> None:
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        editor.focus()
        target = tmp_path / "saved.js"
        target.write_text("old")

        await pilot.press("f3")
        assert isinstance(app.screen, PathPrompt)
        app.screen.query_one("#path", Input).value = str(target)
        await pilot.press("enter")
        assert isinstance(app.screen, PathPrompt)  # the file exists: asks again
        assert "exists" in str(app.screen.query_one("#path-problem").render())
        assert target.read_text() == "old"
        await pilot.press("enter")
        assert not isinstance(app.screen, PathPrompt)
        assert target.read_text() == VALID

        other = tmp_path / "other.js"
        other.write_text(NO_EXPORT)
        await pilot.press("f2")
        prompt = app.screen
        assert isinstance(prompt, PathPrompt)
        assert prompt.query_one("#path", Input).value == str(target)  # last path offered
        prompt.query_one("#path", Input).value = str(tmp_path / "nope.js")
        await pilot.press("enter")
        assert "There is no file" in str(prompt.query_one("#path-problem").render())
        prompt.query_one("#path", Input).value = str(other)
        await pilot.press("enter")
        await pilot.pause()
        assert editor.text == NO_EXPORT

        await pilot.press("f2", "escape")
        assert not isinstance(app.screen, PathPrompt)
        assert editor.text == NO_EXPORT


async def test_external_editor_rewrites_the_code_through_a_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "edited-path.txt"
    script = _editor_script(
        tmp_path,
        f"p = Path(sys.argv[1]); Path({str(record)!r}).write_text(str(p)); "
        "p.write_text(p.read_text().replace('amount + 1', 'amount * 2'))",
    )
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        # Headless run_test cannot suspend: the editor runs without a terminal.
        assert editor.edit_externally() is True
        assert editor.text == VALID.replace("amount + 1", "amount * 2")
        temp = Path(record.read_text())
        assert temp.suffix == ".js" and not temp.exists()
        await pilot.pause()
        assert app.changes


async def test_visual_wins_over_editor_and_a_failing_editor_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = _editor_script(tmp_path, "Path(sys.argv[1]).write_text('x'); sys.exit(3)", "fail")
    monkeypatch.setenv("VISUAL", str(failing))
    monkeypatch.setenv("EDITOR", "/nonexistent/editor")
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        assert editor.edit_externally() is False
        assert editor.text == VALID
        assert any("exited with status 3" in m and s == "error" for m, s in app.notices)


async def test_no_editor_found_is_said_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", "no-such-editor-anywhere --wait")
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = app.editor
        await pilot.pause()
        editor.focus()
        await pilot.press("f4")
        assert editor.text == VALID
        (message, _), *_ = [n for n in app.notices if n[1] == "error"]
        assert "'no-such-editor-anywhere' ($EDITOR) was not found" in message


def test_editor_command_reads_visual_then_editor_then_vi(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    script = _editor_script(tmp_path, "pass")
    assert editor_command({"VISUAL": f"{script} -w", "EDITOR": "nano"}) == [str(script), "-w"]
    assert editor_command({"VISUAL": "  ", "EDITOR": str(script)}) == [str(script)]
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(EditorNotFound, match=r"'vi' \(the default\) was not found"):
        editor_command({})
    _editor_script(tmp_path, "pass", name="vi", suffix="")
    assert editor_command({}) == ["vi"]


async def test_the_syntax_theme_follows_the_app_theme() -> None:
    app = Host(VALID)
    async with app.run_test(size=(120, 40)) as pilot:
        app.theme = "textual-dark"
        await pilot.pause()
        assert app.editor.text_area.theme == JavaScriptTextArea.DARK_THEME
        app.theme = "textual-light"
        await pilot.pause()
        assert app.editor.text_area.theme == JavaScriptTextArea.LIGHT_THEME


def test_snapshot_editor_with_a_syntax_error(snap_compare) -> None:
    async def settle(pilot) -> None:
        area = pilot.app.query_one(TextArea)
        area.cursor_blink = False
        await pilot.pause()

    assert snap_compare(
        Host(BROKEN, label="Formula code"), terminal_size=(120, 40), run_before=settle
    )


# -- helpers -------------------------------------------------------------------------------


def _editor_script(tmp_path: Path, body: str, name: str = "editor", suffix: str = ".py") -> Path:
    """An executable stand-in for $EDITOR: a Python script that edits argv[1] in place."""
    script = tmp_path / f"{name}{suffix}"
    script.write_text(f"#!{sys.executable}\nimport sys\nfrom pathlib import Path\n{body}\n")
    script.chmod(0o755)
    return script


# -- Tab, indentation keys and full screen ----------------------------------------------------


class TwoFields(App[None]):
    """An input, the editor, an input: what a form's Tab order looks like."""

    def compose(self) -> ComposeResult:
        yield Input(id="before")
        yield CodeEditor(VALID, id="editor")
        yield Input(id="after")


async def test_tab_moves_focus_out_of_the_code_and_changes_nothing() -> None:
    app = TwoFields()
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.query_one(CodeEditor)
        app.query_one("#before").focus()
        await pilot.press("tab")
        assert app.focused is editor.text_area
        await pilot.press("tab")
        assert app.focused is app.query_one("#after")
        await pilot.press("shift+tab")
        assert app.focused is editor.text_area
        await pilot.press("shift+tab")
        assert app.focused is app.query_one("#before")
        assert editor.text == VALID


async def test_ctrl_bracket_indents_and_ctrl_backslash_outdents_the_selected_lines() -> None:
    app = Host(VALID)
    async with app.run_test(size=(100, 30)) as pilot:
        area = app.editor.text_area
        area.focus()
        area.selection = type(area.selection)((1, 3), (2, 5))
        await pilot.press("ctrl+right_square_bracket")
        lines = app.editor.text.splitlines()
        assert lines[1] == "    const total = req.args.amount + 1;"
        assert lines[2] == "    return { raw: { total } };"
        assert lines[0] == VALID.splitlines()[0]
        assert area.selection == ((1, 5), (2, 7))  # the selection moves with its text
        await pilot.press("ctrl+backslash", "ctrl+backslash")
        lines = app.editor.text.splitlines()
        assert lines[1] == "const total = req.args.amount + 1;"
        await pilot.press("ctrl+z", "ctrl+z", "ctrl+z")
        assert app.editor.text == VALID


async def test_full_screen_gives_the_code_the_screen_and_tab_indents_there() -> None:
    app = TwoFields()
    async with app.run_test(size=(100, 30)) as pilot:
        editor = app.query_one(CodeEditor)
        editor.focus()
        area = editor.text_area
        area.move_cursor((1, 0))
        await pilot.press("f11")
        await pilot.pause()
        assert editor.full_screen and app.screen.maximized is editor
        assert editor.size.height >= 28 and editor.size.width >= 98
        assert "tab indent" in str(editor.query_one("#code-keys").render())
        await pilot.press("tab")
        assert app.focused is area
        assert editor.text.splitlines()[1] == "    const total = req.args.amount + 1;"
        await pilot.press("shift+tab")
        assert editor.text == VALID and app.focused is area
        await pilot.press("escape")  # back to the form's layout; Tab leaves the code again
        await pilot.pause()
        assert not editor.full_screen and app.screen.maximized is None
        await pilot.press("tab")
        assert app.focused is app.query_one("#after")
        assert editor.text == VALID
        editor.focus()
        await pilot.press("ctrl+f")
        assert editor.full_screen
        await pilot.press("ctrl+f")
        assert not editor.full_screen
