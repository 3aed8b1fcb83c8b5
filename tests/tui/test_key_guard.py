"""The keys the console lives on need their name typed: deleting or regenerating the
application whose key this session uses, or the last application that can manage
applications. The dialog says what is lost, and Tab Enter (or y) does not confirm it.
Against the real local service (issue 23)."""

from __future__ import annotations

from typing import Any

import pytest
from console_support import make_app, resource_list, settle
from form_host import SIZE, FormHost, screen_is, wait_until
from textual.widgets import Button

from console.client import AdminClient, NotFound
from console.tui.actions.flows import delete_object, regenerate_key
from console.tui.actions.key_guard import KeyStakes, held_permissions, key_stakes
from console.tui.browse.kinds import APPLICATIONS
from console.tui.modals import ConfirmModal, RegenerateConfirm, TypeToConfirmModal
from console.tui.modals.confirm import REGENERATE_CONSEQUENCES
from console.tui.screens.console import ConsoleScreen

MANAGER = ["application:create", "application:read", "application:update", "application:delete"]


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Guarded tenant")


@pytest.fixture
async def admin(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


async def last_manager_but_not_ours(service: Any, tenant: Any, admin: Any) -> tuple[Any, str]:
    """A tenant whose only application that can manage applications is "Keeper" (its
    bootstrap application deleted), and a session key that cannot manage applications."""
    keeper = await admin.applications.create(
        {"name": "Keeper", "type": "management", "permissions": MANAGER}
    )
    session_key = service.new_key(
        ["application:read", "application:delete", "proxy:read"], tenant_key=tenant.key
    )
    async with AdminClient(service.base_url, keeper.key) as as_keeper:
        await as_keeper.applications.delete(tenant.application_id)
    return keeper, session_key


async def tab_enter_cancels(pilot: Any, app: Any, modal: Any) -> None:
    """Tab then Enter, as after a confirmation that takes them: the dialog closes, answering
    no (the confirming button is disabled until the name is typed, so Tab skips it)."""
    assert modal.query_one("#confirm", Button).disabled
    await pilot.press("y")  # typed into the name, not an answer
    await pilot.press("tab")
    assert modal.focused is not None and modal.focused.id == "cancel"
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.screen is not modal, what="the dialog closed")


# ----- the session's own key -----------------------------------------------------------------


async def test_deleting_the_consoles_own_application_needs_its_name_typed(service, tenant, admin):
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert resource_list(app, "applications").current_row["name"] == "Bootstrap management"
        await pilot.press("d")
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="the typed confirmation")
        modal = app.screen
        assert modal.expected == "Bootstrap management"
        assert "the key this console uses" in modal.body_text
        assert "loses its access at once" in modal.body_text
        assert "last application that can manage applications" in modal.body_text
        await tab_enter_cancels(pilot, app, modal)
        await settle(pilot)
        assert isinstance(app.screen, ConsoleScreen)
    assert (await admin.applications.get(tenant.application_id)).name == "Bootstrap management"


async def test_regenerating_the_consoles_own_key_needs_its_name_typed(service, tenant, admin):
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="the typed confirmation")
        modal = app.screen
        assert modal.confirm_label == "Regenerate"
        assert REGENERATE_CONSEQUENCES in modal.body_text
        assert "the console switches to the new key" in modal.body_text
        await tab_enter_cancels(pilot, app, modal)
        await settle(pilot)
        assert app.connection.key == tenant.key  # nothing regenerated
    assert await admin.tenant.get()  # the old key still works


async def test_the_own_key_is_guarded_even_when_others_can_manage(service, tenant, admin):
    """Another manager exists: only the session's own key makes the dialog a typed one."""
    await admin.applications.create(
        {"name": "Second admin", "type": "management", "permissions": MANAGER}
    )
    app = FormHost(base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        own = await app.client.applications.current()
        worker = app.run_worker(delete_object(app, APPLICATIONS, own))
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="the typed confirmation")
        assert "the key this console uses" in app.screen.body_text
        assert "last application" not in app.screen.body_text
        await pilot.press("escape")
        assert await worker.wait() is False


# ----- the last application that can manage applications -----------------------------------


async def test_deleting_the_last_manager_needs_its_name_typed(service, tenant, admin):
    keeper, session_key = await last_manager_but_not_ours(service, tenant, admin)
    app = FormHost(base_url=service.base_url, key=session_key)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, APPLICATIONS, keeper))
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="the typed confirmation")
        modal = app.screen
        assert "the last application that can manage applications" in modal.body_text
        assert "the key this console uses" not in modal.body_text
        await tab_enter_cancels(pilot, app, modal)
        assert await worker.wait() is False
        assert (await app.client.applications.get(keeper.id)).name == "Keeper"

        worker = app.run_worker(delete_object(app, APPLICATIONS, keeper))
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="the typed confirmation")
        await pilot.press(*"Keepe", "enter")  # not the name: nothing happens
        assert isinstance(app.screen, TypeToConfirmModal)
        await pilot.press("r", "enter")
        assert await worker.wait() is True
        with pytest.raises(NotFound):
            await app.client.applications.get(keeper.id)


