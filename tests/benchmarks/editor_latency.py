"""Editor latency: keystroke to refreshed view, in the code editor on a 2,000-line formula.

`python -m tests.benchmarks.editor_latency` prints one JSON line with the per-keystroke
times (seconds) of the highlighted editor and of the same editor with highlighting off
(`language = None`), each headless at 120x40.

One keystroke is timed from posting the Key event to the text area until the screen has
composed the next frame: the TextArea's key handling and edit (tree-sitter's incremental
re-parse included), the highlight bookkeeping, and rendering every row the edit made dirty.
The frame is forced at once (as Textual's update timer would do at its next tick), so the
figure holds the work, not the wait for the tick. Writing the frame to a terminal, which
headless mode skips, is excluded.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from textual import events
from textual.app import App, ComposeResult

from console.tui.widgets.code_editor import CodeEditor
from tests.benchmarks.formula_code import formula_code

TYPED_LINES = ("const total = amount + 1;", "if (total > limit) { flag(total); }", "// done")
ROUNDS = 3
EDIT_ROW = 1000
"""Typing starts in the middle of the code, in a function body."""


class EditorHost(App[None]):
    def __init__(self, code: str, *, highlighted: bool) -> None:
        super().__init__()
        self.code = code
        self.highlighted = highlighted

    def compose(self) -> ComposeResult:
        yield CodeEditor(self.code, label="Code", max_length=200_000)

    def on_mount(self) -> None:
        if not self.highlighted:
            self.query_one(CodeEditor).text_area.language = None


def _keys() -> list[tuple[str, str]]:
    """(key, character) of each keystroke: a new line, then its characters, per typed line."""
    from textual.keys import _character_to_key

    keys = []
    for line in TYPED_LINES:
        keys.append(("enter", "\r"))
        keys += [(_character_to_key(character), character) for character in line]
    return keys


async def keystroke_times(code: str, *, highlighted: bool) -> list[float]:
    app = EditorHost(code, highlighted=highlighted)
    times: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        area = app.query_one(CodeEditor).text_area
        assert (area.language is not None) == highlighted
        area.focus()
        row = EDIT_ROW
        while area.document.get_line(row).strip() != "}":  # the end of a function body
            row += 1
        area.move_cursor((row - 1, len(area.document.get_line(row - 1))), center=True)
        await pilot.pause()
        edits = 0
        original_edit = area.edit

        def counted_edit(edit: Any) -> Any:
            nonlocal edits
            edits += 1
            return original_edit(edit)

        area.edit = counted_edit  # type: ignore[method-assign]
        for key, character in _keys():
            before = edits
            started = time.perf_counter()
            area.post_message(events.Key(key, character))
            while edits == before:
                await asyncio.sleep(0)
            app.screen._on_timer_update()  # compose the frame now
            times.append(time.perf_counter() - started)
            await pilot.pause()  # let the editor's own messages settle, untimed
        typed = area.document.text
        assert all(line in typed for line in TYPED_LINES), "the keystrokes did not all land"
    return times


async def _measure() -> dict[str, list[float]]:
    code = formula_code(2000)
    highlighted: list[float] = []
    plain: list[float] = []
    for _ in range(ROUNDS):
        highlighted += await keystroke_times(code, highlighted=True)
        plain += await keystroke_times(code, highlighted=False)
    return {"highlighted_s": highlighted, "plain_s": plain, "lines": [code.count("\n")]}


if __name__ == "__main__":
    print(json.dumps(asyncio.run(_measure())))
