"""The JavaScript code editor that forms embed for formula code and proxy transforms.

A toolbar line, a syntax-highlighted TextArea (line numbers, bracket matching, auto-indent) and
a problems strip fed by the TextArea's own tree-sitter tree: syntax errors with line and column,
and a warning when nothing is assigned to module.exports. Files can be loaded and saved, and the
code can be handed to $VISUAL / $EDITOR. The code can also be linked to a local file (F9): the
file is watched while the form is open and a save on disk reloads the editor, unless the editor
has edits of its own since the last load, which are never replaced without asking.
"""

from __future__ import annotations

import logging
import os
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual import events, on
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static, TextArea

from console.code_files.problems import CodeProblem, JavaScriptChecker, check_javascript
from console.files import read_text_file
from console.tui.base.dialog_host import dialog_host
from console.tui.widgets.external_editor import EditorNotFound, edit_text, editor_command
from console.tui.widgets.javascript_text_area import JavaScriptTextArea

if TYPE_CHECKING:
    from console.code_files.watch import FileWatch
    from console.tui.modals.file_changed import FileChoice

__all__ = ["CodeEditor", "CodeFileError", "CodeProblem"]

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 1_000_000
"""Larger files are not code a form should hold; refusing them keeps the UI responsive."""


class CodeFileError(Exception):
    """A file could not be loaded or saved; str() is the sentence to show."""


class ProblemsStrip(Static):
    """One line under the code: the first problem (or that there is none); click to jump."""

    class Pressed(Message):
        """The strip was clicked: jump to the first problem."""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed())


