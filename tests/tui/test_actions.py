"""The flows that change things: delete with confirmation, regenerate a key (the session's own
included), and read-only mode refusing every one of them. Against the real local service.

The last tests go end to end through the real console: n, e, d and R from the lists, the
detail and the Tenant section, the list refreshed after each change, read-only refusing them."""

from __future__ import annotations

from typing import Any

import keyring
import pytest
from console_support import console, make_app, notifications, resource_list, settle
from form_host import SIZE, FormHost, screen_is, wait_until
from keyring.backend import KeyringBackend
from keyring.backends import fail
from textual.widgets import Input, Static

from console.client import AdminClient, NotFound, Unauthorized
from console.tui.actions.declarations import DELETE, EDIT, NEW, REGENERATE_KEY, Target, run
from console.tui.actions.flows import delete_object, open_form, regenerate_key
from console.tui.base.connection import Connection
from console.tui.browse.kinds import APPLICATIONS, PROXIES, REACTOR_FORMULAS, TENANT
from console.tui.forms import ApplicationForm, ProxyForm, TenantForm
from console.tui.forms.permissions import PermissionChecklist
from console.tui.modals import (
    MASK,
    ConfirmModal,
    KeyRevealModal,
    RegenerateConfirm,
    TypeToConfirmModal,
)
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.detail import DetailScreen


