"""Test-runs from the formula and proxy forms: the prefilled sample, the result, the bt
calls, a thrown error marked in the editor, the sample kept per object, and pictures."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from form_host import FormHost, screen_is, steady_cursors, wait_until
from textual.widgets import Static, TextArea

from console.models import Proxy, ReactorFormula
from console.tui.forms import FormulaForm, ProxyForm
from console.tui.screens.test_run import TestRunScreen
from console.tui.widgets.code_editor import CodeEditor
from console.tui.widgets.key_bar import KeyBar

SIZE = (120, 40)
FORMULA_ID = "7b0a6bd8-7c57-4a55-9d2b-0d1f3a1e5c01"
PROXY_ID = "7b0a6bd8-7c57-4a55-9d2b-0d1f3a1e5c02"
GOOD_CODE = (
    "module.exports = async function (req) {\n"
    "  const { args, configuration } = req;\n"
    "  console.log('card', args.card.number);\n"
    "  return { raw: { last4: args.card.number.slice(-4), salted: configuration.salt } };\n"
    "};\n"
)
THROWING_CODE = (
    "module.exports = function (req) {\n"
    "  const card = req.args.missing;\n"
    "  return { raw: { n: card.number } };\n"
    "};\n"
)
TRANSFORM_CODE = (
    "module.exports = async function (req) {\n"
    "  const { body, headers } = req.args;\n"
    "  const token = await req.bt.tokens.create({ type: 'card', data: body.card_number });\n"
    "  return { body: { ...body, card_number: token }, headers };\n"
    "};\n"
)


@pytest.fixture(autouse=True)
def samples_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Samples go to a temp data dir; the embedded engine runs (the same on every machine)."""
    directory = tmp_path / "data"
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(directory))
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("TENANT_CONSOLE_JS_ENGINE", "embedded")
    monkeypatch.setattr("console.tui.screens.test_run.SHOW_TIMINGS", False)
    return directory


def formula(code: str) -> ReactorFormula:
    return ReactorFormula.model_validate(
        {
            "id": FORMULA_ID,
            "name": "Card fingerprint",
            "type": "private",
            "code": code,
            "configuration": [{"name": "salt", "type": "string"}],
            "request_parameters": [
                {"name": "card.number", "type": "string"},
                {"name": "save", "type": "boolean", "optional": True},
            ],
        }
    )


def proxy() -> Proxy:
    return Proxy.model_validate(
        {
            "id": PROXY_ID,
            "tenant_id": str(uuid.uuid4()),
            "key": "abc",
            "name": "Card collection",
            "destination_url": "https://api.example.com/cards",
            "require_auth": True,
            "application_id": str(uuid.uuid4()),
            "configuration": {"region": "eu-west"},
            "request_transform": {"code": TRANSFORM_CODE},
        }
    )


def host(service: Any, make: Any) -> FormHost:
    tenant = service.new_tenant("Test-run tenant")
    return FormHost(make, base_url=service.base_url, key=tenant.key)


def output_text(screen: TestRunScreen) -> str:
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(screen.query_one("#run-output", Static).content)
    return console.export_text()


async def open_and_run(pilot: Any, app: FormHost) -> TestRunScreen:
    await wait_until(pilot, lambda: app.form is not None and app.form.is_mounted)
    await pilot.press("ctrl+r")
    await wait_until(pilot, screen_is(app, TestRunScreen), what="the test-run screen")
    screen = app.screen
    assert isinstance(screen, TestRunScreen)
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: screen.result_shown_ms is not None, what="the result")
    return screen


def steady(pilot: Any) -> None:
    steady_cursors(pilot.app.screen)


