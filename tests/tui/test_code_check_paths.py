"""Issue 23: the forms' code check on the console's other paths, against the local service:
the promotion plan marks broken code per object and warns before applying; the lost-update
dialog marks problems in their code and in yours."""

from __future__ import annotations

from typing import Any

import httpx
from console_support import JS, Seeder, settle, two_profile_app
from form_host import FormHost, screen_is, wait_until

from console.client import AdminClient
from console.tui.forms import FormulaForm
from console.tui.modals import LostUpdateModal
from console.tui.modals.target_profile import TargetProfilePicker
from console.tui.screens.estate import PlanScreen
from console.tui.widgets.code_editor import CodeEditor

BROKEN = "module.exports = async function (req) {\n  return { ok: true ;\n};\n"


async def test_the_promotion_plan_marks_broken_code_and_warns_before_applying(service) -> None:
    staging, prod = service.new_tenant("Staging"), service.new_tenant("Prod")
    seeder = Seeder(service.base_url, staging.key)
    seeder.proxy("Broken edge", request_transform={"code": BROKEN})
    seeder.close()
    app = two_profile_app(
        ("staging", service.base_url, staging.key), ("prod", service.base_url, prod.key)
    )
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("2")  # Proxies
        await settle(pilot)
        await pilot.press("c")
        await wait_until(pilot, screen_is(app, TargetProfilePicker), what="the profile picker")
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, PlanScreen), what="the plan")
        screen = app.screen
        assert isinstance(screen, PlanScreen)
        await wait_until(pilot, lambda: screen.plan is not None, what="the plan computed")
        (step,) = screen.plan.to_do
        assert step.code_problems == ["The request transform has 1 syntax error (first at 2:20)."]
        shown = str(screen.query_one("#plan-text").content)
        assert "! code check: The request transform has 1 syntax error" in shown
        note = str(screen.query_one("#plan-note").content)
        assert "The code check finds 1 problem" in note
        assert screen.query_one("#confirm").display  # as a form's "save anyway": it may go
        await pilot.press("y")
        await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))
        await settle(pilot)
    response = httpx.get(
        f"{service.base_url}/proxies", headers={"SVC-API-KEY": prod.key}, timeout=30
    )
    (copied,) = response.json()["data"]
    assert copied["request_transform"]["code"] == BROKEN


async def test_the_lost_update_dialog_marks_problems_in_their_code_and_yours(service) -> None:
    tenant = service.new_tenant("Lost update")
    async with AdminClient(service.base_url, tenant.key) as client:
        formula = await client.reactor_formulas.create({"name": "F", "type": "private", "code": JS})
        app = FormHost(lambda c: FormulaForm(c, formula), base_url=service.base_url, key=tenant.key)
        async with app.run_test(size=(100, 36)) as pilot:
            form = app.form
            await pilot.pause()
            # someone else saves code with no export; this form holds a syntax error
            await client.reactor_formulas.update(
                formula.id, {"name": "F", "type": "private", "code": "const x = 1;\n"}
            )
            form.query_one("#code", CodeEditor).text = BROKEN
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: app.screen is not form, what="a dialog")
            if not isinstance(app.screen, LostUpdateModal):  # the form's own code warning first
                await pilot.click("#confirm")
            await wait_until(pilot, screen_is(app, LostUpdateModal), what="lost-update dialog")
            modal: Any = app.screen
            (change,) = modal.changes
            assert change.problems == (
                "The code (their version) never assigns module.exports: the service finds no "
                "function to run.",
                "The code (your version) has 1 syntax error (first at 2:20).",
            )
            shown = str(modal.query_one(".code-problems").content)
            assert "! The code (their version) never assigns module.exports" in shown
            assert "! The code (your version) has 1 syntax error" in shown
            await pilot.press("escape")
            await wait_until(pilot, lambda: not form.saving)
        assert (await client.reactor_formulas.get(formula.id)).code == "const x = 1;\n"
