"""The console's Reactors against the real local service: the form (create, edit, the runtime
checked as the request model checks it, the wait for `active` after a save, a failed
provisioning said plainly), the list and detail, ctrl+r, React (sync and async), read-only
mode and the key's permission, and undo of a change."""

from __future__ import annotations

from typing import Any

import pytest
from form_host import SIZE, FormHost, screen_is, wait_until
from textual.widgets import Input, Select, Static, TextArea

from console.client import AdminClient
from console.tui.forms import ReactorForm
from console.tui.forms.reactor import SecretValuesEditor, parse_dependencies

CODE = "module.exports = async function (req) {\n  return { raw: req.args };\n};\n"


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Reactors tenant")


@pytest.fixture
async def client(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


def host(service: Any, tenant: Any, make: Any, **kwargs: Any) -> FormHost:
    return FormHost(make, base_url=service.base_url, key=tenant.key, **kwargs)


async def save_and_wait(pilot: Any, app: FormHost) -> None:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: app.dismissed or not app.form.saving, what="save")


def field(form: Any, path: str) -> Any:
    return form.fields_by_path()[path]


# ----- the form ---------------------------------------------------------------------------


def test_dependencies_are_name_version_lines():
    assert parse_dependencies("lodash=^4.17.21\n\n@scope/pkg@1.0.0\n") == (
        {"lodash": "^4.17.21", "@scope/pkg": "1.0.0"},
        [],
    )
    found, problems = parse_dependencies("lodash\nx=1\nx=2")
    assert found == {"x": "2"}
    assert problems == [
        "Line 1: write name=version (e.g. lodash=^4.17.21).",
        "Line 3: x is given twice.",
    ]


async def test_a_new_reactor_is_saved_and_waited_for_until_active(service, tenant, client):
    app = host(service, tenant, lambda c: ReactorForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        form.query_one("#name", Input).value = "Lookup"
        form.query_one("#image", Select).value = "node22"
        form.query_one("#timeout", Input).value = "5"
        editor = form.query_one(SecretValuesEditor)
        await editor.add_row(("API_KEY", "sk-secret-123456789"))
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: form.provisioning or app.dismissed, what="provisioning")
        await wait_until(pilot, lambda: app.dismissed, what="active")
        assert any("is active" in n for n in app.notes), app.notes
    saved = app.result
    assert saved is not None and saved.state == "active"
    stored = await client.reactors.get(saved.id)
    assert stored.state == "active"
    assert stored.runtime is not None
    assert (stored.runtime.image, stored.runtime.timeout) == ("node22", 5)
    assert stored.configuration == {"API_KEY": "sk-secret-123456789"}


async def test_the_runtime_is_checked_as_the_request_is_with_the_bad_fields_path(service, tenant):
    app = host(service, tenant, lambda c: ReactorForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        form.query_one("#name", Input).value = "Bad runtime"
        form.query_one("#timeout", Input).value = "99"
        form.query_one("#warm-concurrency", Input).value = "many"
        form.query_one("#dependencies", TextArea).load_text("Not A Name=1\nlodash")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not app.dismissed
        assert field(form, "runtime.timeout").invalid
        assert field(form, "runtime.warm_concurrency").invalid
        assert field(form, "runtime.dependencies").invalid
        tabs = form.query_one("#reactor-parts")
        assert tabs.active == "part-runtime"  # the first problem's tab is brought into sight


async def test_a_failed_provisioning_is_said_plainly_and_the_form_stays_to_fix_it(
    service, tenant, client
):
    app = host(service, tenant, lambda c: ReactorForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        form.query_one("#name", Input).value = "Needs packages"
        form.query_one("#image", Select).value = "node22"
        form.query_one("#dependencies", TextArea).load_text("left-pad=1.3.0")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: "dependencies_unavailable" in form.banner_text)
        assert not app.dismissed
        assert form.obj is not None and form.obj.state == "failed"
        assert "left-pad" in form.banner_text
        assert "Saved, but" in form.banner_text
        # Fixed and saved again: an update of the same reactor, provisioned, then closed.
        form.query_one("#dependencies", TextArea).load_text("")
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed, what="active after the fix")
    reactors = (await client.reactors.list()).data
    assert [(r.name, r.state) for r in reactors] == [("Needs packages", "active")]


# ----- the list and the detail ------------------------------------------------------------


async def _seed(client: AdminClient) -> tuple[Any, Any]:
    """An active reactor with a secret configuration, and one whose provisioning failed."""
    application = await client.applications.create(
        {"name": "Reactor app", "type": "private", "permissions": ["token:read"]}
    )
    active = await client.reactors.create(
        {
            "name": "Card lookup",
            "code": CODE,
            "application": {"id": str(application.id)},
            "configuration": {"API_KEY": "sk-live-abcdefghijklmnop"},
            "runtime": {"image": "node22", "timeout": 5, "permissions": ["token:read"]},
        }
    )
    failed = await client.reactors.create(
        {
            "name": "Needs packages",
            "code": CODE,
            "runtime": {"image": "node22", "dependencies": {"left-pad": "1.3.0"}},
        }
    )
    return active, failed


async def test_the_section_lists_reactors_with_their_state_and_the_detail_masks_secrets(
    service, tenant, client
):
    from console_support import console, make_app, resource_list, settle

    from console.tui.screens.detail import DetailScreen
    from console.tui.widgets.fields_view import FieldsView

    active, _failed = await _seed(client)
    await wait_until_provisioned(client, active.id)
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=(160, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert console(app).current == "reactors"
        listing = resource_list(app, "reactors")
        await wait_until(pilot, lambda: len(listing.items) == 2)
        states = {r["name"]: r["state"] for r in listing.items}
        assert states == {"Card lookup": "active", "Needs packages": "failed"}
        # The failed one: its provisioning error, plainly.
        listing.table.move_cursor(row=row_of(listing, "Needs packages"))
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        fields = app.screen.query_one(FieldsView)
        assert "dependencies_unavailable" in fields.value_of("Provisioning")
        assert "left-pad" in fields.value_of("Dependencies")
        await pilot.press("escape")
        await settle(pilot)
        listing.table.move_cursor(row=row_of(listing, "Card lookup"))
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        fields = app.screen.query_one(FieldsView)
        assert fields.value_of("Image") == "node22"
        assert fields.value_of("Timeout") == "5 s"
        assert fields.value_of("Permissions") == "token:read"
        assert fields.value_of("Application").startswith("Reactor app")
        shown = fields.value_of("Configuration")
        assert "API_KEY" in shown and "abcdefgh" not in shown
        await pilot.press("v")  # the raw JSON masks the configuration too
        await settle(pilot)
        raw = str(app.screen.query_one("#detail-json", Static).render())
        assert "sk-live-abcdefghijklmnop" not in raw


async def wait_until_provisioned(client: AdminClient, reactor_id: Any) -> None:
    import asyncio
    import time

    deadline = time.monotonic() + 15
    while (await client.reactors.get(reactor_id)).provisioning:
        assert time.monotonic() < deadline, "never provisioned"
        await asyncio.sleep(0.05)


def row_of(listing: Any, name: str) -> int:
    return next(i for i, r in enumerate(listing.shown_items) if r["name"] == name)
