"""Where no operating-system sandbox can be had (forced here with $TENANT_CONSOLE_SANDBOX),
code from the service runs only after the console has said so and the user has agreed;
code written in this session (a new formula) runs without the question, and says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from form_host import FormHost, screen_is, wait_until
from textual.widgets import Static

from console.models import ReactorFormula
from console.runner import sandbox
from console.tui.forms import FormulaForm
from console.tui.modals.confirm import ConfirmModal
from console.tui.screens.test_run import TestRunScreen

SIZE = (120, 40)
CODE = "module.exports = async (req) => ({ raw: { n: 1 } });\n"


@pytest.fixture(autouse=True)
def no_boundary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("TENANT_CONSOLE_JS_ENGINE", "embedded")
    monkeypatch.setenv(sandbox.SANDBOX_ENV, "none")
    sandbox.forget()
    yield
    sandbox.forget()


def service_formula() -> ReactorFormula:
    return ReactorFormula.model_validate(
        {
            "id": "7b0a6bd8-7c57-4a55-9d2b-0d1f3a1e5c09",
            "name": "From the service",
            "type": "private",
            "code": CODE,
        }
    )


async def open_run_screen(pilot: Any, app: FormHost) -> TestRunScreen:
    await wait_until(pilot, lambda: app.form is not None and app.form.is_mounted)
    await pilot.press("ctrl+r")
    await wait_until(pilot, screen_is(app, TestRunScreen), what="the test-run screen")
    screen = app.screen
    assert isinstance(screen, TestRunScreen)
    return screen


def status(screen: TestRunScreen) -> str:
    return str(screen.query_one("#run-status", Static).content)


async def test_service_code_asks_first_and_declining_runs_nothing(service: Any) -> None:
    tenant = service.new_tenant("Unisolated tenant")
    app = FormHost(
        lambda c: FormulaForm(c, service_formula()), base_url=service.base_url, key=tenant.key
    )
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_run_screen(pilot, app)
        await pilot.press("ctrl+r")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the question")
        question = app.screen
        assert isinstance(question, ConfirmModal)
        assert "No operating-system sandbox can be had here" in question.body_text
        assert "came from the service" in question.body_text
        assert question.focused is not None and question.focused.id == "cancel"
        hint = str(screen.query_one("#run-hint", Static).content)
        assert "No operating-system sandbox can be had here" in hint
        await pilot.press("enter")  # the safe answer has the focus
        await wait_until(pilot, lambda: app.screen is screen, what="back to the run screen")
        await wait_until(pilot, lambda: "Not run" in status(screen), what="the refusal")
        assert screen.result is None


async def test_service_code_runs_once_agreed_and_is_not_asked_again(service: Any) -> None:
    tenant = service.new_tenant("Unisolated tenant")
    app = FormHost(
        lambda c: FormulaForm(c, service_formula()), base_url=service.base_url, key=tenant.key
    )
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_run_screen(pilot, app)
        await pilot.press("ctrl+r")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the question")
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.result is not None, what="the result")
        first = screen.result
        assert first is not None and first.ok and not first.isolated
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not first, what="the second run")
        assert not isinstance(app.screen, ConfirmModal)
        assert screen.result is not None and screen.result.ok


async def test_code_written_in_this_session_runs_without_the_question(service: Any) -> None:
    tenant = service.new_tenant("Unisolated tenant")
    app = FormHost(lambda c: FormulaForm(c), base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.form is not None and app.form.is_mounted)
        from console.tui.widgets.code_editor import CodeEditor

        app.form.query_one("#code", CodeEditor).text_area.load_text(CODE)
        screen = await open_run_screen(pilot, app)
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not None, what="the result")
        assert screen.result is not None and screen.result.ok
        assert not screen.result.isolated
        from rich.console import Console

        console = Console(width=200, record=True)
        console.print(screen.query_one("#run-output", Static).content)
        assert "Ran without an operating-system sandbox" in console.export_text()
