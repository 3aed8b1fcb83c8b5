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


# ----- React ------------------------------------------------------------------------------

ECHO = (
    "module.exports = async function (req) {\n"
    "  return { raw: { got: req.args, region: req.configuration.REGION } };\n"
    "};\n"
)


async def _echo_reactor(client: AdminClient, **runtime: Any) -> Any:
    reactor = await client.reactors.create(
        {
            "name": "Echo",
            "code": ECHO,
            "configuration": {"REGION": "eu"},
            "runtime": {"image": "node-bt", **runtime},
        }
    )
    await wait_until_provisioned(client, reactor.id)
    return await client.reactors.get(reactor.id)


def _react_host(service: Any, key: str, reactor: Any, **kwargs: Any) -> FormHost:
    from console.tui.forms.run_targets import react_target
    from console.tui.screens.react import ReactScreen

    return FormHost(
        lambda c: ReactScreen(react_target(reactor)), base_url=service.base_url, key=key, **kwargs
    )


def _service_text(screen: Any) -> str:
    """The service pane's text, as a terminal shows it."""
    import io

    from rich.console import Console

    console = Console(width=200, record=True, file=io.StringIO())
    console.print(screen.service_shown)
    return console.export_text()


@pytest.mark.parametrize("use_async", [False, True], ids=["sync", "async"])
async def test_react_shows_the_services_answer_beside_the_local_run(
    service, tenant, client, use_async
):
    from console.runner.samples import load_sample
    from console.tui.widgets.toggles import TextSwitch

    reactor = await _echo_reactor(client)
    app = _react_host(service, tenant.key, reactor)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.form
        await pilot.pause()
        screen.query_one("#react-request", TextArea).load_text('{"args": {"card": "4242"}}')
        screen.query_one("#react-async", TextSwitch).value = use_async
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: screen.answer is not None and screen.local is not None)
        await wait_until(pilot, lambda: not screen.sending)
        service_text = _service_text(screen)
        assert '"got"' in service_text and '"4242"' in service_text and '"eu"' in service_text
        assert ("completed (async request" in service_text) is use_async
        assert screen.local.ok, screen.local.message
        assert screen.local.value == {"raw": {"got": {"card": "4242"}, "region": "eu"}}
    # The request is kept for the next React of this reactor.
    assert "4242" in (load_sample(f"react-{reactor.id}") or "")


async def test_react_shows_the_codes_error_as_the_service_answered_it(service, tenant, client):
    reactor = await client.reactors.create(
        {
            "name": "Thrower",
            "code": "module.exports = async () => { throw new Error('card declined'); };\n",
            "runtime": {"image": "node-bt"},
        }
    )
    await wait_until_provisioned(client, reactor.id)
    reactor = await client.reactors.get(reactor.id)
    app = _react_host(service, tenant.key, reactor)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.form
        await pilot.pause()
        await pilot.press("ctrl+l")
        await wait_until(pilot, lambda: screen.answer is not None and not screen.sending)
        assert getattr(screen.answer, "status", None) == 500
        shown = _service_text(screen)
        assert "Reactor Runtime Error" in shown and "card declined" in shown
        await wait_until(pilot, lambda: screen.local is not None)
        assert not screen.local.ok and "card declined" in screen.local.message


async def test_react_is_a_declared_action_read_only_mode_allows_with_invoke(service, client):
    from console.tui.actions.declarations import REACT, Target, offered, run
    from console.tui.browse.kinds import REACTORS

    reactor = await _echo_reactor(client)
    runner = service.new_key(["reactor:read", "reactor:invoke", "application:read"])
    reader = service.new_key(["reactor:read", "application:read"])
    opened: list[Any] = []

    class Host(FormHost):
        def open_react(self, target: Any) -> None:
            opened.append(target)

    for key, read_only, expected in (
        (runner, True, True),  # read-only mode lets React run with reactor:invoke
        (reader, True, False),  # ... and only with it
        (reader, False, False),  # outside read-only mode, the key's lack says why
    ):
        app = Host(base_url=service.base_url, key=key, read_only=read_only)
        async with app.run_test(size=SIZE):
            target = Target(REACTORS, reactor)
            assert offered(REACT, app, target) is not False
            result = await app.run_worker(run(REACT, app, target)).wait()
        assert (result is not None) is expected, (read_only, app.notes)
        if not expected:
            assert any("reactor:invoke" in n for n in app.notes), app.notes
    assert [t.reactor_id for t in opened] == [str(reactor.id)]
    assert opened[0].configuration == {"REGION": "eu"}


# ----- through the console: save and undo ---------------------------------------------------


