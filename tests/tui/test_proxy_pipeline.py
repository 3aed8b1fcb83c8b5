"""The proxy form's transform pipelines (issue 35): steps added, removed after a confirmation,
moved, each type edited with its own fields, errors at the step with their path, saved to
the local service and read back; a proxy from a service with only the single transforms is
edited as before; ctrl+r runs the selected side's steps in order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from form_host import SIZE, FormHost, steady_cursors, wait_until
from textual.widgets import Input, Select, Static, TextArea

from console.client import AdminClient
from console.models import Proxy
from console.tui.forms import ProxyForm
from console.tui.forms.pipeline import PipelineEditor, StepEditor
from console.tui.forms.proxy import ApplicationPicker
from console.tui.modals.confirm import ConfirmModal
from console.tui.modals.key_choice import KeyChoiceModal
from console.tui.screens.test_run import TestRunScreen
from console.tui.widgets.code_editor import CodeEditor

PROXY_ID = "7b0a6bd8-7c57-4a55-9d2b-0d1f3a1e5c35"


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Pipeline tenant")


@pytest.fixture
async def client(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


def host(service: Any, tenant: Any, make: Any) -> FormHost:
    return FormHost(make, base_url=service.base_url, key=tenant.key)


def pipeline(form: Any, side: str = "request") -> PipelineEditor:
    return form.query_one(f"#{side}-transforms", PipelineEditor)


async def add_step(pilot: Any, form: Any, step_type: str, side: str = "request") -> StepEditor:
    """n on the side's step list, then the type chosen in the picker."""
    steps = pipeline(form, side)
    before = len(steps.editors)
    steps.step_list.focus()
    await pilot.press("n")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, KeyChoiceModal), what="picker")
    picker = pilot.app.screen
    options = picker.query_one("OptionList")
    options.highlighted = [c[0] for c in picker.choices].index(step_type)
    await pilot.press("enter")
    await wait_until(pilot, lambda: len(steps.editors) == before + 1, what="the new step")
    await pilot.pause()
    editor = steps.selected_editor
    assert editor is not None and editor.step_type == step_type
    return editor


async def test_steps_are_added_moved_and_removed_after_a_confirmation(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        steps = pipeline(form, "response")
        assert steps.editors == []
        await add_step(pilot, form, "code", "response")
        await add_step(pilot, form, "append_header", "response")
        await add_step(pilot, form, "mask", "response")
        assert [e.step_type for e in steps.editors] == ["code", "append_header", "mask"]
        assert form.dirty
        # shift+up moves the selected step (the mask) up; its fields' paths follow.
        steps.step_list.focus()
        await pilot.press("shift+up")
        assert [e.step_type for e in steps.editors] == ["code", "mask", "append_header"]
        assert steps.selected == 1
        paths = {f.path for f in steps.editors[1].query("FormField")}
        assert "response_transforms[1].expression" in paths
        await pilot.press("shift+down", "shift+down")  # the last stays last
        assert [e.step_type for e in steps.editors] == ["code", "append_header", "mask"]
        # d asks first; "Keep it" keeps the step.
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal), what="question")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, ConfirmModal))
        assert len(steps.editors) == 3
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmModal), what="question")
        assert "Remove step 3 (mask)?" in app.screen.title_text
        await pilot.press("y")
        await wait_until(pilot, lambda: len(steps.editors) == 2, what="removed")
        assert [e.step_type for e in steps.editors] == ["code", "append_header"]


def with_pipelines(request: list[Any], response: list[Any] | None = None, **more: Any) -> Proxy:
    """A proxy as a service with pipelines answers it (the arrays, the single transforms
    derived)."""
    return Proxy.model_validate(
        {
            "id": PROXY_ID,
            "name": "Card collection",
            "destination_url": "https://api.example.com/cards",
            "require_auth": True,
            "configuration": {"region": "eu-west"},
            "request_transforms": request,
            "response_transforms": response or [],
            **more,
        }
    )


