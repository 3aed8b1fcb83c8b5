"""A code field linked to a local file: loading, writing a new file, reloading after a save on
disk (driven by calling the poll, or by the timer with a deadline), never overwriting unsaved
edits without asking, unlinking, and the linked path shown near the editor."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from form_host import SIZE, FormHost, screen_is, wait_until
from textual.widgets import Input, Static

from console.client import AdminClient
from console.tui.forms import FormulaForm, ProxyForm
from console.tui.forms.pipeline import PipelineEditor
from console.tui.modals import FileChangedModal
from console.tui.widgets.code_editor import CodeEditor
from console.tui.widgets.line_diff import LineDiff
from console.tui.widgets.path_prompt import PathPrompt

SMALL = (80, 24)
SAVED = "module.exports = async (req) => ({ raw: req.args });\n"
ON_DISK = "module.exports = async (req) => {\n  return { raw: req.args, tokenize: {} };\n};\n"


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Link tenant")


@pytest.fixture
async def formula(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as client:
        return await client.reactor_formulas.create(
            {"name": "Card", "type": "private", "code": SAVED}
        )


def host(service: Any, tenant: Any, make: Any) -> FormHost:
    return FormHost(make, base_url=service.base_url, key=tenant.key)


def save_on_disk(path: Path, text: str) -> None:
    """As an editor saves: new content, and a modification time that differs."""
    path.write_text(text, encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


def link_line(editor: CodeEditor) -> str:
    line = editor.query_one("#code-link", Static)
    return str(line.render()) if line.display else ""


async def test_link_an_existing_file_and_reload_after_a_save_on_disk(
    service, tenant, formula, tmp_path
):
    path = tmp_path / "card.js"
    path.write_text(ON_DISK, encoding="utf-8")
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        editor = form.query_one("#code", CodeEditor)
        await pilot.pause()
        editor.focus()
        await pilot.press("f9")
        await wait_until(pilot, screen_is(app, PathPrompt), what="path prompt")
        app.screen.query_one("#path", Input).value = str(path)
        await pilot.press("enter")
        await wait_until(pilot, lambda: editor.link is not None, what="link")
        assert editor.text == ON_DISK  # the file was loaded
        assert form.dirty
        assert "card.js" in link_line(editor) and "watching" in link_line(editor)
        assert any("Linked to card.js: loaded 3 lines" in n for n in app.notes)
        # Saved on disk: the next poll reloads the editor, with a note.
        third = ON_DISK.replace("tokenize: {}", "tokenize: { a: 1 }")
        save_on_disk(path, third)
        editor.poll_link()
        assert editor.text == third
        assert any("Reloaded from card.js: it changed on disk." in n for n in app.notes)
        assert "reloaded at" in link_line(editor)
        # Saving the form sends the file's code.
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed, what="saved")
    assert app.result.code == third


async def test_the_timer_polls_the_linked_file(service, tenant, formula, tmp_path, monkeypatch):
    monkeypatch.setattr(CodeEditor, "LINK_POLL_SECONDS", 0.05)
    path = tmp_path / "card.js"
    path.write_text(SAVED, encoding="utf-8")
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=SIZE) as pilot:
        editor = app.form.query_one("#code", CodeEditor)
        await pilot.pause()
        assert editor.link_to(path)
        save_on_disk(path, ON_DISK)
        await wait_until(pilot, lambda: editor.text == ON_DISK, what="reload by the timer")


async def test_unsaved_edits_are_never_overwritten_without_asking(
    service, tenant, formula, tmp_path
):
    path = tmp_path / "card.js"
    path.write_text(SAVED, encoding="utf-8")
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=SMALL) as pilot:
        editor = app.form.query_one("#code", CodeEditor)
        await pilot.pause()
        assert editor.link_to(path)
        mine = SAVED + "// mine\n"
        editor.text = mine  # typed in the console, not in the file
        save_on_disk(path, ON_DISK)
        editor.poll_link()
        await wait_until(pilot, screen_is(app, FileChangedModal), what="the question")
        modal = app.screen
        assert editor.text == mine  # nothing replaced yet
        editor.poll_link()  # a second poll while asking asks nothing more
        await pilot.pause()
        assert len(app.screen_stack) == 3
        assert not modal.diff_shown
        await pilot.click("#show-diff")
        await wait_until(pilot, lambda: modal.diff_shown)
        shown = str(modal.query_one(LineDiff).styled())
        assert "-// mine" in shown and "+  return { raw: req.args, tokenize: {} };" in shown
        await pilot.press("escape")  # keep mine
        await wait_until(pilot, lambda: app.screen is app.form)
        assert editor.text == mine
        assert path.read_text() == ON_DISK  # the file is left alone too
        assert "kept the console's code" in link_line(editor)
        # The next save on disk asks again; this time the file's code is taken.
        third = ON_DISK + "// third\n"
        save_on_disk(path, third)
        editor.poll_link()
        await wait_until(pilot, screen_is(app, FileChangedModal))
        await pilot.click("#take")
        await wait_until(pilot, lambda: editor.text == third)
        editor.text_area.undo()  # what was replaced comes back
        assert editor.text == mine


async def test_link_a_new_file_writes_the_code_then_unlink(service, tenant, tmp_path):
    path = tmp_path / "new" / "t.js"
    path.parent.mkdir()
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        step = app.form.query_one("#response-transforms", PipelineEditor).add_step("code")
        await pilot.pause()
        editor = step.code_editor
        assert editor is not None
        editor.text = SAVED
        assert editor.link_to(path)
        assert path.read_text() == SAVED
        assert any("a new file written with this code" in n for n in app.notes)
        editor.poll_link()  # our own write is no change
        assert editor.text == SAVED
        editor.focus()
        await pilot.press("f9")  # linked: F9 unlinks
        assert editor.link is None and link_line(editor) == ""
        save_on_disk(path, ON_DISK)
        editor.poll_link()
        assert editor.text == SAVED


async def test_a_missing_file_is_waited_for_and_read_only_code_cannot_link(
    service, tenant, formula, tmp_path
):
    path = tmp_path / "card.js"
    path.write_text(SAVED, encoding="utf-8")
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=SIZE) as pilot:
        editor = app.form.query_one("#code", CodeEditor)
        await pilot.pause()
        assert editor.link_to(path)
        path.unlink()
        editor.poll_link()
        assert "missing" in link_line(editor) and editor.text == SAVED
        save_on_disk(path, ON_DISK)
        editor.poll_link()
        assert editor.text == ON_DISK
        editor.read_only = True
        editor.unlink()
        editor.focus()
        await pilot.press("f9")
        assert not isinstance(app.screen, PathPrompt)
        assert any("cannot follow a file" in n for n in app.notes)


def test_snapshot_file_changed_with_the_diff_at_80x24(snap_compare):
    modal = FileChangedModal("card.js", SAVED + "// mine\n", ON_DISK)
    assert snap_compare(FormHost(lambda _c: modal), terminal_size=SMALL, press=["d"])


def test_snapshot_linked_formula_code_at_80x24(service, snap_compare, tmp_path):
    tenant = service.new_tenant("Link snapshot")
    path = tmp_path / "card.js"
    path.write_text(ON_DISK, encoding="utf-8")

    async def link(pilot: Any) -> None:
        app = pilot.app
        await wait_until(pilot, lambda: app.form is not None and app.form.is_mounted)
        editor = app.form.query_one("#code", CodeEditor)
        editor.link_to(path)
        editor.query_one("#code-link", Static).update("⇄ ~/code/card.js · watching")
        await pilot.pause()
        app.clear_notifications()
        editor.focus(scroll_visible=False)
        app.form.query_one("#form-body").scroll_to_widget(editor, animate=False, top=True)
        await pilot.pause()

    app = FormHost(lambda c: FormulaForm(c), base_url=service.base_url, key=tenant.key)
    assert snap_compare(app, terminal_size=SMALL, run_before=link)
