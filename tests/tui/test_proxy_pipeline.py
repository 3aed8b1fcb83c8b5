"""The proxy form's transform pipelines (issue 35): steps added, removed after a confirmation,
moved, each type edited with its own fields, errors at the step with their path, saved to
the local service and read back; a proxy from a service with only the single transforms is
edited as before; ctrl+r runs the selected side's steps in order."""

from __future__ import annotations

from typing import Any

import pytest
from form_host import SIZE, FormHost, wait_until
from textual.widgets import Input, Select, TextArea

from console.client import AdminClient
from console.models import Proxy
from console.tui.forms import ProxyForm
from console.tui.forms.pipeline import PipelineEditor, StepEditor
from console.tui.forms.proxy import ApplicationPicker
from console.tui.modals.confirm import ConfirmModal
from console.tui.modals.key_choice import KeyChoiceModal
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
        steps = pipeline(form)
        assert steps.editors == []
        await add_step(pilot, form, "code")
        await add_step(pilot, form, "append_header")
        await add_step(pilot, form, "mask")
        assert [e.step_type for e in steps.editors] == ["code", "append_header", "mask"]
        assert form.dirty
        # shift+up moves the selected step (the mask) up; its fields' paths follow.
        steps.step_list.focus()
        await pilot.press("shift+up")
        assert [e.step_type for e in steps.editors] == ["code", "mask", "append_header"]
        assert steps.selected == 1
        paths = {f.path for f in steps.editors[1].query("FormField")}
        assert "request_transforms[1].expression" in paths
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
        header = await add_step(pilot, form, "append_header")
        header.query_one(".step-value", Input).value = "Bearer abc"
        header.query_one(".step-location", Input).value = "Authorization"
        json_step = await add_step(pilot, form, "append_json")
        json_step.query_one(".step-value", Input).value = "v1"
        json_step.query_one(".step-location", Input).value = "$.meta.version"
        text = await add_step(pilot, form, "append_text")
        text.query_one(".step-value", Input).value = "\n-- end"
        mask = await add_step(pilot, form, "mask", side="response")
        mask.query_one(".step-expression", Input).value = r'"pan":\s*"(\d+)"'
        mask.query_one(".step-replacement", Input).value = "#"
        await pilot.pause()
        request, errors = pipeline(form).steps_payload()
        assert errors == {}
        assert request == [
            {"type": "code", "code": "module.exports = (req) => req.args;\n"},
            {
                "type": "tokenize",
                "options": {"token": {"type": "card_number", "data": "x"}, "identifier": "card"},
            },
            {
                "type": "append_header",
                "options": {"value": "Bearer abc", "location": "Authorization"},
            },
            {"type": "append_json", "options": {"value": "v1", "location": "$.meta.version"}},
            {"type": "append_text", "options": {"value": "\n-- end"}},
        ]
        assert pipeline(form, "response").steps_payload()[0] == [
            {"type": "mask", "matcher": "regex", "expression": r'"pan":\s*"(\d+)"', "replacement": "#"}
        ]
        rows = [str(o.prompt) for o in pipeline(form).step_list._options]
        assert rows[0].endswith("module.exports = (req) => req.args;")
        assert "card ← a card_number token" in rows[1]
        assert "Authorization: Bearer abc" in rows[2]
        assert '$.meta.version = "v1"' in rows[3]
        assert '+ "\\n-- end"' in rows[4]
        # chase_stratus_pan needs no expression.
        mask.query_one(".step-matcher", Select).value = "chase_stratus_pan"
        mask.query_one(".step-expression", Input).value = ""
        await pilot.pause()
        assert pipeline(form, "response").steps_payload()[0] == [
            {"type": "mask", "matcher": "chase_stratus_pan", "replacement": "#"}
        ]


async def test_a_steps_errors_are_shown_at_its_fields_with_their_paths(service, tenant):
    app = host(service, tenant, lambda c: ProxyForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        form.query_one("#name", Input).value = "Checked"
        form.query_one("#destination-url", Input).value = "https://api.example.com/v1"
        code = await add_step(pilot, form, "code")
        code.code_editor.text = "module.exports = (req) => req.args;\n"
        mask = await add_step(pilot, form, "mask")
        mask.query_one(".step-replacement", Input).value = "##"
        token = await add_step(pilot, form, "tokenize")
        token.query_one(".step-token", TextArea).text = "{not json"
        pipeline(form).select(0)  # the first step is shown: the error selects the faulty one
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.banner_text != "", what="the errors")
        assert not app.dismissed
        fields = form.fields_by_path()
        assert "A regex mask needs an expression." in fields["request_transforms[1].expression"].errors
        assert "one character" in fields["request_transforms[1].replacement"].errors
        assert "not JSON" in fields["request_transforms[2].options.token"].errors
        assert pipeline(form).selected == 1
        rows = [str(o.prompt) for o in pipeline(form).step_list._options]
        assert rows[0].startswith("  ")
        assert rows[1].startswith("✗") and "request_transforms[1].expression" in rows[1]
        assert rows[2].startswith("✗") and "request_transforms[2].options.token" in rows[2]
        # Mended, the mark goes; moved, the step's error paths follow it.
        mask.query_one(".step-expression", Input).value = r"(\d+)"
        mask.query_one(".step-replacement", Input).value = "*"
        await pilot.pause()
        rows = [str(o.prompt) for o in pipeline(form).step_list._options]
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
        header = await add_step(pilot, form, "append_header")
        header.query_one(".step-value", Input).value = "abc"
        header.query_one(".step-location", Input).value = "X-Key"
        mask = await add_step(pilot, form, "mask", side="response")
        mask.query_one(".step-expression", Input).value = r"(\d{12})\d{4}"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed or form.banner_text, what="saved")
        assert app.dismissed, form.banner_text
    stored = await client.proxies.get(app.result.id)
    assert [t.type for t in stored.request_transforms or []] == ["code", "append_header"]
    assert [t.type for t in stored.response_transforms or []] == ["mask"]
    assert stored.response_transform is not None and stored.response_transform.type == "mask"

    app = host(service, tenant, lambda c: ProxyForm(c, stored))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(ApplicationPicker).loaded)
        steps = pipeline(form)
        assert [e.step_type for e in steps.editors] == ["code", "append_header"]
        await pilot.pause()
        assert not form.dirty
        steps.select(1)
        steps.step_list.focus()
        await pilot.press("shift+up")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed or form.banner_text, what="saved")
        assert app.dismissed, form.banner_text
    again = await client.proxies.get(stored.id)
    assert [t.type for t in again.request_transforms or []] == ["append_header", "code"]
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


async def test_a_new_proxy_with_one_step_a_side_is_sent_as_the_single_transforms(
    service, tenant
):
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
        assert payload == {**payload, **{"request_transforms": [future, payload["request_transforms"][1]]}}
        assert not form.dirty