async def test_each_step_type_is_edited_with_its_own_fields(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        code = await add_step(pilot, form, "code")
        code.code_editor.text = "module.exports = (req) => req.args;\n"
        token = await add_step(pilot, form, "tokenize")
        token.query_one(".step-token", TextArea).text = '{"type": "card_number", "data": "x"}'
        token.query_one(".step-identifier", Input).value = "card"
        mask = await add_step(pilot, form, "mask", side="response")
        mask.query_one(".step-expression", Input).value = r'"pan":\s*"(\d+)"'
        mask.query_one(".step-replacement", Input).value = "#"
        header = await add_step(pilot, form, "append_header", "response")
        header.query_one(".step-value", Input).value = "Bearer abc"
        header.query_one(".step-location", Input).value = "Authorization"
        json_step = await add_step(pilot, form, "append_json", "response")
        json_step.query_one(".step-value", Input).value = "v1"
        json_step.query_one(".step-location", Input).value = "$.meta.version"
        text = await add_step(pilot, form, "append_text", "response")
        text.query_one(".step-value", Input).value = "\n-- end"
        await pilot.pause()
        request, errors = pipeline(form).steps_payload()
        assert errors == {}
        assert request == [
            {"type": "code", "code": "module.exports = (req) => req.args;\n"},
            {
                "type": "tokenize",
                "options": {"token": {"type": "card_number", "data": "x"}, "identifier": "card"},
            },
        ]
        assert pipeline(form, "response").steps_payload()[0] == [
            {
                "type": "mask",
                "matcher": "regex",
                "expression": r'"pan":\s*"(\d+)"',
                "replacement": "#",
            },
            {
                "type": "append_header",
                "options": {"value": "Bearer abc", "location": "Authorization"},
            },
            {"type": "append_json", "options": {"value": "v1", "location": "$.meta.version"}},
            {"type": "append_text", "options": {"value": "\n-- end"}},
        ]
        rows = [str(o.prompt) for o in pipeline(form).step_list._options]
        assert rows[0].endswith("module.exports = (req) => req.args;")
        assert "card ← a card_number token" in rows[1]
        rows = [str(o.prompt) for o in pipeline(form, "response").step_list._options]
        assert 'regex "pan"' in rows[0]
        assert "Authorization: Bearer abc" in rows[1]
        assert '$.meta.version = "v1"' in rows[2]
        assert '+ "\\n-- end"' in rows[3]
        # chase_stratus_pan needs no expression.
        mask.query_one(".step-matcher", Select).value = "chase_stratus_pan"
        mask.query_one(".step-expression", Input).value = ""
        await pilot.pause()
        assert pipeline(form, "response").steps_payload()[0][0] == {
            "type": "mask",
            "matcher": "chase_stratus_pan",
            "replacement": "#",
        }


async def test_a_steps_errors_are_shown_at_its_fields_with_their_paths(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        form.query_one("#name", Input).value = "Checked"
        form.query_one("#destination-url", Input).value = "https://api.example.com/v1"
        code = await add_step(pilot, form, "code", "response")
        code.code_editor.text = "module.exports = (req) => req.args;\n"
        mask = await add_step(pilot, form, "mask", "response")
        mask.query_one(".step-replacement", Input).value = "##"
        token = await add_step(pilot, form, "tokenize", "response")
        token.query_one(".step-token", TextArea).text = "{not json"
        await add_step(pilot, form, "code")  # no code: a field's error, on the other side
        pipeline(form, "response").select(0)  # the error selects the faulty step
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.banner_text != "", what="the errors")
        assert not app.dismissed
        fields = form.fields_by_path()
        expression = fields["response_transforms[1].expression"].errors
        assert "A regex mask needs an expression." in expression
        assert "one character" in fields["response_transforms[1].replacement"].errors
        assert "not JSON" in fields["response_transforms[2].options.token"].errors
        assert fields["request_transforms[0].code"].errors
        assert pipeline(form, "response").selected == 1
        rows = [str(o.prompt) for o in pipeline(form, "response").step_list._options]
        assert rows[0].startswith("  ")
        assert rows[1].startswith("✗") and "response_transforms[1].expression" in rows[1]
        assert rows[2].startswith("✗") and "response_transforms[2].options.token" in rows[2]
        # Mended, the mark goes; moved, the step's error paths follow it.
        mask.query_one(".step-expression", Input).value = r"(\d+)"
        mask.query_one(".step-replacement", Input).value = "*"
        await pilot.pause()
        rows = [str(o.prompt) for o in pipeline(form, "response").step_list._options]
        assert not rows[1].startswith("✗") and rows[2].startswith("✗")


async def test_pipelines_are_saved_to_the_service_and_read_back(service, tenant, client):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        form.query_one("#name", Input).value = "Two steps"
        form.query_one("#destination-url", Input).value = "https://api.example.com/v1"
        code = await add_step(pilot, form, "code")
        code.code_editor.text = "module.exports = (req) => req.args;\n"
        token = await add_step(pilot, form, "tokenize")
        token.query_one(".step-token", TextArea).text = '{"type": "card_number", "data": "x"}'
        token.query_one(".step-identifier", Input).value = "card"
        mask = await add_step(pilot, form, "mask", side="response")
        mask.query_one(".step-expression", Input).value = r"(\d{12})\d{4}"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed or form.banner_text, what="saved")
        assert app.dismissed, form.banner_text
    stored = await client.proxies.get(app.result.id)
    assert [t.type for t in stored.request_transforms or []] == ["code", "tokenize"]
    assert [t.type for t in stored.response_transforms or []] == ["mask"]
    assert stored.response_transform is not None and stored.response_transform.type == "mask"

    app = host(service, tenant, lambda c: ProxyForm(c, stored))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        steps = pipeline(form)
        assert [e.step_type for e in steps.editors] == ["code", "tokenize"]
        await pilot.pause()
        assert not form.dirty
        steps.select(1)
        steps.step_list.focus()
        await pilot.press("shift+up")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed or form.banner_text, what="saved")
        assert app.dismissed, form.banner_text
    again = await client.proxies.get(stored.id)
    assert [t.type for t in again.request_transforms or []] == ["tokenize", "code"]
    assert again.request_transforms[0].options["identifier"] == "card"
    assert again.request_transform is None  # two steps: no single transform
    assert [t.type for t in again.response_transforms or []] == ["mask"]


