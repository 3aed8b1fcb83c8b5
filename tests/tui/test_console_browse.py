"""The console against the real local service: sections, paging, filters, detail."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from console_support import (
    JS,
    SIZE,
    USAGE_KEY,
    Seeder,
    console,
    filter_list,
    footer_status,
    make_app,
    open_first_detail,
    resource_list,
    settle,
    type_into,
)

from console.models import Application
from console.tui.app import default_client
from console.tui.browse.sections import SECTIONS
from console.tui.widgets.fields_view import FieldsView
from console.tui.widgets.tenant_view import TenantView
from console.tui.widgets.usage_view import UsageView


@pytest.fixture
def tenant(service: Any) -> Iterator[tuple[Any, Seeder]]:
    info = service.new_tenant("Browse Corp")
    seeder = Seeder(service.base_url, info.key)
    try:
        yield info, seeder
    finally:
        seeder.close()


async def test_every_section_shows_its_data(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.application("Checkout backend")
    seed.proxy("Card intake", request_transform={"code": JS})
    seed.formula("Risk score")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = console(app)
        assert screen.header.tenant == "Browse Corp"
        assert screen.header.base_url == service.base_url
        apps = resource_list(app, "applications")
        names = [item["name"] for item in apps.items]
        assert names == ["Bootstrap management", "Checkout backend"]
        assert footer_status(app) == "2 of 2 loaded"

        await pilot.press("2")
        await settle(pilot)
        assert screen.current == "proxies"
        assert [p["name"] for p in resource_list(app, "proxies").items] == ["Card intake"]

        await pilot.press("3")
        await settle(pilot)
        formulas = resource_list(app, "reactor_formulas")
        assert "Risk score" in [f["name"] for f in formulas.items]

        await pilot.press("4")
        await settle(pilot)
        assert screen.current == "reactors"
        assert resource_list(app, "reactors").items == []

        await pilot.press("5")
        await settle(pilot)
        permissions = resource_list(app, "permissions")
        assert len(permissions.items) == 35  # webhook:read, create, update, delete (#37)
        assert footer_status(app) == "35 of 35 loaded"

        await pilot.press("6")
        await settle(pilot)
        tenant_view = screen.query_one(TenantView)
        assert tenant_view.display
        assert tenant_view.query_one(FieldsView).value_of("Name") == "Browse Corp"
        assert tenant_view.query_one(FieldsView).value_of("Fingerprint tokens") in ("on", "off")

        await pilot.press(USAGE_KEY)
        await settle(pilot)
        usage = screen.query_one(UsageView)
        assert usage.loaded and usage.dashboard.state in ("report", "empty")

        for section in SECTIONS:
            await pilot.press(section.hotkey)
            await pilot.pause()
            assert screen.current == section.key
            assert screen.header.section == section.key


async def test_empty_state_is_clear(service: Any, tenant: Any) -> None:
    info, _ = tenant
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        proxies = resource_list(app, "proxies")
        assert proxies.state_panel.kind == "empty"
        assert "no proxies yet" in proxies.state_panel.title_text
        assert not proxies.table.display


async def test_only_the_pages_the_cursor_reaches_are_fetched(service: Any, tenant: Any) -> None:
    info, seed = tenant
    for n in range(249):  # with the bootstrap application: 250
        seed.application(f"App {n:03d}")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        assert apps.pages_fetched == [1]
        assert apps.total == 250
        assert len(apps.items) == 50
        assert footer_status(app) == "50 of 250 loaded"

        apps.table.move_cursor(row=30)
        await settle(pilot)
        assert apps.pages_fetched == [1]  # 20 rows from the end: not yet

        apps.table.move_cursor(row=45)
        await settle(pilot)
        assert apps.pages_fetched == [1, 2]
        apps.table.move_cursor(row=60)
        await settle(pilot)
        assert apps.pages_fetched == [1, 2]
        assert len(apps.items) == 100
        assert footer_status(app) == "100 of 250 loaded"

        await pilot.press("end")
        await settle(pilot)
        assert apps.pages_fetched == [1, 2, 3]
        assert [a["name"] for a in apps.items[-2:]] == ["App 147", "App 148"]
        assert len({a["id"] for a in apps.items}) == len(apps.items) == 150


def held_pages(release: asyncio.Event, held: set[str]) -> Any:
    """The real client, whose `page_json` for the resource groups in `held` waits for
    `release`: a slow service, without sleeping."""

    def factory(base_url: str, key: str) -> Any:
        client = default_client(base_url, key)
        for name in held:
            group = getattr(client, name)
            original = group.page_json

            async def page_json(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
                await release.wait()
                return await _original(*args, **kwargs)

            group.page_json = page_json
        return client

    return factory


async def until(condition: Any, pilot: Any, deadline_s: float = 10) -> None:
    """Polls the app with a deadline (Textual's timers, not sleeps, move it on)."""
    deadline = time.monotonic() + deadline_s
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        await pilot.pause(0.02)


async def test_a_slow_page_says_loading_a_quick_one_never_does(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.proxy("Edge proxy")
    release = asyncio.Event()
    app = make_app(service.base_url, info.key, client_factory=held_pages(release, {"proxies"}))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        assert apps.items and apps.state_panel.kind is None  # quick: no loading state shown
        await pilot.press("2")
        proxies = resource_list(app, "proxies")
        await until(lambda: proxies.is_mounted and proxies.fetching, pilot)
        assert proxies.state_panel.kind is None and proxies.table.display  # not yet
        await until(lambda: proxies.state_panel.kind == "loading", pilot)
        assert not proxies.table.display and footer_status(app) == "loading…"
        release.set()
        await settle(pilot)
        assert [p["name"] for p in proxies.items] == ["Edge proxy"]
        assert proxies.state_panel.kind is None and proxies.table.display


async def test_loading_more_keeps_the_rows_on_screen(service: Any, tenant: Any) -> None:
    """The next page loads behind the rows: they stay visible and the cursor keeps moving."""
    info, seed = tenant
    for n in range(59):
        seed.application(f"App {n:03d}")
    release = asyncio.Event()
    app = make_app(service.base_url, info.key, client_factory=held_pages(release, {"applications"}))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        apps.table.move_cursor(row=45)
        await until(lambda: apps.fetching, pilot)
        assert footer_status(app) == "50 of 60 loaded · loading more…"
        assert not apps.loading and apps.table.display  # no spinner over the list
        await pilot.press("up")
        assert apps.table.cursor_row == 44
        release.set()
        await settle(pilot)
        assert len(apps.items) == 60 and apps.pages_fetched == [1, 2]


async def test_the_highlighted_row_becomes_a_model(service: Any, tenant: Any) -> None:
    info, _ = tenant
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        row = apps.current_row
        item = apps.current_item
        assert isinstance(item, Application) and str(item.id) == row["id"]
        assert apps.current_item is item  # made once per row


async def test_filters_go_to_the_server(service: Any, tenant: Any) -> None:
    info, seed = tenant
    for name in ("Orders EU", "Orders US", "Billing"):
        seed.proxy(name)
    target = seed.application("Target app")
    seed.application("Other app")
    seed.formula("Orders scoring")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications")
        await pilot.press("slash")
        assert apps.filter_input.has_focus
        await type_into(pilot, target["id"])
        await settle(pilot)
        assert [a["name"] for a in apps.items] == ["Target app"]
        assert apps.query_params == {"ids": (target["id"],)}
        assert "1 of 1 loaded" in footer_status(app)

        await filter_list(pilot, "not-an-id")
        assert apps.query_params == {"ids": (target["id"],)}  # refused, unchanged
        await pilot.press("escape")  # leaves the input
        await settle(pilot)
        assert apps.filter_text == ""
        assert len(apps.items) == 3

        await pilot.press("2")
        await settle(pilot)
        proxies = resource_list(app, "proxies")
        await filter_list(pilot, "orders*u")
        assert sorted(p["name"] for p in proxies.items) == ["Orders EU", "Orders US"]
        assert proxies.query_params == {"name": "orders*u"}
        await filter_list(pilot, "zzz")
        assert proxies.state_panel.kind == "empty"
        assert "zzz" in proxies.state_panel.title_text
        await pilot.press("escape")
        await settle(pilot)
        assert len(proxies.items) == 3

        await pilot.press("3")
        await settle(pilot)
        await filter_list(pilot, "scoring")
        formulas = resource_list(app, "reactor_formulas")
        assert [f["name"] for f in formulas.items] == ["Orders scoring"]

        await pilot.press("5")
        await settle(pilot)
        await filter_list(pilot, "public")
        permissions = resource_list(app, "permissions")
        assert {p["type"] for p in permissions.items} == {"token:create", "token:update"}


async def test_detail_shows_fields_code_and_json(service: Any, tenant: Any) -> None:
    info, seed = tenant
    proxy = seed.proxy(
        "Card intake",
        request_transform={"code": JS},
        configuration={"region": "eu"},
        require_auth=False,
    )
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_first_detail(pilot, "2")
        fields = detail.fields_view
        assert fields.value_of("Id") == proxy["id"]
        assert fields.value_of("Requires auth") == "no"
        shown = fields.value_of("Configuration")  # a secret: its name, never its value
        assert shown.startswith("region = ") and "eu" not in shown.removeprefix("region = ")
        assert proxy["key"] not in fields.value_of("Proxy key")
        assert "ago" in fields.value_of("Created") or "just now" in fields.value_of("Created")
        codes = list(detail.query("CodeView"))
        assert [c.block.title for c in codes] == ["Request transforms, step 1"]  # type: ignore[attr-defined]

        await pilot.press("v")
        await pilot.pause()
        assert detail.query_one("#detail-json").display
        shown = json.loads(str(detail.query_one("#detail-json").content.code))  # type: ignore[attr-defined]
        assert shown["id"] == proxy["id"]
        assert shown["key"] != proxy["key"]  # masked

        await pilot.press("y")
        await pilot.pause()
        assert app.clipboard == proxy["id"]

        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is console(app)
