"""Each action that changes data is declared once (console.tui.actions.declarations): the same
declaration decides its key in the footer (check_action) and guards its flow, once, before it
starts. Against the real local service."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from console_support import make_app, notifications, settle
from form_host import SIZE, FormHost, screen_is, wait_until
from textual.widgets import Input

from console.client import AdminClient
from console.tui.actions import declarations as actions
from console.tui.actions.declarations import (
    CONSOLE_ACTIONS,
    COPY_TO_PROFILE,
    DELETE,
    DETAIL_ACTIONS,
    EDIT,
    INVITE,
    NEW,
    NEW_KEY,
    REGENERATE_KEY,
    RESEND,
    TOGGLE,
    Action,
    Target,
    offered,
    run,
    visible,
)
from console.tui.actions.key_offers import KEYS
from console.tui.actions.key_permissions import REGENERATE
from console.tui.browse.kinds import (
    APPLICATIONS,
    INVITATIONS,
    MEMBERS,
    PERMISSIONS,
    PROXIES,
    REACTOR_FORMULAS,
    TENANT,
    WEBHOOKS,
)
from console.tui.forms import ProxyForm
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.detail import DetailScreen
from console.tui.widgets.log_list import LogList
from console.tui.widgets.resource_list import ResourceList

EVERY_ACTION = {**CONSOLE_ACTIONS, **DETAIL_ACTIONS}


@pytest.fixture
def tenant(service: Any) -> Any:
    return service.new_tenant("Declared actions tenant")


@pytest.fixture
async def client(service: Any, tenant: Any) -> Any:
    async with AdminClient(service.base_url, tenant.key) as c:
        yield c


def recording(action: Action, ran: list[str]) -> Action:
    """The action with a flow that only records that it ran: the guard is the real one."""

    async def flow(app: Any, target: Target) -> str:
        ran.append(action.name)
        return "ran"

    return dataclasses.replace(action, flow=flow)


async def target_for(action: Action, client: AdminClient) -> Target:
    """An object each action applies to: an application for R, N, x, o; the People
    section's for i and I; a webhook for t; a proxy otherwise."""
    if action is INVITE:
        return Target(MEMBERS)
    if action is RESEND:
        invitation = await client.invitations.invite("someone@example.com")
        return Target(INVITATIONS, invitation)
    if action is TOGGLE:
        webhook = await client.webhooks.create(
            {"name": "Feed", "url": "https://hooks.example.com/in", "events": ["proxy.created"]}
        )
        return Target(WEBHOOKS, webhook)
    if action.kinds == {APPLICATIONS.key} or action is REGENERATE_KEY:
        return Target(APPLICATIONS, await client.applications.current())
    proxy = await client.proxies.create(
        {"name": f"For {action.name}", "destination_url": "https://a.example.com"}
    )
    return Target(PROXIES, None if not action.needs_object else proxy)


# ----- read-only mode --------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", sorted(n for n, a in EVERY_ACTION.items() if a.refused_in_read_only)
)
async def test_read_only_offers_the_key_and_refuses_the_flow_saying_why(
    service, tenant, client, name
):
    action = EVERY_ACTION[name]
    target = await target_for(action, client)
    ran: list[str] = []
    app = FormHost(base_url=service.base_url, key=tenant.key, read_only=True)
    async with app.run_test(size=SIZE):
        # Bound (so that pressing it says why), hidden from the footer and the palette.
        assert offered(action, app, target) is True
        assert not visible(action, app, target)
        result = await app.run_worker(run(recording(action, ran), app, target)).wait()
    assert result is None and ran == []
    refused = [n for n in app.notes if n.startswith("Read-only mode:")]
    assert refused == [f"Read-only mode: {action.refused_as(target)} is refused."]


async def test_read_only_detail_hides_every_declared_key_and_each_says_why(service, tenant, client):
    app = make_app(service.base_url, tenant.key, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # the Bootstrap management application
        await wait_until(pilot, screen_is(app, DetailScreen))
        await settle(pilot)
        shown = {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show}
        assert not shown & set(DETAIL_ACTIONS)
        await pilot.press("N")
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)  # no dialog
        said = [n for n in notifications(app) if "Read-only mode" in n]
        assert said == [
            'Read-only: Read-only mode: making a new key for "Bootstrap management" is refused.'
        ]