class CodeEditor(Widget):
    """JavaScript editor with live problems; forms use `.text`, `.read_only`, `.problems()`."""

    DEFAULT_CSS = """
    CodeEditor {
        layout: vertical;
        height: 1fr;
        min-height: 8;
    }
    CodeEditor > #code-toolbar {
        height: 1;
        width: 100%;
    }
    CodeEditor > #code-toolbar > #code-label {
        width: 1fr;
        text-style: bold;
    }
    CodeEditor > #code-toolbar > #code-keys {
        width: auto;
        color: $text-muted;
    }
    CodeEditor > #code-link {
        height: 1;
        width: 100%;
        padding: 0 1;
        color: $text-muted;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    CodeEditor > #code-link.-problem {
        color: $warning;
    }
    CodeEditor > JavaScriptTextArea {
        height: 1fr;
    }
    CodeEditor > ProblemsStrip {
        height: 1;
        width: 100%;
        padding: 0 1;
        color: $success;
    }
    CodeEditor > ProblemsStrip.-error {
        color: $error;
    }
    CodeEditor > ProblemsStrip.-warning {
        color: $warning;
    }
    CodeEditor.-full-screen {
        height: 100% !important;
        width: 100%;
        min-height: 0;
        padding: 0 1;
        background: $surface;
    }
    """

    ALLOW_MAXIMIZE = True
    """Full screen (F11): the screen's `maximize`, with Tab indenting while it lasts."""

    BINDINGS = [
        Binding("f2", "load_file", "Load file", show=False),
        Binding("f3", "save_file", "Save to file", show=False),
        Binding("f4", "external_editor", "Open in $EDITOR", show=False),
        Binding("f9", "link_file", "Link to file… / unlink", show=False),
        Binding("f8", "next_problem", "Next problem", show=False),
        Binding("f11,ctrl+f", "full_screen", "Full screen", show=False, key_display="F11"),
    ]

    WIDE_TOOLBAR = 100
    """Narrower than this, the toolbar names its keys in one word each."""

    CHECK_DELAY = 0.3
    """Seconds of quiet after typing before the problems strip is brought up to date."""

    LINK_POLL_SECONDS = 1.0
    """How often a linked file is looked at (a stat; it is read only when it changed)."""

    class Changed(Message):
        """The code changed (typing, loading a file, the external editor, or set in code)."""

        def __init__(self, code_editor: CodeEditor) -> None:
            super().__init__()
            self.code_editor = code_editor

        @property
        def control(self) -> CodeEditor:
            return self.code_editor

        @property
        def text(self) -> str:
            return self.code_editor.text

    def __init__(
        self,
        text: str = "",
        *,
        label: str = "Code",
        read_only: bool = False,
        max_length: int | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        """max_length: the service's limit on the code (50,000 for formulas), an error past it."""
        super().__init__(id=id, classes=classes)
        self.label = label
        self.max_length = max_length
        # TextArea.code_editor is a classmethod typed to return a plain TextArea.
        self.text_area = cast(
            JavaScriptTextArea,
            JavaScriptTextArea.code_editor(
                text,
                language="javascript",
                show_line_numbers=True,
                tab_behavior="focus",
                soft_wrap=False,
                read_only=read_only,
                id="code-area",
            ),
        )
        self.text_area.adapt_indent_width(text)
        self._checker: JavaScriptChecker | None = None
        self._check_timer: Timer | None = None
        self._last_path: Path | None = None
        self.link: FileWatch | None = None
        """The linked file, while there is one."""
        self._synced_text: str | None = None
        """The code as last loaded from (or written to) the linked file."""
        self._link_timer: Timer | None = None
        self._asking = False
        self._run_problem: CodeProblem | None = None

    # -- public interface -------------------------------------------------------------------

    @property
    def text(self) -> str:
        return self.text_area.text

    @text.setter
    def text(self, value: str) -> None:
        """Replace the code and its undo history (posts Changed)."""
        self.text_area.adapt_indent_width(value)
        self.text_area.load_text(value)

    @property
    def read_only(self) -> bool:
        return self.text_area.read_only

    @read_only.setter
    def read_only(self, value: bool) -> None:
        self.text_area.read_only = value
        self.set_class(value, "-read-only")
        if self.is_mounted:
            self._show_keys()

    def problems(self) -> list[CodeProblem]:
        """Errors and warnings in the current code, in document order (computed now)."""
        document = self.text_area.document
        language = getattr(document, "language", None)
        # SyntaxAwareDocument keeps its incrementally parsed tree here (no public accessor).
        tree = getattr(document, "_syntax_tree", None)
        if language is None or tree is None:  # no tree-sitter tree: parse the text on its own
            problems = check_javascript(self.text, max_length=self.max_length)
        else:
            if self._checker is None or self._checker.language is not language:
                self._checker = JavaScriptChecker(language)
            problems = self._checker.check_tree(
                tree.root_node, document.get_line, document.text, max_length=self.max_length
            )
        return sorted(problems, key=lambda problem: (problem.line, problem.column))

    def jump_to(self, problem: CodeProblem) -> None:
        """Put the cursor on a problem and the focus in the code."""
        self.text_area.move_cursor((problem.line - 1, problem.column - 1), center=True)
        self.text_area.focus()

    def show_run_error(self, problem: CodeProblem | None) -> None:
        """Marks an error a test-run threw, like a syntax problem, until the code changes
        (console.tui.screens.test_run); None clears it. Saving never counts it."""
        self._run_problem = problem
        if self.is_mounted:
            self._display(self.problems())

    def focus(self, scroll_visible: bool = True) -> CodeEditor:
        """Focusing the editor focuses its text area."""
        self.text_area.focus(scroll_visible)
        return self

    def load_from(self, path: Path) -> None:
        """Replace the code with a UTF-8 file's text (undoable); raises CodeFileError."""
        if self.read_only:
            raise CodeFileError("This code is read-only; it cannot be replaced from a file.")
        self._replace_text(read_code_file(path))
        self._last_path = path

    def save_to(self, path: Path) -> None:
        """Write the code to a file, whole or not at all; raises CodeFileError."""
        write_code_file(path, self.text)
        self._last_path = path

    def edit_externally(self) -> bool:
        """Hand the code to $VISUAL / $EDITOR / vi in a temp file and take the result back.

        The app is suspended while the editor runs. Where it cannot be (headless, web) the
        editor still runs, without a terminal. Returns True when the code changed.
        """
        if self.read_only:
            self.notify("This code is read-only.", severity="warning")
            return False
        try:
            command = editor_command()
        except EditorNotFound as error:
            self.notify(str(error), title="No editor", severity="error", timeout=8)
            return False
        try:
            with self.app.suspend():
                outcome = edit_text(command, self.text, attached=True)
        except SuspendNotSupported:
            outcome = edit_text(command, self.text, attached=False)
        if outcome.error is not None or outcome.text is None:
            self.notify(outcome.error or "The editor failed.", severity="error", timeout=8)
            return False
        if outcome.text == self.text:
            self.notify("No changes from the editor.", timeout=3)
            return False
        self._replace_text(outcome.text)
        return True

    # -- composition and events -----------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="code-toolbar"):
            yield Static(self.label, id="code-label", markup=False)
            yield Static(id="code-keys")
        link_line = Static(id="code-link", markup=False)
        link_line.display = False
        yield link_line
        yield self.text_area
        yield ProblemsStrip(id="code-problems", markup=False)

    def on_mount(self) -> None:
        self.set_class(self.read_only, "-read-only")
        self._show_keys()
        self._show_problems()
        self.watch(self.app, "theme", self._follow_app_theme)
        self.watch(self.screen, "maximized", self._follow_maximized, init=False)

    @property
    def full_screen(self) -> bool:
        return self.is_mounted and self.screen.maximized is self

    def action_full_screen(self) -> None:
        """Toggles full screen: the code alone on the screen, where Tab indents.

        The size comes from the class -full-screen, set one refresh before the screen
        maximizes the editor: Screen caches its maximized arrangement by (size, children,
        widget), so it must be computed with the full-screen size already in force."""
        if self.full_screen:
            self.screen.minimize()
        else:
            self.add_class("-full-screen")
            self.call_after_refresh(self._maximize)
        self.text_area.focus()

    def _maximize(self) -> None:
        if self.has_class("-full-screen") and self.is_mounted:
            self.screen.maximize(self, container=False)

    def _follow_maximized(self) -> None:
        """Tab indents only in full screen; elsewhere it moves on, so a form's content
        never changes by tabbing through it."""
        full = self.full_screen
        self.set_class(full, "-full-screen")
        self.text_area.tab_behavior = "indent" if full else "focus"
        self._show_keys()

    def _follow_app_theme(self) -> None:
        dark = self.app.current_theme.dark
        self.text_area.theme = (
            JavaScriptTextArea.DARK_THEME if dark else JavaScriptTextArea.LIGHT_THEME
        )

    @on(TextArea.Changed, "#code-area")
    def _text_changed(self) -> None:
        # TextArea.Changed bubbles on too: forms that watch every TextArea see code edits.
        if self._check_timer is not None:
            self._check_timer.stop()
        self._check_timer = self.set_timer(self.CHECK_DELAY, self._show_problems)
        self._run_problem = None  # its place may no longer hold
        self.post_message(self.Changed(self))

    @on(ProblemsStrip.Pressed)
    def _strip_pressed(self) -> None:
        problems = self._with_run_problem(self.problems())
        self._display(problems)
        if problems:
            self.jump_to(problems[0])

    def action_next_problem(self) -> None:
        problems = self._with_run_problem(self.problems())
        self._display(problems)
        if not problems:
            self.notify("No problems in the code.", timeout=3)
            return
        row, column = self.text_area.cursor_location
        after = [p for p in problems if (p.line - 1, p.column - 1) > (row, column)]
        self.jump_to(after[0] if after else problems[0])

    def action_load_file(self) -> None:
        if self.read_only:
            self.notify("This code is read-only.", severity="warning")
            return
        from console.tui.widgets.path_prompt import PathPrompt

        def loaded(path: Path | None) -> None:
            if path is None:
                return
            try:
                self.load_from(path)
            except CodeFileError as error:
                self.notify(str(error), title="Not loaded", severity="error", timeout=8)
                return
            self.notify(f"Loaded {path.name} ({self.text_area.document.line_count} lines).")

        dialog_host(self).show(
            PathPrompt(
                f"Load the {self._what} from a file",
                mode="open",
                initial=self._initial_path(),
            ),
            loaded,
        )

    def action_save_file(self) -> None:
        from console.tui.widgets.path_prompt import PathPrompt

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                self.save_to(path)
            except CodeFileError as error:
                self.notify(str(error), title="Not saved", severity="error", timeout=8)
                return
            self.notify(f"Saved to {path}.")

        dialog_host(self).show(
            PathPrompt(
                f"Save the {self._what} to a file",
                mode="save",
                initial=self._initial_path(),
            ),
            chosen,
        )

    def action_external_editor(self) -> None:
        self.edit_externally()

    # -- a linked local file ----------------------------------------------------------------

    @property
    def linked_path(self) -> Path | None:
        return self.link.path if self.link is not None else None

    def action_link_file(self) -> None:
        """F9: asks for a file to link the code to; when linked already, unlinks."""
        if self.link is not None:
            self.unlink()
            return
        if self.read_only:
            self.notify("This code is read-only; it cannot follow a file.", severity="warning")
            return
        from console.tui.widgets.path_prompt import PathPrompt

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.link_to(path)

        dialog_host(self).show(
            PathPrompt(
                f"Link the {self._what} to a local file (an existing file is loaded, "
                "a new one is written with this code)",
                mode="link",
                initial=self._initial_path(),
            ),
            chosen,
        )

    def link_to(self, path: Path) -> bool:
        """Links the code to `path`: an existing file is loaded into the editor (undoable),
        a missing one is written with the editor's code. Then the file is watched."""
        from console.code_files.watch import FileWatch

        watch = FileWatch(path, read=read_code_file)
        try:
            if path.exists():
                text = watch.read()
                loaded = text != self.text
                if loaded:
                    self._replace_text(text)
                lines = len(text.splitlines())
                note = (
                    f"Linked to {path.name}: loaded {lines} line{'s' if lines != 1 else ''} "
                    "(ctrl+z brings back the code it replaced)."
                    if loaded
                    else f"Linked to {path.name} (it holds this code)."
                )
            else:
                write_code_file(path, self.text)
                watch.seen(self.text)
                note = f"Linked to {path.name}, a new file written with this code."
        except CodeFileError as error:
            self.notify(str(error), title="Not linked", severity="error", timeout=8)
            return False
        self.link = watch
        self._last_path = path
        self._synced_text = self.text
        if self._link_timer is not None:
            self._link_timer.stop()
        self._link_timer = self.set_interval(self.LINK_POLL_SECONDS, self.poll_link)
        self._show_link(f"watching since {time.strftime('%H:%M:%S')}")
        self._show_keys()
        self.notify(note + " Saving it on disk reloads the editor.")
        return True

    def unlink(self) -> None:
        if self.link is None:
            return
        name = self.link.path.name
        self.link = None
        self._synced_text = None
        if self._link_timer is not None:
            self._link_timer.stop()
            self._link_timer = None
        self.query_one("#code-link", Static).display = False
        self._show_keys()
        self.notify(f"Unlinked from {name}; the code stays as it is.")

    def poll_link(self) -> None:
        """Looks at the linked file once (the timer calls this; tests may too): a change
        reloads the editor, or asks first when the editor has edits of its own."""
        if self.link is None or self._asking:
            return
        try:
            text = self.link.poll()
        except CodeFileError as error:
            log.info("The linked file could not be read: %s", error)
            self._show_link(f"cannot read it: {error}", problem=True)
            return
        if self.link.missing:
            self._show_link("the file is missing; waiting for it to come back", problem=True)
            return
        if text is None or text == self.text:
            if text is not None:
                self._synced_text = text
                self._show_link(f"in step since {time.strftime('%H:%M:%S')}")
            return
        if self.text == self._synced_text:
            self._reload(text)
        else:
            self._ask_about(text)

    def _reload(self, text: str) -> None:
        assert self.link is not None
        self._replace_text(text)
        self._synced_text = text
        stamp = time.strftime("%H:%M:%S")
        self._show_link(f"reloaded at {stamp}")
        self.notify(f"Reloaded from {self.link.path.name}: it changed on disk.", timeout=4)

    def _ask_about(self, text: str) -> None:
        from console.tui.modals.file_changed import FileChangedModal

        assert self.link is not None
        self._asking = True
        watch = self.link

        def answered(choice: FileChoice | None) -> None:
            self._asking = False
            if self.link is not watch:  # unlinked meanwhile
                return
            if choice == "file":
                self._reload(text)
            else:
                # The file's version is the last one seen: its next change asks again.
                self._synced_text = text
                self._show_link("kept the console's code; the file differs", problem=True)
                self.notify(
                    f"Kept your code; {watch.path.name} was left as it is (F3 saves to it).",
                    timeout=5,
                )

        dialog_host(self).show(FileChangedModal(watch.path.name, self.text, text), answered)

    def _show_link(self, status: str, *, problem: bool = False) -> None:
        if self.link is None:
            return
        line = self.query_one("#code-link", Static)
        line.update(f"⇄ {_shown_path(self.link.path)} · {status}")
        line.set_class(problem, "-problem")
        line.display = True

    # -- helpers --------------------------------------------------------------------------

    @property
    def _what(self) -> str:
        """The label as a sentence names it: "request transform", not "... (optional)"."""
        return self.label.split(" (")[0].lower()

    def _initial_path(self) -> str:
        return str(self._last_path) if self._last_path is not None else ""

    def _replace_text(self, text: str) -> None:
        """Swap the whole code as one undoable edit, keeping the cursor where it was."""
        area = self.text_area
        row, column = area.cursor_location
        area.adapt_indent_width(text)
        area.replace(text, (0, 0), area.document.end, maintain_selection_offset=False)
        last_row = area.document.line_count - 1
        row = min(row, last_row)
        area.move_cursor((row, min(column, len(area.document.get_line(row)))))

    def _show_problems(self) -> None:
        self._check_timer = None
        self._display(self.problems())

    def _with_run_problem(self, problems: list[CodeProblem]) -> list[CodeProblem]:
        """A test-run's error first (the latest thing the admin did), then the code's own."""
        if self._run_problem is None or self._run_problem in problems:
            return problems
        return [self._run_problem, *problems]

    def _display(self, problems: list[CodeProblem]) -> None:
        problems = self._with_run_problem(problems)
        marks: dict[int, list[tuple[int, str]]] = {}
        for problem in problems:
            if problem.title:  # located problems only; the export warning has no place
                marks.setdefault(problem.line - 1, []).append(
                    (problem.column - 1, problem.severity)
                )
        self.text_area.mark_problems(marks)
        strip = self.query_one(ProblemsStrip)
        errors = [p for p in problems if p.severity == "error"]
        first = errors[0] if errors else (problems[0] if problems else None)
        strip.set_class(bool(errors), "-error")
        strip.set_class(bool(problems) and not errors, "-warning")
        if first is None:
            strip.update("✓ No problems")
            return
        mark = "✗" if first.severity == "error" else "⚠"
        more = len(problems) - 1
        suffix = f"   (+{more} more · F8 next)" if more else "   (F8 to jump)"
        strip.update(f"{mark} {first.summary}{suffix}")

    def _show_keys(self) -> None:
        """The toolbar's keys, in words that fit: short ones on a narrow editor (80 columns),
        so the code's label keeps its room."""
        narrow = 0 < self.size.width < self.WIDE_TOOLBAR
        keys = [] if self.read_only else [("F2", "load", "load")]
        keys.append(("F3", "save as", "save"))
        if not self.read_only:
            keys.append(("F4", "$EDITOR", "$EDITOR"))
            if not (narrow and self.full_screen):  # no room beside tab and esc there
                keys.append(
                    (
                        "F9",
                        "unlink" if self.link else "link file",
                        "unlink" if self.link else "link",
                    )
                )
        keys.append(("F8", "next problem", "next"))
        if self.full_screen:
            keys = [("tab", "indents", "indent"), ("esc", "back to the form", "back"), *keys]
        else:
            keys.append(("F11", "full screen", "full"))
        parts = [
            Content.from_markup("[b]$key[/b] $what", key=key, what=short if narrow else long)
            for key, long, short in keys
        ]
        line = Content(" " if narrow else "  ").join(parts)
        if self.read_only:
            line = Content.assemble(("read-only", "italic"), "  ", line)
        self.query_one("#code-keys", Static).update(line)
        # Narrow, the label drops its note ("(optional)") so that the keys leave it room.
        label = self.label.split(" (")[0] if narrow and not self.full_screen else self.label
        self.query_one("#code-label", Static).update(label)

    def on_resize(self) -> None:
        self._show_keys()


def _shown_path(path: Path) -> str:
    """A path as a person reads it: under the home folder, with ~."""
    try:
        return "~/" + str(path.relative_to(Path.home()))
    except (ValueError, RuntimeError):  # elsewhere, or no home folder known
        return str(path)


def read_code_file(path: Path) -> str:
    """A code file's UTF-8 text; CodeFileError with a sentence a person can act on."""
    return read_text_file(path, MAX_FILE_BYTES, CodeFileError)


def write_code_file(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, so a failed save keeps the old file."""
    try:
        descriptor, temp_name = tempfile.mkstemp(
            prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
        )
    except FileNotFoundError:
        raise CodeFileError(f"The folder {path.parent} does not exist.") from None
    except PermissionError:
        raise CodeFileError(f"No permission to write in {path.parent}.") from None
    except OSError as error:
        raise CodeFileError(f"Could not write {path}: {error.strerror or error}.") from None
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        if path.exists():  # keep the file's mode; a new one stays private (0600, mkstemp's)
            os.chmod(temp_name, path.stat().st_mode & 0o7777)
        os.replace(temp_name, path)
    except IsADirectoryError:
        Path(temp_name).unlink(missing_ok=True)
        raise CodeFileError(f"{path} is a folder, not a file.") from None
    except OSError as error:
        Path(temp_name).unlink(missing_ok=True)
        raise CodeFileError(f"Could not write {path}: {error.strerror or error}.") from None
