"""Issue #14, point 10: the service lets a key grant more than it holds; the console warns.

Against the real local service, with a session key that holds only some management
permissions: the regenerate confirmation and the save of an application form name what the
other key could do that the session's cannot, and say nothing when it could do no more.
"""

from __future__ import annotations

from typing import Any

import pytest
from form_host import SIZE, FormHost, screen_is, wait_until
from textual.widgets import Input

from console.client import AdminClient
from console.tui.actions.flows import regenerate_key
from console.tui.browse.grants import beyond, describe
from console.tui.forms import ApplicationForm
from console.tui.forms.permissions import PermissionChecklist
from console.tui.modals import ConfirmModal, KeyRevealModal, RegenerateConfirm

UPDATER = ["application:read", "application:update"]
CREATOR = ["application:read", "application:create", "proxy:read"]


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Grants tenant")


@pytest.fixture
async def admin(service: Any, tenant: Any) -> Any:
    """The tenant's bootstrap key: every management permission."""
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


def session(service: Any, tenant: Any, permissions: list[str], make: Any = None) -> FormHost:
    """The console on a key of its own that holds just `permissions`."""
    key = service.new_key(permissions, tenant_key=tenant.key)
    return FormHost(make, base_url=service.base_url, key=key)


def test_beyond_names_only_new_management_permissions_in_catalogue_order() -> None:
    own = ["application:read", "application:update"]
    granted = ["proxy:delete", "token:read", "application:read", "tenant:delete"]
    assert beyond(own, granted) == ["tenant:delete", "proxy:delete"]
    assert beyond(own, granted, already=["tenant:delete"]) == ["proxy:delete"]
    assert describe(["proxy:delete"]) == "proxy:delete (delete proxies)"


async def test_regenerating_a_stronger_key_names_what_it_could_do(service, tenant, admin):
    bootstrap = await admin.applications.get(tenant.application_id)
    app = session(service, tenant, UPDATER)
    async with app.run_test(size=(80, 24)) as pilot:
        worker = app.run_worker(regenerate_key(app, bootstrap))
        await wait_until(pilot, screen_is(app, RegenerateConfirm), what="confirmation")
        warning = app.screen.warning_text or ""
        assert "The new key could do what this console's key cannot" in warning, warning
        # Everything the bootstrap key holds but the session's two, grouped by resource.
        assert "tenant: read, update, delete;" in warning, warning
        assert "application: create, delete;" in warning, warning  # not read, not update
        assert "proxy: read, create, update, delete" in warning, warning
        # Even this long note leaves the answer on screen at 80x24.
        for button in app.screen.query("Button"):
            assert 0 < button.region.bottom <= 24 and button.region.height, button.region
        await pilot.click("#cancel")
        assert await worker.wait() is None
    # Cancelled: the administrator's key still works.
    assert (await admin.tenant.get()).name == "Grants tenant"


async def test_regenerating_a_key_that_can_do_no_more_has_no_note(service, tenant, admin):
    weaker = await admin.applications.create(
        {"name": "Reader", "type": "management", "permissions": ["application:read"]}
    )
    app = session(service, tenant, UPDATER)
    async with app.run_test(size=SIZE) as pilot:
        worker = app.run_worker(regenerate_key(app, weaker))
        await wait_until(pilot, screen_is(app, RegenerateConfirm), what="confirmation")
        assert app.screen.warning_text is None
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal), what="key reveal")
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        assert (await worker.wait()).key


async def fill_new_management_application(pilot: Any, form: Any, name: str, *grants: str) -> None:
    await wait_until(pilot, lambda: form.query_one("#permissions", PermissionChecklist).loaded)
    form.query_one("#type").value = "management"
    checklist = form.query_one("#permissions", PermissionChecklist)

    def offered() -> set[str]:
        options = checklist.selection_list
        return {options.get_option_at_index(i).value for i in range(options.option_count)}

    await wait_until(
        pilot, lambda: checklist.loaded and "proxy:delete" in offered(), what="management list"
    )
    form.query_one("#name", Input).value = name
    for grant in grants:
        checklist.selection_list.select(grant)


async def test_saving_a_grant_beyond_the_session_asks_first(service, tenant, admin):
    app = session(service, tenant, CREATOR, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await fill_new_management_application(
            pilot, form, "Escalated", "proxy:read", "proxy:delete", "tenant:delete"
        )
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="grant confirmation")
        warning = app.screen.warning_text or ""
        assert 'The key of "Escalated" could do what' in warning, warning
        assert "tenant:delete (delete tenants)" in warning and "proxy:delete" in warning
        assert "proxy:read" not in warning
        await pilot.click("#cancel")
        await wait_until(pilot, lambda: not form.saving, what="save to stop")
        assert form._send_count == 0 and not app.dismissed  # nothing sent, form kept

        await pilot.press("ctrl+s")  # asked again; this time saved on purpose
        await wait_until(pilot, screen_is(app, ConfirmModal), what="grant confirmation")
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal), what="key reveal")
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        await wait_until(pilot, lambda: app.dismissed, what="form to close")
    created = await admin.applications.get(app.result.id)
    assert {"proxy:delete", "tenant:delete"} <= set(created.permissions)


async def test_saving_within_the_sessions_own_grants_does_not_ask(service, tenant, admin):
    app = session(service, tenant, CREATOR, lambda c: ApplicationForm(c))
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await fill_new_management_application(pilot, form, "Modest", "proxy:read")
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, KeyRevealModal), what="key reveal")
        assert not any(isinstance(s, ConfirmModal) for s in app.screen_stack)
        await pilot.click("#stored")  # the key may close only once it is safe
        await pilot.click("#done")
        await wait_until(pilot, lambda: app.dismissed, what="form to close")
    assert (await admin.applications.get(app.result.id)).permissions == ["proxy:read"]


async def test_editing_asks_only_about_grants_the_application_did_not_hold(service, tenant, admin):
    strong = await admin.applications.create(
        {"name": "Strong", "type": "management", "permissions": ["tenant:delete"]}
    )
    key = service.new_key(UPDATER, tenant_key=tenant.key)
    app = FormHost(lambda c: ApplicationForm(c, strong), base_url=service.base_url, key=key)
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one("#permissions", PermissionChecklist).loaded)
        form.query_one("#name", Input).value = "Strong, renamed"  # tenant:delete was there
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed, what="form to close")
    assert (await admin.applications.get(strong.id)).name == "Strong, renamed"
