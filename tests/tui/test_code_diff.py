"""Code changes as a unified line diff in the lost-update dialog and the save confirmation
(the code warning), scrollable at 80x24, against the real local service."""

from __future__ import annotations

from typing import Any

import pytest
from form_host import FormHost, screen_is, wait_until
from textual.containers import VerticalScroll

from console.client import AdminClient
from console.code_diff import line_diff
from console.tui.forms import FormulaForm, ProxyForm
from console.tui.forms.pipeline import PipelineEditor
from console.tui.modals import CodeWarningModal, FieldChange, LostUpdateModal
from console.tui.widgets.code_editor import CodeEditor
from console.tui.widgets.line_diff import LineDiff

SMALL = (80, 24)
CODE = "".join(f"  const v{i} = req.args.v{i};\n" for i in range(30))
BASE = "module.exports = async function (req) {\n" + CODE + "  return { raw: req.args };\n};\n"


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Diff tenant")


@pytest.fixture
async def client(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


def host(service: Any, tenant: Any, make: Any) -> FormHost:
    return FormHost(make, base_url=service.base_url, key=tenant.key)


async def test_lost_update_shows_the_code_as_a_line_diff_that_scrolls(service, tenant, client):
    formula = await client.reactor_formulas.create({"name": "F", "type": "private", "code": BASE})
    app = host(service, tenant, lambda c: FormulaForm(c, formula))
    async with app.run_test(size=SMALL) as pilot:
        form = app.form
        await pilot.pause()
        theirs = BASE.replace("v3 = req.args.v3", "v3 = req.args.theirs")
        await client.reactor_formulas.update(
            formula.id, {"name": "F", "type": "private", "code": theirs}
        )
        mine = BASE.replace("return { raw: req.args }", "return { raw: req.args, tokenize: {} }")
        form.query_one("#code", CodeEditor).text = mine
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, LostUpdateModal), what="lost-update dialog")
        modal = app.screen
        (change,) = modal.changes
        assert change.field == "Code"
        assert "-  const v3 = req.args.theirs;" in change.diff
        assert "+  const v3 = req.args.v3;" in change.diff
        assert "+  return { raw: req.args, tokenize: {} };" in change.diff
        shown = str(modal.query_one(LineDiff).styled())
        assert "+  return { raw: req.args, tokenize: {} };" in shown
        # Two hunks and the table do not fit at 80x24: the changes scroll, by keyboard too.
        changes = modal.query_one("#changes", VerticalScroll)
        assert changes.max_scroll_y > 0
        changes.focus()
        await pilot.press("end")
        await wait_until(pilot, lambda: changes.scroll_y == changes.max_scroll_y)
        assert modal.query_one("#confirm").region.bottom <= SMALL[1]  # buttons stay on screen
        await pilot.press("escape")
        await wait_until(pilot, lambda: not form.saving)
    assert (await client.reactor_formulas.get(formula.id)).code == theirs


async def test_save_confirmation_shows_the_code_diff_of_each_transform(service, tenant, client):
    proxy = await client.proxies.create(
        {
            "name": "P",
            "destination_url": "https://a.example.com",
            "request_transform": {"code": BASE},
        }
    )
    app = host(service, tenant, lambda c: ProxyForm(c, proxy))
    async with app.run_test(size=SMALL) as pilot:
        form = app.form
        await pilot.pause()
        broken = BASE.replace("return { raw: req.args };", "return { raw: req.args ;")
        request = form.query_one("#request-transforms", PipelineEditor)
        request.code_editor_at(0).text = broken
        step = form.query_one("#response-transforms", PipelineEditor).add_step("code")
        await pilot.pause()
        step.code_editor.text = "module.exports = (r) => r;\n"
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, CodeWarningModal), what="code warning")
        modal = app.screen
        labels = [label for label, _ in modal.diffs]
        assert labels == ["Request transforms, step 1", "Response transforms, step 1"]
        request_diff = modal.diffs[0][1]
        assert "-  return { raw: req.args };" in request_diff
        assert "+  return { raw: req.args ;" in request_diff
        assert "+module.exports = (r) => r;" in modal.diffs[1][1]
        assert len(modal.query(LineDiff)) == 2
        await pilot.click("#cancel")
        await wait_until(pilot, lambda: app.screen is form and not form.saving)
        assert form._send_count == 0


async def test_a_new_object_has_no_diff_to_show(service, tenant):
    app = host(service, tenant, lambda c: FormulaForm(c))
    async with app.run_test(size=SMALL) as pilot:
        form = app.form
        form.query_one("#name").value = "New"
        form.query_one("#code", CodeEditor).text = "function f() {}\n"
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, CodeWarningModal))
        assert app.screen.diffs == []
        assert not app.screen.query(LineDiff)


# ----- looks at 80x24 ------------------------------------------------------------------------


def long_diff() -> list[str]:
    theirs = BASE.replace("v3 = req.args.v3", "v3 = req.args.theirs")
    mine = BASE.replace("return { raw: req.args }", "return { raw: req.args, tokenize: {} }")
    return line_diff(theirs, mine, old_label="Code (theirs)", new_label="Code (yours)")


def test_snapshot_lost_update_with_a_code_diff_at_80x24(snap_compare):
    modal = LostUpdateModal(
        'The formula "Card fingerprint"',
        [
            FieldChange("Name", "Card fingerprint v2", "Card fingerprint"),
            FieldChange(
                "Code", "33 lines, 900 characters", "33 lines, 912 characters", tuple(long_diff())
            ),
        ],
        changed_when="modified 2026-11-22 10:05 UTC",
    )
    assert snap_compare(FormHost(lambda _c: modal), terminal_size=SMALL)


def test_snapshot_code_warning_with_a_code_diff_at_80x24(snap_compare):
    diff = line_diff(
        "module.exports = (req) => {\n  return { raw: req.args };\n};\n",
        "module.exports = (req) => {\n  return { raw: req.args ;\n};\n",
        old_label="Code (saved)",
        new_label="Code (this form)",
    )
    modal = CodeWarningModal(["The code has 1 syntax error (first at 2:27)."], [("Code", diff)])
    assert snap_compare(FormHost(lambda _c: modal), terminal_size=SMALL)
