"""A proxy's detail shows its pipelines (issue 35): each side's steps, one line each (type and
what it does, as the form's step list says it), each code step's code titled with its side
and position; ctrl+r runs a side's steps in order, as the form does (the side chosen when
both have steps). A proxy from a spec-shaped service (single transforms only) shows as before
(tests/tui/test_console_hosted_shapes.py). Against the real local service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from console_support import SIZE, Seeder, make_app, open_first_detail
from form_host import screen_is, wait_until

from console.tui.modals.key_choice import KeyChoiceModal
from console.tui.screens.test_run import TestRunScreen

ACCRUE = (
    "module.exports = (req) => ({\n"
    "  body: { ...req.args.body, points: 2 },\n"
    "  headers: req.args.headers,\n"
    "});\n"
)
STAMP = (
    "// stamps the request\n"
    "module.exports = (req) => ({\n"
    "  body: req.args.body,\n"
    "  headers: { ...req.args.headers, 'x-stamp': req.configuration.PROGRAM },\n"
    "});\n"
)
RESPONSE_STEPS = [
    {"type": "code", "code": ACCRUE},
    {"type": "append_header", "options": {"location": "x-loyalty", "value": "accrued"}},
    {"type": "mask", "matcher": "regex", "expression": r'"member":\s*"(\w+)"', "replacement": "*"},
]


@pytest.fixture
def run_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Samples in a temp data dir; the embedded engine (the same on every machine)."""
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("TENANT_CONSOLE_JS_ENGINE", "embedded")
    monkeypatch.setattr("console.tui.screens.test_run.SHOW_TIMINGS", False)


def seeded(service: Any, **transforms: Any) -> Any:
    """A tenant holding one proxy with these transforms; its key."""
    tenant = service.new_tenant("Detail pipelines tenant")
    seeder = Seeder(service.base_url, tenant.key)
    try:
        seeder.proxy("Loyalty", configuration={"PROGRAM": "acme"}, **transforms)
    finally:
        seeder.close()
    return tenant


async def test_the_detail_lists_each_sides_steps_and_their_code(service: Any) -> None:
    tenant = seeded(
        service,
        request_transforms=[{"type": "code", "code": STAMP}],
        response_transforms=RESPONSE_STEPS,
    )
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_first_detail(pilot, "2")
        fields = detail.fields_view
        request = fields.value_of("Request transforms")
        assert request.split() == ["1", "code", "//", "stamps", "the", "request"]
        response = fields.value_of("Response transforms").splitlines()
        assert [line.split()[:2] for line in response] == [
            ["1", "code"],
            ["2", "append_header"],
            ["3", "mask"],
        ]
        assert response[0].endswith("module.exports = (req) => ({")
        assert response[1].endswith("x-loyalty: accrued")
        assert response[2].endswith('regex "member":\\s*"(\\w+)" → *')
        labels = [name for name, _ in fields.fields]
        assert "Request transform" not in labels and "Response transform" not in labels
        blocks = [c.block for c in detail.query("CodeView")]  # type: ignore[attr-defined]
        assert [(b.title, b.code) for b in blocks] == [
            ("Request transforms, step 1", STAMP),
            ("Response transforms, step 1", ACCRUE),
        ]


async def test_a_proxy_without_steps_says_none(service: Any) -> None:
    tenant = seeded(service)
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_first_detail(pilot, "2")
        assert detail.fields_view.value_of("Request transforms") == "none"
        assert detail.fields_view.value_of("Response transforms") == "none"
        assert not detail.query("CodeView")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen is detail  # nothing to run: a warning, no test-run


async def test_ctrl_r_asks_which_side_and_runs_its_steps_in_order(
    service: Any, run_here: None
) -> None:
    tenant = seeded(
        service,
        request_transforms=[{"type": "code", "code": STAMP}],
        response_transforms=RESPONSE_STEPS,
    )
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await open_first_detail(pilot, "2")
        await pilot.press("ctrl+r")
        await wait_until(pilot, screen_is(app, KeyChoiceModal), what="the choice of side")
        choice = app.screen
        assert isinstance(choice, KeyChoiceModal)
        assert choice.choices == [
            ("request", "Request transforms: 1 step"),
            ("response", "Response transforms: 3 steps"),
        ]
        await pilot.press("down", "enter")
        await wait_until(pilot, screen_is(app, TestRunScreen), what="the test-run screen")
        screen = app.screen
        assert isinstance(screen, TestRunScreen)
        target = screen.target
        assert target.title == 'Test-run of the response transforms of the proxy "Loyalty"'
        assert target.steps is not None and [s.get("type", "code") for s in target.steps()] == [
            "code",
            "append_header",
            "mask",
        ]
        assert target.sample_key.endswith("-response_transforms")
        assert target.editor is None
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.pipeline_run is not None, what="the result")
        run = screen.pipeline_run
        assert run is not None
        assert [s.status for s in run.steps] == ["ok", "ok", "ok"], run.message
        assert run.final["args"]["body"]["points"] == 2
        assert run.final["args"]["headers"]["x-loyalty"] == "accrued"


async def test_ctrl_r_runs_the_only_side_with_steps_at_once(service: Any, run_here: None) -> None:
    tenant = seeded(service, request_transforms=[{"type": "code", "code": STAMP}])
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await open_first_detail(pilot, "2")
        await pilot.press("ctrl+r")
        await wait_until(pilot, screen_is(app, TestRunScreen), what="the test-run screen")
        screen = app.screen
        assert isinstance(screen, TestRunScreen)
        assert screen.target.sample_key.endswith("-request_transforms")
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: screen.pipeline_run is not None, what="the result")
        run = screen.pipeline_run
        assert run is not None and [s.status for s in run.steps] == ["ok"], run.message
        assert run.final["args"]["headers"]["x-stamp"] == "acme"