# ----- a permission the key lacks --------------------------------------------------------


async def test_a_missing_permission_dims_the_key_and_the_flow_never_starts(service, client):
    reader = await client.applications.create(
        {
            "name": "Reader",
            "type": "management",
            "permissions": ["application:read", "proxy:read", "tenant:read"],
        }
    )
    application = await client.applications.get(reader.id)
    app = FormHost(base_url=service.base_url, key=reader.key)
    ran: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        for action in (EDIT, DELETE, REGENERATE_KEY, NEW_KEY):
            target = Target(APPLICATIONS, application)
            result = await app.run_worker(run(recording(action, ran), app, target)).wait()
            assert result is None
        # The footer's answer, from what is known now (asked once, above).
        await wait_until(
            pilot, lambda: offered(EDIT, app, Target(APPLICATIONS, application)) is None
        )
        for action in (EDIT, DELETE, REGENERATE_KEY, NEW_KEY):
            assert offered(action, app, Target(APPLICATIONS, application)) is None, action.name
    assert ran == []
    lacks = "which this key lacks. Use a key that has it (another profile: p)."
    assert app.notes[:3] == [
        f"Editing an application needs application:update, {lacks}",
        f"Deleting an application needs application:delete, {lacks}",
        f"Regenerating the key of an application needs application:update, {lacks}",
    ]
    # (say_lacking capitalises the sentence, the application's name included: as before)
    assert app.notes[3].startswith("Making a new key for ")
    assert app.notes[3].endswith(f" needs application:update, {lacks}")
    assert len(app.notes) == 4


# ----- the kinds it applies to, and what the service offers -------------------------------


async def test_an_action_on_a_kind_it_does_not_declare_is_hidden_and_runs_nothing(
    service, tenant, client
):
    proxy = await client.proxies.create({"name": "P", "destination_url": "https://p.example.com"})
    permission = (await client.permissions.list())[0]
    current = await client.tenant.get()
    wrong = [
        (REGENERATE_KEY, Target(PROXIES, proxy)),  # a proxy has no key
        (NEW_KEY, Target(PROXIES, proxy)),
        (NEW, Target(TENANT)),  # there is one tenant: edited, never created
        (EDIT, Target(PERMISSIONS, permission)),  # the catalogue is the service's
        (COPY_TO_PROFILE, Target(TENANT, current)),
        (EDIT, Target(None)),  # the Usage section: nothing to act on
        (DELETE, Target(PROXIES)),  # no row highlighted
        (EDIT, Target(PROXIES, {"id": "x"}, unreadable=True)),  # shown as sent
    ]
    ran: list[str] = []
    app = FormHost(base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE):
        for action, target in wrong:
            assert action.applies(app, target) is not True
            assert offered(action, app, target) is False, (action.name, target.kind)
            result = await app.run_worker(run(recording(action, ran), app, target)).wait()
            assert result is None
    assert ran == []
    assert app.notes == []  # no key offered it: nothing to explain


async def test_what_the_service_does_not_offer_hides_the_key_and_says_so_when_run(
    service, tenant, client
):
    application = await client.applications.current()
    target = Target(APPLICATIONS, application)
    ran: list[str] = []
    app = FormHost(base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE):
        assert offered(REGENERATE_KEY, app, target) is True
        app.mark_unavailable(REGENERATE)
        app.mark_unavailable(KEYS)
        assert offered(REGENERATE_KEY, app, target) is False
        assert offered(NEW_KEY, app, target) is False
        for action in (REGENERATE_KEY, NEW_KEY):
            assert await app.run_worker(run(recording(action, ran), app, target)).wait() is None
    assert ran == []
    assert app.notes[0] == "This service does not offer regenerating keys."
    assert app.notes[1].startswith("This service does not offer Application Keys")