async def test_a_formula_runs_on_a_sample_prefilled_from_its_contract(service, samples_home):
    app = host(service, lambda c: FormulaForm(c, formula(GOOD_CODE)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_and_run(pilot, app)
        sample = json.loads(screen.query_one("#run-sample", TextArea).text)
        assert sample == {
            "args": {"card": {"number": "text"}, "save": True},
            "configuration": {"salt": "text"},
        }
        result = screen.result
        assert result is not None and result.ok, result and result.message
        assert result.value == {"raw": {"last4": "text", "salted": "text"}}
        text = output_text(screen)
        assert "meets the formula contract" in text
        assert "[log] card text" in text
        assert "embedded V8" in text
        kept_file = samples_home / "test-runs" / f"formula-{FORMULA_ID}.json"
        await wait_until(pilot, kept_file.exists, what="the kept sample")
        await app.workers.wait_for_complete()
    assert json.loads(kept_file.read_text()) == sample
    assert kept_file.stat().st_mode & 0o777 == 0o600


async def test_the_kept_sample_is_used_next_time_and_checked_first(service, samples_home):
    kept = samples_home / "test-runs" / f"formula-{FORMULA_ID}.json"
    kept.parent.mkdir(parents=True)
    kept.write_text(json.dumps({"args": {"card": {"number": 4242}}, "configuration": {}}))
    app = host(service, lambda c: FormulaForm(c, formula(GOOD_CODE)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_and_run(pilot, app)
        result = screen.result
        assert result is not None and result.status == "bad_request"
        assert result.request_problems == [
            "args.card.number must be a string, not number (4242).",
            "configuration.salt is missing (string).",
        ]
        await pilot.press("ctrl+t")  # prefill from the contract, then the run passes
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not result, what="the second run")
        assert screen.result is not None and screen.result.ok


async def test_a_thrown_error_is_marked_in_the_editor(service):
    app = host(service, lambda c: FormulaForm(c, formula(THROWING_CODE)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_and_run(pilot, app)
        assert screen.result is not None and screen.result.status == "threw"
        editor = app.form.query_one("#code", CodeEditor)
        strip = str(editor.query_one("#code-problems", Static).content)
        assert strip.startswith("✗ Test-run: TypeError: Cannot read properties of undefined")
        assert "at 3:27" in strip
        await pilot.press("f8")
        await wait_until(pilot, lambda: app.screen is app.form, what="back to the form")
        assert editor.text_area.cursor_location == (2, 26)
        assert editor.text_area.has_focus
        editor.text_area.insert("x")  # an edit clears the mark: its place may not hold
        await pilot.pause()
        assert editor._run_problem is None


async def test_a_transform_with_an_application_records_its_bt_calls(service):
    app = host(service, lambda c: ProxyForm(c, proxy()))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_and_run(pilot, app)
        sample = json.loads(screen.query_one("#run-sample", TextArea).text)
        assert sample["configuration"] == {"region": "eu-west"}
        result = screen.result
        assert result is not None and result.ok, result and result.message
        token = result.value["body"]["card_number"]  # a plausible fake, nothing real
        assert (token["type"], token["data"]) == ("card", "4242424242424242")
        assert token["id"] == "00000000-0000-4000-8000-000000000001"
        assert [(c.method, c.args) for c in result.calls] == [
            ("tokens.create", [{"type": "card", "data": "4242424242424242"}])
        ]
        assert 'bt.tokens.create({"type": "card", "data": "4242424242424242"})' in output_text(
            screen
        )


async def test_the_run_screen_fits_80_columns(service):
    app = host(service, lambda c: FormulaForm(c, formula(GOOD_CODE)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_and_run(pilot, app)
        assert screen.has_class("-narrow") and screen.has_class("-short")
        result_pane = screen.query_one("#run-result")
        assert result_pane.region.height >= 8  # room for the result, under the sample
        assert result_pane.region.bottom <= 24
        bar = screen.query_one(KeyBar)
        assert "Run" in "".join(segment.text for segment in bar.render_line(0))


def test_snapshot_a_run_result(service, snap_compare):
    app = host(service, lambda c: ProxyForm(c, proxy()))

    async def ran(pilot: Any) -> None:
        await open_and_run(pilot, pilot.app)
        steady(pilot)

    assert snap_compare(app, terminal_size=(160, 40), run_before=ran)


def test_snapshot_a_thrown_error_marked_in_the_editor(service, snap_compare):
    app = host(service, lambda c: FormulaForm(c, formula(THROWING_CODE)))

    async def marked(pilot: Any) -> None:
        await open_and_run(pilot, pilot.app)
        await pilot.press("f8")
        await wait_until(pilot, lambda: pilot.app.screen is pilot.app.form)
        steady(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=marked)


async def test_a_transform_runs_from_the_proxy_detail(service):
    from console_support import Seeder, make_app, open_first_detail

    tenant = service.new_tenant("Detail test-run tenant")
    seeder = Seeder(service.base_url, tenant.key)
    try:
        code = "module.exports = (req) => {\n  return { body: req.args.body, headers: 1 };\n};\n"
        seeder.proxy("Hook", request_transform={"code": code})
    finally:
        seeder.close()
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await open_first_detail(pilot, "2")
        await pilot.press("ctrl+r")
        await wait_until(pilot, screen_is(app, TestRunScreen), what="the test-run screen")
        screen = app.screen
        assert isinstance(screen, TestRunScreen)
        assert screen.target.editor is None
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.result is not None, what="the result")
        assert screen.result is not None and screen.result.status == "bad_shape"
        assert "headers must be an object, not number." in output_text(screen)


CONTROL_CODE = (
    "module.exports = async function (req) {\n"
    "  console.log('clip \\x1b]52;c;ZXZpbA==\\x07 clear \\x1b[2J csi \\x9b2J rlo \\u202e');\n"
    "  console.warn('two\\nlines \\r over');\n"
    "  return { raw: { ['k\\x1b[2J']: 'v\\x1b]0;title\\x07\\x7f' }, ['top\\x1b[H']: 1 };\n"
    "};\n"
)
THROWING_CONTROL_CODE = (
    "module.exports = function (req) {\n"
    "  throw new Error('boom \\x1b]52;c;ZXZpbA==\\x07 \\x1b[2J');\n"
    "};\n"
)
RAW_CONTROLS = "\x1b\x07\x9b\x7f\r\u202e"


async def test_control_characters_in_what_the_code_logs_and_returns_are_shown_escaped(service):
    app = host(service, lambda c: FormulaForm(c, formula(CONTROL_CODE)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_and_run(pilot, app)
        result = screen.result
        assert result is not None and result.ok, result and result.message
        text = output_text(screen)
        assert not any(ch in text for ch in RAW_CONTROLS)
        assert "[log] clip \\x1b]52;c;ZXZpbA==\\x07 clear \\x1b[2J csi \\x9b2J rlo \\u202e" in text
        assert "[warn] two\n    lines \\r over" in text
        assert '"k\\u001b[2J": "v\\u001b]0;title\\u0007\\u007f"' in text
        assert "Not in the contract (the service ignores them): top\\x1b[H." in text


async def test_control_characters_in_a_thrown_error_are_shown_escaped(service):
    app = host(service, lambda c: FormulaForm(c, formula(THROWING_CONTROL_CODE)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_and_run(pilot, app)
        assert screen.result is not None and screen.result.status == "threw"
        status = str(screen.query_one("#run-status", Static).content)
        shown = output_text(screen) + status
        assert not any(ch in shown for ch in RAW_CONTROLS)
        assert "Error: boom \\x1b]52;c;ZXZpbA==\\x07 \\x1b[2J at line 2" in status
        editor = app.form.query_one("#code", CodeEditor)
        strip = str(editor.query_one("#code-problems", Static).content)
        assert "\x1b" not in strip and "boom \\x1b]52;c;" in strip


LARGE_CODE = (
    "module.exports = function (req) {\n"
    "  for (let i = 0; i < 300; i++) console.log('line ' + i + ' ' + 'y'.repeat(5000));\n"
    "  return { raw: { rows: Array.from({ length: 20000 }, (_, i) => ({ i })) } };\n"
    "};\n"
)


async def test_a_large_result_and_many_logs_are_drawn_in_part_saying_what_is_left_out(service):
    app = host(service, lambda c: FormulaForm(c, formula(LARGE_CODE)))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_and_run(pilot, app)
        result = screen.result
        assert result is not None and result.ok, result and result.message
        assert len(result.value["raw"]["rows"]) == 20000  # the data is whole; the drawing not
        text = output_text(screen)
        assert len(text) < 200_000
        assert "lines) not shown; `tenant-console run` prints them all" in text
        assert "more characters)" in text  # a long log line, cut
        assert "more log lines not shown; `tenant-console run` prints them all" in text