async def test_a_proxy_from_a_spec_shaped_service_is_edited_as_before(service, tenant, client):
    created = await client.proxies.create(
        {
            "name": "Spec era",
            "destination_url": "https://api.example.com/v1",
            "request_transform": {"code": "module.exports = (req) => req.args;\n"},
        }
    )
    # As a service with the single transforms only answers it: no arrays.
    spec = Proxy.model_validate(
        created.model_dump(mode="json", exclude={"request_transforms", "response_transforms"})
    )
    assert spec.request_transforms is None
    app = host(service, tenant, lambda c: ProxyForm(c, spec))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        assert not form.query(PipelineEditor)
        editor = form.query_one("#request-transform", CodeEditor)
        editor.text = "module.exports = (req) => ({ ...req.args });\n"
        payload, _ = form.build_payload()
        body = form.wire_body(form.validate(payload))
        assert body["request_transform"] == {"code": editor.text}
        assert "request_transforms" not in body and "response_transforms" not in body
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed or form.banner_text, what="saved")
        assert app.dismissed, form.banner_text
    stored = await client.proxies.get(created.id)
    assert stored.request_transform is not None
    assert stored.request_transform.code == "module.exports = (req) => ({ ...req.args });\n"


async def test_a_new_proxy_with_one_step_a_side_is_sent_as_the_single_transforms(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        form.query_one("#name", Input).value = "One step"
        form.query_one("#destination-url", Input).value = "https://api.example.com/v1"
        code = await add_step(pilot, form, "code")
        code.code_editor.text = "module.exports = (req) => req.args;\n"
        payload, _ = form.build_payload()
        body = form.wire_body(form.validate(payload))
        assert body["request_transform"] == {"type": "code", "code": code.code_editor.text}
        assert body["response_transform"] is None
        assert "request_transforms" not in body and "response_transforms" not in body


async def test_a_step_of_an_unknown_type_is_shown_read_only_and_written_back(service, tenant):
    future = {"type": "future_step", "setting": {"a": 1}}
    proxy = with_pipelines([future, {"type": "code", "code": "module.exports = (r) => r.args;"}])
    app = host(service, tenant, lambda c: ProxyForm(c, proxy))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        steps = pipeline(form)
        unknown = steps.editors[0]
        assert not unknown.known and not unknown.query("Input, TextArea")
        assert "cannot edit" in str(unknown.query_one(".readonly-value").content)
        assert "read-only" in str(steps.step_list._options[0].prompt)
        payload, errors = form.build_payload()
        assert errors == {}
        assert payload["request_transforms"][0] == future
        assert payload == {
            **payload,
            **{"request_transforms": [future, payload["request_transforms"][1]]},
        }
        assert not form.dirty


# ----- test-runs -----

FIRST = (
    "module.exports = async (req) => ({\n"
    "  body: { ...req.args.body, region: req.configuration.region },\n"
    "  headers: req.args.headers,\n"
    "});\n"
)
SECOND = (
    "module.exports = (req) => ({\n"
    "  body: { ...req.args.body, steps: 2 },\n"
    "  headers: { ...req.args.headers, 'x-second': 'yes' },\n"
    "});\n"
)
THROWS = "module.exports = (req) => {\n  return req.args.missing.body;\n};\n"
TOKENIZE = {"type": "tokenize", "options": {"token": {"type": "card_number"}, "identifier": "c"}}


@pytest.fixture
def run_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Samples in a temp data dir; the embedded engine (the same on every machine)."""
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("TENANT_CONSOLE_JS_ENGINE", "embedded")
    monkeypatch.setattr("console.tui.screens.test_run.SHOW_TIMINGS", False)


def output_text(screen: TestRunScreen) -> str:
    from rich.console import Console

    console = Console(width=200, record=True)
    console.print(screen.query_one("#run-output", Static).content)
    return console.export_text()


async def run_side(pilot: Any, app: FormHost, side: str) -> TestRunScreen:
    form = app.form
    await wait_until(pilot, lambda: form.is_mounted)
    pipeline(form, side).step_list.focus()
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: isinstance(app.screen, TestRunScreen), what="test-run")
    screen = app.screen
    assert isinstance(screen, TestRunScreen)
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: screen.result_shown_ms is not None, what="the result")
    return screen


async def test_ctrl_r_runs_the_focused_sides_steps_in_order(service, tenant, run_here):
    proxy = with_pipelines(
        [{"type": "code", "code": FIRST}, TOKENIZE, {"type": "code", "code": SECOND}],
        [
            {
                "type": "mask",
                "matcher": "regex",
                "expression": r'"card_number":\s*"(\d+)"',
                "replacement": "*",
            }
        ],
    )
    app = host(service, tenant, lambda c: ProxyForm(c, proxy))
    async with app.run_test(size=SIZE) as pilot:
        screen = await run_side(pilot, app, "request")
        assert (
            screen.target.title
            == 'Test-run of the request transforms of the proxy "Card collection"'
        )
        run = screen.pipeline_run
        assert run is not None
        assert [s.status for s in run.steps] == ["ok", "not_run_here", "ok"], run.message
        assert run.final["args"]["body"] == {
            "card_number": "4242424242424242",
            "region": "eu-west",
            "steps": 2,
        }
        assert run.final["args"]["headers"]["x-second"] == "yes"
        text = output_text(screen)
        assert "✓ 1. code: Returned an object" in text
        assert "· 2. tokenize: Not run here" in text
        assert "The request after the pipeline" in text
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.form, what="back")

        screen = await run_side(pilot, app, "response")
        run = screen.pipeline_run
        assert run is not None and [s.status for s in run.steps] == ["ok"]
        assert run.final["args"]["body"] == {"card_number": "*" * 16}


async def test_a_step_that_throws_is_marked_in_its_own_editor(service, tenant, run_here):
    proxy = with_pipelines(
        [{"type": "code", "code": FIRST}, {"type": "code", "code": THROWS}, TOKENIZE]
    )
    app = host(service, tenant, lambda c: ProxyForm(c, proxy))
    async with app.run_test(size=SIZE) as pilot:
        screen = await run_side(pilot, app, "request")
        run = screen.pipeline_run
        assert run is not None and [s.status for s in run.steps] == ["ok", "error", "skipped"]
        status = str(screen.query_one("#run-status", Static).content)
        assert status.startswith("Step 2: TypeError") and "F8 goes there" in status
        editor = pipeline(app.form).code_editor_at(1)
        assert editor is not None
        strip = str(editor.query_one("#code-problems", Static).content)
        assert strip.startswith("✗ Test-run: TypeError")
        await pilot.press("f8")
        await wait_until(pilot, lambda: app.screen is app.form, what="back to the form")
        assert editor.text_area.has_focus
        assert editor.text_area.cursor_location[0] == 1


# ----- looks -----

LOOKS = [(80, 24), (200, 60)]


def snapshot_proxy() -> Proxy:
    return with_pipelines(
        [
            {"type": "code", "code": FIRST},
            TOKENIZE,
        ],
        [
            {
                "type": "mask",
                "matcher": "regex",
                "expression": r'"card_number":\s*"(\d+)"',
                "replacement": "*",
            },
            {"type": "append_header", "options": {"value": "masked", "location": "X-Masked"}},
        ],
    )


async def steady_layout(pilot: Any, body: Any) -> None:
    """Until the form's height and scroll hold for three frames: the step editors mount a
    moment after the form, and the scroll bar's place is part of the picture."""
    seen: list[tuple[float, int]] = []
    for _ in range(100):
        await pilot.pause()
        seen.append((body.scroll_y, body.virtual_size.height))
        if len(seen) >= 3 and len(set(seen[-3:])) == 1:
            return
    raise AssertionError(f"the form's layout never settled: {seen[-3:]}")


@pytest.mark.parametrize("size", LOOKS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_the_pipeline_editor(service, snap_compare, size):
    tenant = service.new_tenant("Snapshot tenant")
    app = FormHost(
        lambda c: ProxyForm(c, snapshot_proxy()), base_url=service.base_url, key=tenant.key
    )

    async def at_the_pipeline(pilot: Any) -> None:
        form = pilot.app.form
        await wait_until(pilot, lambda: form.is_mounted)
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        steps = pipeline(form, "response")
        steps.step_list.focus()
        await pilot.pause()
        body = form.query_one("#form-body")
        await steady_layout(pilot, body)
        body.scroll_to_widget(steps.parent, animate=False, top=True)
        await wait_until(pilot, lambda: body.scroll_y > 0, what="scrolled")
        await steady_layout(pilot, body)
        steady_cursors(pilot.app.screen)

    assert snap_compare(app, terminal_size=size, run_before=at_the_pipeline)


@pytest.mark.parametrize("size", LOOKS, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_a_pipeline_run(service, snap_compare, size, run_here):
    tenant = service.new_tenant("Snapshot tenant")
    proxy = with_pipelines(
        [{"type": "code", "code": FIRST}, TOKENIZE, {"type": "code", "code": THROWS}]
    )
    app = FormHost(lambda c: ProxyForm(c, proxy), base_url=service.base_url, key=tenant.key)

    async def ran(pilot: Any) -> None:
        await run_side(pilot, pilot.app, "request")
        steady_cursors(pilot.app.screen)

    assert snap_compare(app, terminal_size=size, run_before=ran)


async def test_a_read_only_form_shows_the_steps_and_changes_none(service, tenant):
    proxy = snapshot_proxy()
    app = FormHost(
        lambda c: ProxyForm(c, proxy, read_only=True),
        base_url=service.base_url,
        key=tenant.key,
        read_only=True,
    )
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        steps = pipeline(form, "response")
        assert steps.selected_editor.query_one(".step-expression", Input).disabled
        steps.step_list.focus()
        await pilot.press("n", "d", "shift+down")
        await pilot.pause()
        assert not isinstance(app.screen, KeyChoiceModal | ConfirmModal)
        assert [e.step_type for e in steps.editors] == ["mask", "append_header"]
        assert any("Read-only" in n for n in app.notes)
        code = pipeline(form).code_editor_at(0)
        assert code is not None and code.read_only


async def test_a_code_step_goes_full_screen_and_back(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c, snapshot_proxy()))
    async with app.run_test(size=(80, 24)) as pilot:
        editor = pipeline(app.form).code_editor_at(0)
        assert editor is not None
        await pilot.pause()
        editor.focus()
        await pilot.press("f11")
        await wait_until(pilot, lambda: editor.full_screen, what="full screen")
        await pilot.pause()
        assert editor.region.height >= 20
        await pilot.press("f11")
        await wait_until(pilot, lambda: not editor.full_screen, what="back")


@pytest.mark.parametrize("piped", [True, False], ids=["pipelines", "single-transforms"])
async def test_a_form_save_keeps_the_timeout_and_detokenization_it_does_not_show(
    service, tenant, client, piped
):
    """The form edits neither; the service reads a PUT without them as their defaults."""
    step = {"code": "module.exports = (req) => req;\n"}
    sides = {"request_transforms": [step, step]} if piped else {"request_transform": step}
    proxy = await client.proxies.create(
        {
            "name": "Slow edge",
            "destination_url": "https://api.example.com",
            "timeout": 12,
            "disable_detokenization": True,
            **sides,
        }
    )
    app = host(service, tenant, lambda c: ProxyForm(c, proxy))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        form.query_one("#name", Input).value = "Slow edge two"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed or form.banner_text, what="saved")
        assert app.dismissed, form.banner_text
    stored = await client.proxies.get(proxy.id)
    assert stored.name == "Slow edge two"
    assert (stored.timeout, stored.disable_detokenization) == (12, True)
    assert len(stored.request_transforms or []) == (2 if piped else 1)