async def test_an_official_formula_is_viewed_not_refused_and_never_deleted(service, tenant, client):
    page = await client.reactor_formulas.list(size=100)
    official = next(f for f in page.data if f.type == "official")
    target = Target(REACTOR_FORMULAS, official)
    ran: list[str] = []
    app = FormHost(base_url=service.base_url, key=tenant.key, read_only=True)
    async with app.run_test(size=SIZE):
        # Editing it only shows it (its form opens read-only): read-only mode lets it open.
        assert await app.run_worker(run(recording(EDIT, ran), app, target)).wait() == "ran"
        assert COPY_TO_PROFILE.applies(app, target) is not True  # not offered at all
        app.session.read_only = False
        assert await app.run_worker(run(recording(DELETE, ran), app, target)).wait() is None
    assert ran == ["edit"]
    assert any("Official formulas" in n for n in app.notes)


# ----- the guard runs once ----------------------------------------------------------------


async def test_the_guard_runs_once_per_action(service, tenant, client, monkeypatch):
    await client.proxies.create({"name": "Once", "destination_url": "https://o.example.com"})
    guarded: list[str] = []
    asked: list[str] = []
    guard, lacking = actions.guard, actions.lacking_permission

    async def counted_guard(action: Action, app: Any, target: Target) -> Any:
        guarded.append(action.name)
        return await guard(action, app, target)

    async def counted_lacking(app: Any, kind: Any, what: str) -> Any:
        asked.append(what)
        return await lacking(app, kind, what)

    monkeypatch.setattr(actions, "guard", counted_guard)
    monkeypatch.setattr(actions, "lacking_permission", counted_lacking)
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, ProxyForm))
        app.screen.query_one("#name", Input).value = "Once more"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ConsoleScreen))
        await settle(pilot)
    assert guarded == ["edit"]
    assert asked == ["edit"]
    assert [p.name for p in (await client.proxies.list()).data] == ["Once more"]


# ----- no key that changes data skips the declarations -----------------------------------

READS = {
    # Moving about and looking: nothing is changed.
    "back",
    "toggle_json",
    "copy_id",
    "refresh",
    "section",
    "open",
    "filter",
    "escape",
    "cancel",
    "sort",
    "sort_reverse",
    "load_all_sorted",
    "access_review",
    "who_holds",
    "history",
    # `L`: the Logs section filtered to an object's entries; following reads new entries.
    "object_logs",
    "follow",
    # A test-run runs the shown code in the sandbox on a sample: nothing is saved.
    "test_run",
    # `Y` on a webhook's detail: its verification public key copied (it is public).
    "copy_block",
    # Explains a key pressed where it does not apply, or a permission the key lacks.
    "explain_key",
    "lacking_permission",
}
"""Actions of the console's bindings that change no data. A new binding must be added here
(saying why it changes nothing) or declared in console.tui.actions.declarations."""

CONSOLE_ONLY = {
    # `K` after a 401: the profile's own API key typed anew (the app checks it); nothing
    # in the tenant changes. Not the detail's `new_key` (N), an Application Key.
    "enter_key",
}


def binding_actions(bindings: list[Any]) -> set[str]:
    return {b.action.split("(")[0] for b in bindings}


@pytest.mark.parametrize(
    ("screen", "declared", "other"),
    [
        (DetailScreen, DETAIL_ACTIONS, set()),
        (ConsoleScreen, CONSOLE_ACTIONS, CONSOLE_ONLY),
        (ResourceList, {}, set()),
        (LogList, {}, set()),
    ],
)
def test_every_binding_that_changes_data_is_a_declared_action(screen, declared, other):
    actions_bound = binding_actions(screen.BINDINGS)
    undeclared = actions_bound - set(declared) - READS - other
    assert not undeclared, (
        f"declare these in console.tui.actions.declarations, or list them as reads: {undeclared}"
    )
    for name, action in declared.items():
        keys = [b.key for b in screen.BINDINGS if b.action.split("(")[0] == name]
        assert keys == [action.key], (name, keys)
        assert callable(getattr(screen, f"action_{name}", None)), name


def test_each_declaration_names_itself_and_its_key_once():
    everything = [CONSOLE_ACTIONS, DETAIL_ACTIONS]
    for declared in everything:
        for name, action in declared.items():
            assert action.name == name
    names = [a.name for a in EVERY_ACTION.values()]
    assert len(names) == len(set(names))
    assert {a.key for a in DETAIL_ACTIONS.values()} == {
        "e",
        "d",
        "R",
        "c",
        "N",
        "x",
        "o",
        "ctrl+l",
        "t",
    }