async def test_a_reactor_edited_in_the_console_is_recorded_and_undone_from_history(
    service, tenant, client, tmp_path, monkeypatch
):
    from console_support import make_app, resource_list, settle

    from console.journal.store import open_journal
    from console.tui.screens.console import ConsoleScreen
    from console.tui.screens.history import HistoryScreen, UndoDialog

    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    journal = open_journal()
    reactor = await _echo_reactor(client, timeout=5)
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        listing = resource_list(app, "reactors")
        await wait_until(pilot, lambda: len(listing.items) == 1)
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, ReactorForm), what="the form")
        form = app.screen
        form.query_one("#name", Input).value = "Echo two"
        form.query_one("#timeout", Input).value = "9"
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, ConsoleScreen), what="saved and provisioned")
        changed = await client.reactors.get(reactor.id)
        assert changed.name == "Echo two" and changed.state == "active"
        assert changed.runtime is not None and changed.runtime.timeout == 9
        (edit,) = journal.list()
        assert (edit.action, edit.kind) == ("update", "reactors")
        await pilot.press("H")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history")
        await pilot.press("u")
        await wait_until(pilot, screen_is(app, UndoDialog), what="the undo dialog")
        await pilot.press("y")
        await wait_until(pilot, screen_is(app, HistoryScreen), what="history again")
        await wait_until(
            pilot,
            lambda: [c.outcome for c in journal.list()][:1] == ["ok"] and len(journal.list()) == 2,
            what="the undo recorded and answered",
        )
    await wait_until_provisioned(client, reactor.id)
    back = await client.reactors.get(reactor.id)
    assert back.name == "Echo"
    assert back.runtime is not None and back.runtime.timeout == 5
    assert back.configuration == {"REGION": "eu"}


# ----- a service with reactors only --------------------------------------------------------


async def test_a_service_with_reactors_only_reads_as_a_tenant_like_any_other() -> None:
    """The hosted service today: no reactor formulas. The console finds it out once (the
    client's code surfaces), strikes the section through and says so plainly there; the
    Reactors section, its detail and React work as on any service."""
    from console_support import console, resource_list, settle
    from hosted_service import KEY, HostedService

    from console.tui.app import TenantConsoleApp
    from console.tui.base.connection import Connection
    from console.tui.screens.detail import DetailScreen
    from console.tui.widgets.fields_view import FieldsView

    with HostedService.running(retired={("GET", "/reactor-formulas")}) as hosted:
        app = TenantConsoleApp(connection=Connection("hosted", hosted.base_url, KEY))
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await wait_until(pilot, lambda: "reactor_formulas" in app.unavailable)
            assert "reactors" not in app.unavailable
            assert "reactor_formulas" in console(app).header.unavailable
            await pilot.press("4")
            await settle(pilot)
            reactors = resource_list(app, "reactors")
            assert [r["name"] for r in reactors.items] == ["Card enrichment"]
            await pilot.press("enter")
            await wait_until(pilot, screen_is(app, DetailScreen))
            await settle(pilot)
            fields = app.screen.query_one(FieldsView)
            assert fields.value_of("Application").startswith("Reactor runner")
            assert "partner-secret" not in fields.value_of("Configuration")
            await pilot.press("escape")
            await settle(pilot)
            await pilot.press("3")
            await settle(pilot)
            formulas = resource_list(app, "reactor_formulas")
            assert formulas.problem is not None and formulas.problem.not_offered
            assert "does not offer reactor formulas" in formulas.problem.message


async def test_a_reactor_being_provisioned_is_followed_on_its_detail_until_active(start_service):
    """The detail reads a reactor in `creating` again each second, showing it meanwhile."""
    from console_support import make_app, settle

    from console.tui.screens.detail import DetailScreen
    from console.tui.widgets.fields_view import FieldsView

    slow = start_service(provision_delay=6)
    tenant = slow.new_tenant("Slow provisioning")
    async with AdminClient(slow.base_url, tenant.key) as client:
        created = await client.reactors.create(
            {"name": "Slow", "code": CODE, "runtime": {"image": "node-bt"}}
        )
    assert created.state == "creating"
    app = make_app(slow.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        fields = app.screen.query_one(FieldsView)
        await wait_until(pilot, lambda: bool(fields.fields))
        assert "creating" in fields.value_of("State")
        await wait_until(pilot, lambda: fields.value_of("State") == "active", timeout=15)


async def test_a_form_save_keeps_the_runtime_options_the_form_does_not_show(
    service, tenant, client
):
    """`logs`, `resolutions` and `async` have no field: a save sends them back as read."""
    reactor = await _echo_reactor(
        client, logs={"level": "debug"}, resolutions={"lodash": "4.17.21"}, **{"async": True}
    )
    app = host(service, tenant, lambda c: ReactorForm(c, reactor))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        form.query_one("#name", Input).value = "Echo kept"
        await save_and_wait(pilot, app)
        await wait_until(pilot, lambda: app.dismissed, what="saved and active")
    await wait_until_provisioned(client, reactor.id)
    stored = await client.reactors.get(reactor.id)
    assert stored.name == "Echo kept" and stored.runtime is not None
    held = stored.runtime.model_dump(by_alias=True, exclude_none=True)
    assert held["logs"] == {"level": "debug"}
    assert held["resolutions"] == {"lodash": "4.17.21"} and held["async"] is True
