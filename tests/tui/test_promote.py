"""Promotion from the console (copy to profile…), the whole-tenant diff screen, and the
promotion plan's looks; against two tenants of the local service."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from console_support import JS, Seeder, notifications, settle, two_profile_app
from form_host import FormHost, screen_is, wait_until

from console.estate.document import make_document
from console.estate.plan import compute_plan
from console.estate.tenant import TenantSnapshot
from console.kinds.configured import application_item, proxy_item
from console.tui.app import TenantConsoleApp
from console.tui.base.connection import Connection, MemoryProfiles
from console.tui.modals.key_reveal import KeyRevealModal
from console.tui.modals.target_profile import TargetProfilePicker
from console.tui.screens.estate import PlanScreen, TenantDiffScreen

SIZE = (120, 40)


PROXIES, REACTORS = "2", "4"  # the sections' keys

REACTOR_RUNTIME = {"image": "node22", "timeout": 5, "permissions": ["token:read"]}


def listed(base_url: str, key: str, path: str) -> list[dict[str, Any]]:
    response = httpx.get(f"{base_url}{path}", headers={"SVC-API-KEY": key}, timeout=30)
    return response.json()["data"]


def proxies_of(base_url: str, key: str) -> list[dict[str, Any]]:
    return listed(base_url, key, "/proxies")


def reactors_of(base_url: str, key: str) -> list[dict[str, Any]]:
    return listed(base_url, key, "/reactors")


def applications_of(base_url: str, key: str) -> list[dict[str, Any]]:
    return listed(base_url, key, "/applications")


@pytest.fixture
def estate(service):
    """Staging with an application, and the proxy and the reactor that use it; an empty prod."""
    staging, prod = service.new_tenant("Staging"), service.new_tenant("Prod")
    seeder = Seeder(service.base_url, staging.key)
    web = seeder.application("Web")
    seeder.proxy(
        "Checkout",
        application={"id": web["id"]},
        request_transform={"code": JS},
        configuration={"TOKEN": "s3cret"},
    )
    seeder.post(
        "/reactors",
        {
            "name": "Lookup",
            "code": JS,
            "application": {"id": web["id"]},
            "configuration": {"API_KEY": "r3actor-s3cret"},
            "runtime": REACTOR_RUNTIME,
        },
    )
    seeder.close()
    return service.base_url, staging, prod


async def copy_with_key(pilot, app) -> PlanScreen:
    await pilot.press("c")
    await wait_until(pilot, screen_is(app, TargetProfilePicker), what="the profile picker")
    await pilot.press("enter")  # the one other profile: prod
    await wait_until(pilot, screen_is(app, PlanScreen), what="the plan")
    screen = app.screen
    assert isinstance(screen, PlanScreen)
    await wait_until(pilot, lambda: screen.plan is not None, what="the plan computed")
    return screen


async def copy_and_apply(pilot, app, section: str, secret: str) -> list[tuple[str, str, str]]:
    """The section's first row copied to prod and applied, its new application's key shown
    once; the plan's steps (the plan shown never has `secret` nor the source's key)."""
    await pilot.press(section)
    await settle(pilot)
    screen = await copy_with_key(pilot, app)
    plan = screen.plan
    assert plan is not None
    shown = str(screen.query_one("#plan-text").content)
    assert secret not in shown and app.connection.key not in shown
    await pilot.press("y")
    await wait_until(pilot, screen_is(app, KeyRevealModal), what="the new key, shown once")
    await pilot.press("v", "o")  # show, done
    await wait_until(pilot, lambda: not isinstance(app.screen, KeyRevealModal))
    await settle(pilot)
    assert any("Done in profile prod" in n for n in notifications(app))
    return [(s.action, s.kind, s.name) for s in plan.to_do]


async def copied_again_is_nothing_to_do(pilot, app) -> None:
    """The same row copied again: nothing to do, and nothing to apply."""
    screen = await copy_with_key(pilot, app)
    assert screen.plan is not None and screen.plan.nothing_to_do, screen.plan
    assert not screen.query_one("#confirm").display
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))


def web_id(base_url: str, key: str) -> str:
    (web,) = [a for a in applications_of(base_url, key) if a["name"] == "Web"]
    return web["id"]


async def test_copy_a_proxy_to_another_profile_with_its_application(estate) -> None:
    base_url, staging, prod = estate
    app = two_profile_app(("staging", base_url, staging.key), ("prod", base_url, prod.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        steps = await copy_and_apply(pilot, app, PROXIES, "s3cret")
        assert steps == [("create", "applications", "Web"), ("create", "proxies", "Checkout")]
        (checkout,) = proxies_of(base_url, prod.key)
        assert checkout["application_id"] == web_id(base_url, prod.key)
        assert checkout["configuration"] == {"TOKEN": "s3cret"}
        await copied_again_is_nothing_to_do(pilot, app)
    assert len(proxies_of(base_url, prod.key)) == 1


async def test_copy_a_reactor_to_another_profile_with_its_application(estate) -> None:
    base_url, staging, prod = estate
    app = two_profile_app(("staging", base_url, staging.key), ("prod", base_url, prod.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        steps = await copy_and_apply(pilot, app, REACTORS, "r3actor-s3cret")
        assert steps == [("create", "applications", "Web"), ("create", "reactors", "Lookup")]
        (lookup,) = reactors_of(base_url, prod.key)
        assert lookup["application"]["id"] == web_id(base_url, prod.key)
        assert lookup["configuration"] == {"API_KEY": "r3actor-s3cret"}
        assert lookup["code"] == JS
        await copied_again_is_nothing_to_do(pilot, app)
    (lookup,) = reactors_of(base_url, prod.key)
    runtime = lookup["runtime"] or lookup["requested"]["reactor"]["runtime"]
    assert {k: runtime[k] for k in REACTOR_RUNTIME} == REACTOR_RUNTIME


async def test_copy_from_a_detail_screen_and_cancel_changes_nothing(estate) -> None:
    base_url, staging, prod = estate
    app = two_profile_app(("staging", base_url, staging.key), ("prod", base_url, prod.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")  # the application Web's detail
        await settle(pilot)
        screen = await copy_with_key(pilot, app)
        assert screen.plan is not None
        assert [(s.action, s.name) for s in screen.plan.to_do] == [("create", "Web")]
        await pilot.press("n")
        await wait_until(pilot, lambda: not isinstance(app.screen, PlanScreen))
        await settle(pilot)
    assert len(applications_of(base_url, prod.key)) == 1  # its bootstrap application only


@pytest.mark.parametrize(
    ("section", "key", "listing"),
    [(PROXIES, "proxies", proxies_of), (REACTORS, "reactors", reactors_of)],
    ids=["proxy", "reactor"],
)
async def test_read_only_refuses_promotion(estate, section, key, listing) -> None:
    base_url, staging, prod = estate
    connections = [
        Connection("staging", base_url, staging.key),
        Connection("prod", base_url, prod.key),
    ]
    app = TenantConsoleApp(profiles=MemoryProfiles(connections, active="staging"), read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(section)
        await settle(pilot)
        assert app.console_screen is not None
        assert app.console_screen.current == key
        await pilot.press("c")
        await settle(pilot)
        assert not isinstance(app.screen, TargetProfilePicker)
        assert any(
            "Read-only mode: copying to another profile is refused" in n for n in notifications(app)
        )
    assert listing(base_url, prod.key) == []


async def test_the_whole_tenant_diff_from_the_palette(estate) -> None:
    base_url, staging, prod = estate
    app = two_profile_app(("staging", base_url, staging.key), ("prod", base_url, prod.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        for character in "Compare this":
            await pilot.press(character if character != " " else "space")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, TargetProfilePicker), what="the profile picker")
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, TenantDiffScreen), what="the diff screen")
        screen = app.screen
        assert isinstance(screen, TenantDiffScreen)
        await wait_until(pilot, lambda: screen.plan is not None, what="the diff")
        text = str(screen.query_one("#diff-text").content)
        assert "+ create          Checkout" in text
        assert "+ create          Web (private)" in text
        assert "= unchanged" not in text
        await pilot.press("a")
        assert "= unchanged       Bootstrap management" in str(
            screen.query_one("#diff-text").content
        )
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, TenantDiffScreen)


# ---- looks ---------------------------------------------------------------------------------


CODE_BEFORE = "module.exports = async (req) => {\n  req.body.card = 'x';\n  return req;\n};\n"
CODE_AFTER = "module.exports = async (req) => {\n  req.body.card = '****';\n  return req;\n};\n"


def fixed_plan():
    """A proxy update with a code change and its application to create: no service needed."""
    application = {"name": "Checkout web", "type": "private", "permissions": ["token:create"]}
    proxy = {
        "name": "Checkout",
        "destination_url": "https://api.example.com/checkout",
        "request_transform": {"code": CODE_AFTER},
        "configuration": {"API_TOKEN": "secret-after"},
    }
    source = make_document(
        None,
        {},
        {
            "applications": [application_item(application)],
            "proxies": [proxy_item({**proxy, "application": "Checkout web"})],
        },
    )
    present_proxy = {**proxy, "request_transform": {"code": CODE_BEFORE}}
    present_proxy["configuration"] = {"API_TOKEN": "secret-before"}
    present = make_document(None, {}, {"proxies": [proxy_item(present_proxy)]})
    target = TenantSnapshot(present, "Prod", {}, {"proxies": {"Checkout": ["p1"]}})
    only = {"applications": {"Checkout web"}, "proxies": {"Checkout"}}
    return compute_plan(
        source, target, source_label="profile staging", target_label="profile prod", only=only
    )


def _plan_host() -> FormHost:
    return FormHost(lambda _client: PlanScreen('Copy proxy "Checkout" to profile prod'))


async def _show_plan(pilot) -> None:
    await wait_until(pilot, screen_is(pilot.app, PlanScreen))
    pilot.app.screen.show_plan(fixed_plan())
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (200, 60)], ids=["80x24", "200x60"])
def test_snapshot_promotion_plan(snap_compare, size) -> None:
    assert snap_compare(_plan_host(), terminal_size=size, run_before=_show_plan)


def test_the_plan_never_shows_configuration_values() -> None:
    from console.estate.render import plan_lines

    text = "\n".join(plan_lines(fixed_plan()))
    assert "secret-after" not in text and "secret-before" not in text
    assert "configuration.API_TOKEN: changed (value not shown)" in text
    assert "+  req.body.card = '****';" in text


async def test_escape_while_the_plan_is_made_changes_nothing(estate) -> None:
    base_url, staging, prod = estate
    app = two_profile_app(("staging", base_url, staging.key), ("prod", base_url, prod.key))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2", "c")
        await wait_until(pilot, screen_is(app, TargetProfilePicker), what="the profile picker")
        await pilot.press("enter", "escape")  # before the plan is ready
        await settle(pilot)
        assert not isinstance(app.screen, PlanScreen)
        assert app.return_code is None  # no crash
    assert proxies_of(base_url, prod.key) == []