class MemoryKeyring(KeyringBackend):
    """Keys in a dict: never the user's keyring."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.keys: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.keys.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.keys[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        self.keys.pop((service, username), None)


@pytest.fixture
def memory_keyring() -> Any:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Actions tenant")


@pytest.fixture
async def client(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


def host(service: Any, tenant: Any, **kwargs: Any) -> FormHost:
    return FormHost(base_url=service.base_url, key=tenant.key, **kwargs)


KINDS = {"application": APPLICATIONS, "proxy": PROXIES, "reactor_formula": REACTOR_FORMULAS}


@pytest.mark.parametrize("kind", ["application", "proxy", "reactor_formula"])
async def test_delete_asks_then_deletes(service, tenant, client, kind):
    resource = {
        "application": client.applications,
        "proxy": client.proxies,
        "reactor_formula": client.reactor_formulas,
    }[kind]
    payload = {
        "application": {"name": "Doomed", "type": "private", "permissions": ["token:read"]},
        "proxy": {"name": "Doomed", "destination_url": "https://x.example.com"},
        "reactor_formula": {"name": "Doomed", "type": "private", "code": "module.exports=()=>1"},
    }[kind]
    obj = await resource.create(payload)
    app = host(service, tenant)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, KINDS[kind], obj))
        await wait_until(pilot, screen_is(app, ConfirmModal))
        assert '"Doomed"' in app.screen.title_text
        if kind == "application":
            assert "API key stops working at once" in app.screen.body_text
        await pilot.click("#confirm")
        assert await worker.wait() is True
    with pytest.raises(NotFound):
        await resource.get(obj.id)


async def regenerate_through_dialogs(pilot: Any, app: Any, application: Any) -> tuple[str, Any]:
    """Runs the regenerate flow: confirms it (typing the name where it must be typed: the
    console's own key) and closes the key reveal.

    Returns the confirmation's text and warning, and the flow's result."""
    worker = app.run_worker(regenerate_key(app, application))
    await wait_until(pilot, lambda: isinstance(app.screen, RegenerateConfirm | TypeToConfirmModal))
    await wait_until(pilot, screen_is(app, type(app.screen)))
    warning = f"{app.screen.body_text} {app.screen.warning_text or ''}"
    if isinstance(app.screen, TypeToConfirmModal):
        app.screen.query_one("#typed", Input).value = application.name
        await pilot.pause()
    await pilot.click("#confirm")
    await wait_until(pilot, screen_is(app, KeyRevealModal))
    await pilot.click("#stored")  # the key may close only once it is safe
    await pilot.click("#done")
    return warning, await worker.wait()


async def test_delete_cancelled_keeps_the_object(service, tenant, client):
    proxy = await client.proxies.create(
        {"name": "Kept", "destination_url": "https://k.example.com"}
    )
    app = host(service, tenant)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, PROXIES, proxy))
        await wait_until(pilot, screen_is(app, ConfirmModal))
        assert app.screen.focused.id == "cancel"  # the safe answer has the focus
        await pilot.press("enter")
        assert await worker.wait() is False
    assert (await client.proxies.get(proxy.id)).name == "Kept"


async def test_delete_tenant_needs_its_name_typed(service):
    tenant = service.new_tenant("Tenant to delete")
    app = host(service, tenant)
    async with app.run_test(size=SIZE) as pilot:
        current = await app.client.tenant.get()
        worker = app.run_worker(delete_object(app, TENANT, current))
        await wait_until(pilot, screen_is(app, TypeToConfirmModal))
        modal = app.screen
        await pilot.press(*"Tenant to")
        await pilot.pause()
        assert modal.query_one("#confirm").disabled
        await pilot.press("enter")  # not the name yet: nothing happens
        assert app.screen is modal
        await pilot.press(*" delete")
        await pilot.pause()
        assert not modal.query_one("#confirm").disabled
        await pilot.press("enter")
        assert await worker.wait() is True
    async with AdminClient(service.base_url, tenant.key) as old:
        with pytest.raises(Unauthorized):
            await old.tenant.get()


async def test_regenerate_another_application_shows_the_new_key_once(service, tenant, client):
    other = await client.applications.create(
        {"name": "Worker", "type": "private", "permissions": ["token:read"]}
    )
    app = host(service, tenant)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(regenerate_key(app, other))
        await wait_until(pilot, screen_is(app, RegenerateConfirm))
        assert "stops working at once" in app.screen.body_text
        assert app.screen.warning_text is None  # not the console's own key
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        reveal = app.screen
        key_widget = reveal.query_one("#key", Static)
        assert str(key_widget.content) == MASK
        await pilot.press("v")
        new_key = str(key_widget.content)
        assert new_key != MASK and len(new_key) > 20
        await pilot.press("y")
        assert app.clipboard == new_key
        await pilot.press("v")
        assert str(key_widget.content) == MASK
        await pilot.click("#done")
        result = await worker.wait()
    assert result.key == new_key
    async with AdminClient(service.base_url, new_key) as fresh:
        assert await fresh.permissions.list()  # the new key is accepted


async def test_regenerating_the_sessions_own_key_keeps_the_session_working(service, memory_keyring):
    tenant = service.new_tenant("Own key tenant")
    connection = Connection("work", service.base_url, tenant.key, "keyring")
    app = host(service, tenant, connection=connection)
    async with app.run_test(size=SIZE) as pilot:
        own = await app.client.applications.current()
        warning, result = await regenerate_through_dialogs(pilot, app, own)
        assert "the key this console uses" in warning
        # The live client switched: the session keeps working.
        assert (await app.client.tenant.get()).name == "Own key tenant"
        assert app.connection.key == result.key
        assert any("stored for profile work" in n for n in app.notes)
    assert memory_keyring.keys[("tenant-console", "work")] == result.key
    async with AdminClient(service.base_url, tenant.key) as old:
        with pytest.raises(Unauthorized):
            await old.tenant.get()


async def test_own_key_regenerated_without_a_keyring_says_what_to_do(service):
    tenant = service.new_tenant("No keyring tenant")
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        connection = Connection("work", service.base_url, tenant.key, "keyring")
        app = host(service, tenant, connection=connection)
        async with app.run_test(size=SIZE) as pilot:
            own = await app.client.applications.current()
            await regenerate_through_dialogs(pilot, app, own)
            assert (await app.client.tenant.get()).name == "No keyring tenant"
            advice = [n for n in app.notes if "could not be stored" in n]
            assert advice and "TENANT_CONSOLE_API_KEY" in advice[0]
            assert "tenant-console profile add work" in advice[0]
    finally:
        keyring.set_keyring(previous)


async def test_own_key_in_demo_mode_is_swapped_in_memory(service):
    tenant = service.new_tenant("Demo tenant")
    connection = Connection(None, service.base_url, tenant.key, "memory")
    app = host(service, tenant, connection=connection)
    async with app.run_test(size=SIZE) as pilot:
        own = await app.client.applications.current()
        await regenerate_through_dialogs(pilot, app, own)
        assert (await app.client.tenant.get()).name == "Demo tenant"
        assert any("held in memory" in n for n in app.notes)


async def test_read_only_mode_refuses_every_change(service, tenant, client):
    proxy = await client.proxies.create(
        {"name": "Safe", "destination_url": "https://s.example.com"}
    )
    application = await client.applications.current()
    app = host(service, tenant, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        assert await app.run_worker(run(DELETE, app, Target(PROXIES, proxy))).wait() is None
        regenerate = run(REGENERATE_KEY, app, Target(APPLICATIONS, application))
        assert await app.run_worker(regenerate).wait() is None
        assert await app.run_worker(run(NEW, app, Target(PROXIES))).wait() is None
        assert await app.run_worker(run(EDIT, app, Target(PROXIES, proxy))).wait() is None
        current = await app.client.tenant.get()
        assert await app.run_worker(run(DELETE, app, Target(TENANT, current))).wait() is None
        await pilot.pause()
        assert app.screen_stack[-1].query("#host")  # no dialog was ever shown
        refusals = [n for n in app.notes if n.startswith("Read-only mode:")]
        assert len(refusals) == 5
        assert "refused" in refusals[0]
    assert (await client.proxies.get(proxy.id)).name == "Safe"
    assert (await client.tenant.get()).name == "Actions tenant"


async def test_open_form_returns_the_saved_object(service, tenant, client):
    app = host(service, tenant)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(open_form(app, PROXIES))
        await wait_until(pilot, screen_is(app, ProxyForm))
        form = app.screen
        form.query_one("#name", Input).value = "Via flow"
        form.query_one("#destination-url", Input).value = "https://flow.example.com"
        await pilot.press("ctrl+s")
        saved = await worker.wait()
    assert saved is not None and saved.name == "Via flow"
    assert (await client.proxies.get(saved.id)).destination_url == "https://flow.example.com"


async def test_official_formulas_cannot_be_deleted(service, tenant, client):
    page = await client.reactor_formulas.list(size=100)
    official = next(f for f in page.data if f.type == "official")
    app = host(service, tenant)
    async with app.run_test(size=SIZE):
        deleting = run(DELETE, app, Target(REACTOR_FORMULAS, official))
        assert await app.run_worker(deleting).wait() is None
        assert any("Official formulas" in n for n in app.notes)
    assert (await client.reactor_formulas.get(official.id)).type == "official"


# ----- end to end through the console -----


def names(app: Any, key: str) -> list[str]:
    return [item["name"] for item in resource_list(app, key).items]


async def back_on_console(pilot: Any, app: Any) -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, ConsoleScreen), what="console")
    await settle(pilot)


async def test_create_edit_delete_a_proxy_from_its_list(service, tenant, client):
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        assert names(app, "proxies") == []

        await pilot.press("n")
        await wait_until(pilot, screen_is(app, ProxyForm), what="proxy form")
        form = app.screen
        await pilot.click("#name")
        await pilot.press(*"Card intake")
        form.query_one("#destination-url", Input).value = "https://cards.example.com"
        await pilot.press("ctrl+s")
        await back_on_console(pilot, app)
        assert names(app, "proxies") == ["Card intake"]  # the list was reloaded

        await pilot.press("e")
        await wait_until(pilot, screen_is(app, ProxyForm))
        form = app.screen
        assert form.query_one("#name", Input).value == "Card intake"
        form.query_one("#name", Input).value = "Card intake v2"
        await pilot.press("ctrl+s")
        await back_on_console(pilot, app)
        assert names(app, "proxies") == ["Card intake v2"]

        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        assert "Card intake v2" in app.screen.title_text
        await pilot.click("#confirm")
        await back_on_console(pilot, app)
        assert names(app, "proxies") == []
    assert (await client.proxies.list()).pagination.total_items == 0


async def test_new_application_key_is_revealed_then_listed_and_regenerated_from_detail(
    service, tenant, client
):
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("n")
        await wait_until(pilot, screen_is(app, ApplicationForm))
        form = app.screen
        await wait_until(pilot, lambda: form.query_one("#permissions", PermissionChecklist).loaded)
        form.query_one("#name", Input).value = "Checkout backend"
        form.query_one("#permissions", PermissionChecklist).selection_list.select("token:create")
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        await back_on_console(pilot, app)
        assert names(app, "applications") == ["Bootstrap management", "Checkout backend"]

        await pilot.press("down", "enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        await pilot.press("R")
        await wait_until(pilot, screen_is(app, RegenerateConfirm))
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        await pilot.press("v")
        new_key = str(app.screen.query_one("#key").content)
        await pilot.click("#done")
        await wait_until(pilot, screen_is(app, DetailScreen))
    async with AdminClient(service.base_url, new_key) as fresh:
        assert await fresh.permissions.list()


async def test_edit_and_delete_from_a_detail(service, tenant, client):
    created = await client.proxies.create(
        {"name": "Detail proxy", "destination_url": "https://d.example.com"}
    )
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, ProxyForm))
        app.screen.query_one("#destination-url", Input).value = "https://e.example.com"
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        assert app.screen.item.destination_url == "https://e.example.com"

        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal))
        await pilot.click("#confirm")
        await back_on_console(pilot, app)  # the detail of a deleted object closes
        assert names(app, "proxies") == []
    with pytest.raises(NotFound):
        await client.proxies.get(created.id)


async def test_tenant_section_edit_and_type_to_confirm_delete(service, tenant, client):
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, TenantForm))
        app.screen.query_one("#name", Input).value = "Renamed in the console"
        await pilot.press("ctrl+s")
        await back_on_console(pilot, app)
        assert console(app).section_widget("tenant").tenant.name == "Renamed in the console"
        assert console(app).header.tenant == "Renamed in the console"

        await pilot.press("d")
        await wait_until(pilot, screen_is(app, TypeToConfirmModal))
        assert app.screen.expected == "Renamed in the console"
        await pilot.press("escape")
        await back_on_console(pilot, app)
    assert (await client.tenant.get()).name == "Renamed in the console"


async def test_read_only_console_hides_and_refuses_every_change(service, tenant, client):
    await client.proxies.create({"name": "Untouchable", "destination_url": "https://u.example.com"})
    app = make_app(service.base_url, tenant.key, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show}
        assert not shown & {"new", "edit", "delete", "regenerate"}
        for key in ("n", "e", "d", "R"):
            await pilot.press(key)
            await settle(pilot)
            assert isinstance(app.screen, ConsoleScreen)
            said = [n for n in notifications(app) if "Read-only mode" in n]
            assert len(said) == 1, said  # each refusal replaces the one before (#25)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        shown = {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show}
        assert not shown & {"edit", "delete", "regenerate"}
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        refusals = [n for n in notifications(app) if "Read-only mode" in n]
        assert refusals == ["Read-only: Read-only mode: deleting a proxy is refused."]
    assert [p.name for p in (await client.proxies.list()).data] == ["Untouchable"]


async def test_regenerating_the_consoles_own_key_in_the_shell_keeps_it_working(service):
    tenant = service.new_tenant("Own key in the shell")
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert names(app, "applications") == ["Bootstrap management"]
        await pilot.press("R")
        await wait_until(pilot, screen_is(app, TypeToConfirmModal))  # guarded: see test_key_guard
        assert "the key this console uses" in app.screen.body_text
        await pilot.press(*"Bootstrap management")
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal))
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        await back_on_console(pilot, app)
        await pilot.press("r")
        await settle(pilot)
        assert resource_list(app, "applications").problem is None
        assert names(app, "applications") == ["Bootstrap management"]
        assert app.connection.key != tenant.key
        assert not app.key_rejected
    async with AdminClient(service.base_url, tenant.key) as old:
        with pytest.raises(Unauthorized):
            await old.tenant.get()


# ----- wording -----


async def test_read_only_refusals_use_the_right_article(service, tenant):
    app = host(service, tenant, read_only=True)
    async with app.run_test(size=SIZE):
        assert await app.run_worker(run(NEW, app, Target(APPLICATIONS))).wait() is None
        assert await app.run_worker(run(NEW, app, Target(PROXIES))).wait() is None
    assert "Read-only mode: creating an application is refused." in app.notes
    assert "Read-only mode: creating a proxy is refused." in app.notes


async def test_tenant_section_says_which_key_edits_it(service, tenant):
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        texts = [str(s.content) for s in console(app).section_widget("tenant").query(".muted")]
        assert any("Press e to edit the tenant" in t for t in texts), texts


# ----- what a deletion breaks -----


async def test_deleting_an_application_names_the_proxies_that_use_it(service, tenant, client):
    used = await client.applications.create(
        {"name": "Bound", "type": "private", "permissions": ["token:read"]}
    )
    other = await client.applications.create(
        {"name": "Other", "type": "private", "permissions": ["token:read"]}
    )
    for index in range(7):
        await client.proxies.create(
            {
                "name": f"Edge {index}",
                "destination_url": "https://edge.example.com",
                "application": {"id": str(used.id)},
            }
        )
    await client.proxies.create(
        {
            "name": "Unrelated",
            "destination_url": "https://u.example.com",
            "application": {"id": str(other.id)},
        }
    )
    app = host(service, tenant)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, APPLICATIONS, used))
        await wait_until(pilot, screen_is(app, ConfirmModal))
        body = app.screen.body_text
        assert "7 proxies lose their application" in body
        assert '"Edge 0", "Edge 1", "Edge 2", "Edge 3", "Edge 4" and 2 more' in body
        assert "Unrelated" not in body
        await pilot.click("#cancel")
        assert await worker.wait() is False

        worker = app.run_worker(delete_object(app, APPLICATIONS, other))
        await wait_until(pilot, screen_is(app, ConfirmModal))
        assert "1 proxy loses its application" in app.screen.body_text
        assert '"Unrelated".' in app.screen.body_text
        await pilot.click("#cancel")
        await worker.wait()


async def test_an_application_no_proxy_uses_says_so(service, tenant, client):
    alone = await client.applications.create(
        {"name": "Alone", "type": "private", "permissions": ["token:read"]}
    )
    app = host(service, tenant)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, APPLICATIONS, alone))
        await wait_until(pilot, screen_is(app, ConfirmModal))
        assert "No proxy uses it." in app.screen.body_text
        await pilot.click("#cancel")
        await worker.wait()


async def test_without_proxy_read_the_confirmation_says_it_could_not_check(service, tenant, client):
    limited = await client.applications.create(
        {"name": "No proxies", "type": "management", "permissions": ["application:delete"]}
    )
    target = await client.applications.create(
        {"name": "Target", "type": "private", "permissions": ["token:read"]}
    )
    app = FormHost(base_url=service.base_url, key=limited.key)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, APPLICATIONS, target))
        await wait_until(pilot, screen_is(app, ConfirmModal))
        body = app.screen.body_text
        assert "Could not check which proxies use it" in body
        assert "proxy:read" in body
        await pilot.click("#cancel")
        await worker.wait()


# ----- what the key may do -----


def key_states(app: Any) -> dict[str, bool]:
    """Each change action's key on the top screen: True enabled, False dimmed."""
    return {
        b.binding.action: b.enabled
        for b in app.screen.active_bindings.values()
        if b.binding.action in ("new", "edit", "delete", "regenerate")
    }


async def test_actions_the_key_may_not_do_are_dimmed_and_say_what_they_need(
    service, tenant, client, monkeypatch
):
    from console.client.resources import Applications

    asked: list[int] = []
    current = Applications.current

    async def counted(self: Any) -> Any:
        asked.append(1)
        return await current(self)

    monkeypatch.setattr(Applications, "current", counted)
    reader = await client.applications.create(
        {
            "name": "Reader",
            "type": "management",
            "permissions": ["application:read", "proxy:read", "proxy:create", "tenant:read"],
        }
    )
    await client.proxies.create({"name": "P", "destination_url": "https://p.example.com"})
    app = make_app(service.base_url, reader.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await wait_until(pilot, lambda: key_states(app).get("new") is False, what="dimmed n")
        assert key_states(app) == {
            "new": False,
            "edit": False,
            "delete": False,
            "regenerate": False,
        }
        await pilot.press("n")
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)  # no form opened
        assert any(
            "Creating an application needs application:create" in n for n in notifications(app)
        )

        await pilot.press("2")  # proxies: this key may create them, not edit or delete
        await settle(pilot)
        assert key_states(app) == {"new": True, "edit": False, "delete": False}
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
        assert any("Deleting a proxy needs proxy:delete" in n for n in notifications(app))

        await pilot.press("1")
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        assert key_states(app) == {"edit": False, "delete": False, "regenerate": False}
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        assert any("needs application:update" in n for n in notifications(app))
    assert len(asked) == 1  # once for the connection


async def test_a_403_page_says_which_permission_instead_of_retry(service, tenant, client):
    blind = await client.applications.create(
        {"name": "Blind", "type": "management", "permissions": ["application:read"]}
    )
    app = make_app(service.base_url, blind.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        from console.tui.widgets.state_panel import StatePanel

        panel = console(app).section_widget("proxies").query_one(StatePanel)
        assert panel.kind == "error"
        hint = str(panel.query_one(".state-hint").content)
        assert "Retrying will not help" in hint and "proxy:read" in hint
        assert "r to retry" not in hint.lower()