async def test_regenerating_the_last_manager_needs_its_name_typed(service, tenant, admin):
    keeper, session_key = await last_manager_but_not_ours(service, tenant, admin)
    app = FormHost(base_url=service.base_url, key=session_key)
    async with app.run_test(size=SIZE) as pilot:
        keeper = await app.client.applications.get(keeper.id)
        worker = app.run_worker(regenerate_key(app, keeper))
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="the typed confirmation")
        modal = app.screen
        assert "if the new key is lost" in modal.body_text
        # The new key could do what the session's cannot: said, as in RegenerateConfirm.
        assert "could do what this console's key cannot" in (modal.warning_text or "")
        await tab_enter_cancels(pilot, app, modal)
        assert await worker.wait() is None
    # Confirming with the name typed regenerates: test_actions' own-key tests do (a key
    # that may regenerate holds application:update, so it is a manager itself).


async def test_a_manager_that_is_not_the_last_asks_as_usual(service, tenant, admin):
    second = await admin.applications.create(
        {"name": "Second admin", "type": "management", "permissions": MANAGER}
    )
    app = FormHost(base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, APPLICATIONS, second))
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the confirmation")
        assert not isinstance(app.screen, TypeToConfirmModal)
        await pilot.click("#cancel")
        assert await worker.wait() is False
        worker = app.run_worker(regenerate_key(app, second))
        await wait_until(pilot, screen_is(app, RegenerateConfirm), what="the confirmation")
        await pilot.click("#cancel")
        assert await worker.wait() is None


async def test_an_expired_manager_does_not_count(service, tenant, admin):
    """A manager whose key has expired can manage nothing: the other is the last one."""
    keeper, _session_key = await last_manager_but_not_ours(service, tenant, admin)
    expired = {"id": "x", "permissions": MANAGER, "expires_at": "2020-01-01T00:00:00Z"}
    async with AdminClient(service.base_url, keeper.key) as as_keeper:

        class Pages:
            """The tenant's applications as read, and an expired manager among them."""

            async def page_json(self, page: int, size: int) -> dict[str, Any]:
                real = await as_keeper.applications.page_json(page=page, size=size)
                return {**real, "data": [*real["data"], expired]}

        class Client:
            applications = Pages()

        stakes = await key_stakes(Client(), keeper, own_key=False)  # type: ignore[arg-type]
        assert stakes.last_manager and not stakes.unchecked
        expired["expires_at"] = "2999-01-01T00:00:00Z"
        stakes = await key_stakes(Client(), keeper, own_key=False)  # type: ignore[arg-type]
        assert not stakes.last_manager


async def test_a_key_that_cannot_list_applications_still_asks_for_the_name(service, tenant, admin):
    keeper = await admin.applications.create(
        {"name": "Keeper", "type": "management", "permissions": MANAGER}
    )
    blind = service.new_key(["application:delete", "proxy:read"], tenant_key=tenant.key)
    app = FormHost(base_url=service.base_url, key=blind)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(delete_object(app, APPLICATIONS, keeper))
        await wait_until(pilot, screen_is(app, TypeToConfirmModal), what="the typed confirmation")
        assert "was not checked" in app.screen.body_text
        await pilot.press("escape")
        assert await worker.wait() is False


def test_held_permissions_count_rules_of_an_object_as_sent() -> None:
    sent = {"permissions": ["token:read"], "rules": [{"permissions": ["application:update"]}]}
    assert held_permissions(sent) == {"token:read", "application:update"}
    assert held_permissions({"rules": "not a list of rules"}) == set()


# ----- looks ---------------------------------------------------------------------------------


def guarded_delete() -> TypeToConfirmModal:
    stakes = KeyStakes(own_key=True, last_manager=True)
    body = f"{APPLICATIONS.delete_consequences} {stakes.losses('delete')}\n\nNo proxy uses it."
    return TypeToConfirmModal(
        'Delete application "Bootstrap management"?', body, "Bootstrap management"
    )


def guarded_regenerate() -> TypeToConfirmModal:
    stakes = KeyStakes(last_manager=True)
    return TypeToConfirmModal(
        'Regenerate the key of "Keeper"?',
        f"{REGENERATE_CONSEQUENCES} {stakes.losses('regenerate')}",
        "Keeper",
        confirm_label="Regenerate",
        warning="The new key could do what this console's key cannot: application: create.",
    )


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 40)], ids=["60x20", "80x24", "120x40"])
async def test_the_typed_confirmation_keeps_its_warning_in_view(size: tuple[int, int]) -> None:
    """Only the body scrolls where the dialog does not fit: the title, the warning, the name
    to type, the input and the buttons stay in view, and the focused input scrolls none away."""
    app = FormHost(lambda _client: guarded_regenerate())
    async with app.run_test(size=size) as pilot:
        await wait_until(pilot, screen_is(app, TypeToConfirmModal))
        await pilot.pause()
        modal = app.screen
        for selector in (".dialog-title", "#confirm-body", ".dialog-warning", "#typed", "#confirm"):
            for widget in modal.query(selector):
                region = widget.region
                assert region.height and modal.region.contains_region(region), selector
                dialog = modal.query_one("#dialog").content_region
                assert dialog.contains_region(region), (selector, region, dialog)
        text = "\n".join(strip.text for strip in modal._compositor.render_strips())
        for shown in ('Regenerate the key of "Keeper"?', "could do what this console's key"):
            assert shown in text
        assert 'Type "Keeper" to confirm:' in text and "A new API key is generated" in text
        assert app.focused is modal.query_one("#typed")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("make", [guarded_delete, guarded_regenerate], ids=["delete", "regenerate"])
def test_snapshot_guarded_dialog(make, size, snap_compare):
    assert snap_compare(FormHost(lambda _client: make()), terminal_size=size)
