"""The cursor stays where the admin acted: on the row changed (edit, regenerate, refresh,
promote), on the row created, on the deleted row's neighbour; and a list read again keeps
its scroll position. Issue 23: a regenerate on the last row used to leave the cursor on
row 1, the console's own application, for the next `d` to delete."""

from __future__ import annotations

from typing import Any

import pytest
from console_support import Seeder, make_app, resource_list, settle, two_profile_app
from form_host import screen_is, wait_until
from textual.widgets import Input

from console.tui.forms import ProxyForm
from console.tui.modals import ConfirmModal, KeyRevealModal, RegenerateConfirm
from console.tui.modals.target_profile import TargetProfilePicker
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.detail import DetailScreen
from console.tui.screens.estate import PlanScreen

SIZE = (120, 40)
"""About 33 rows show: the 46 of each list scroll."""

ROWS = 45


@pytest.fixture
def crowded(service: Any) -> Any:
    """A tenant with ROWS more applications and ROWS proxies than a screen shows."""
    tenant = service.new_tenant("Crowded")
    seed = Seeder(service.base_url, tenant.key)
    for n in range(ROWS):
        seed.application(f"App {n:02}")
        seed.proxy(f"Proxy {n:02}")
    seed.close()
    return tenant


def cursor_name(app: Any, key: str) -> str:
    row = resource_list(app, key).current_row
    assert row is not None
    return str(row["name"])


def scroll_y(app: Any, key: str) -> float:
    return resource_list(app, key).table.scroll_offset.y


async def back_on_console(pilot: Any, app: Any) -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, ConsoleScreen), what="console")
    await settle(pilot)


async def at_last_row(pilot: Any, app: Any, section: str, key: str) -> tuple[str, float]:
    """The section (its number), `G`: the last row's name and the view's scroll."""
    await settle(pilot)
    await pilot.press(section)
    await settle(pilot)
    await pilot.press("G")
    await settle(pilot)
    y = scroll_y(app, key)
    assert y > 0, "the list should scroll at this size"
    return cursor_name(app, key), y


async def test_regenerate_on_the_last_row_keeps_the_cursor_there(service, crowded):
    app = make_app(service.base_url, crowded.key)
    async with app.run_test(size=SIZE) as pilot:
        name, y = await at_last_row(pilot, app, "1", "applications")
        assert name == f"App {ROWS - 1:02}"
        await pilot.press("R")
        await wait_until(pilot, screen_is(app, RegenerateConfirm), what="the confirmation")
        await pilot.click("#confirm")
        await wait_until(pilot, screen_is(app, KeyRevealModal), what="the new key")
        await pilot.click("#stored")
        await pilot.click("#done")
        await back_on_console(pilot, app)
        listing = resource_list(app, "applications")
        assert listing.loaded_at is not None and not listing.refreshing
        assert cursor_name(app, "applications") == name  # not "Bootstrap management"
        assert scroll_y(app, "applications") == y
        assert app.focused is listing.table


async def test_an_edit_keeps_the_cursor_on_the_edited_row(service, crowded):
    app = make_app(service.base_url, crowded.key)
    async with app.run_test(size=SIZE) as pilot:
        await at_last_row(pilot, app, "2", "proxies")
        await pilot.press("up", "up")
        await settle(pilot)
        row_id = resource_list(app, "proxies").current_row["id"]
        y = scroll_y(app, "proxies")
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, ProxyForm), what="the form")
        app.screen.query_one("#name", Input).value = "Renamed proxy, longer than before"
        await pilot.press("ctrl+s")
        await back_on_console(pilot, app)
        listing = resource_list(app, "proxies")
        assert cursor_name(app, "proxies") == "Renamed proxy, longer than before"
        assert listing.current_row["id"] == row_id
        assert scroll_y(app, "proxies") == y
        # The new name is wider than any before: its column grew to show it whole.
        assert listing.table.column_widths["name"] >= len("Renamed proxy, longer than before")


async def test_an_edit_from_the_detail_keeps_the_list_cursor_on_that_row(service, crowded):
    app = make_app(service.base_url, crowded.key)
    async with app.run_test(size=SIZE) as pilot:
        name, y = await at_last_row(pilot, app, "2", "proxies")
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, DetailScreen), what="the detail")
        await settle(pilot)
        await pilot.press("e")
        await wait_until(pilot, screen_is(app, ProxyForm), what="the form")
        app.screen.query_one("#destination-url", Input).value = "https://edited.example.com"
        await pilot.press("ctrl+s")
        await wait_until(pilot, screen_is(app, DetailScreen), what="the detail again")
        await settle(pilot)
        await pilot.press("escape")
        await back_on_console(pilot, app)
        assert cursor_name(app, "proxies") == name
        assert resource_list(app, "proxies").current_row["destination_url"] == (
            "https://edited.example.com"
        )
        assert scroll_y(app, "proxies") == y


async def test_a_delete_leaves_the_cursor_on_the_neighbour(service, crowded):
    app = make_app(service.base_url, crowded.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press(*["down"] * 10)
        assert cursor_name(app, "proxies") == "Proxy 10"
        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the confirmation")
        await pilot.click("#confirm")
        await back_on_console(pilot, app)
        listing = resource_list(app, "proxies")
        assert "Proxy 10" not in [p["name"] for p in listing.items]
        assert cursor_name(app, "proxies") == "Proxy 11"  # the row below took its place
        assert listing.table.cursor_row == 10

        await pilot.press("G")
        y = scroll_y(app, "proxies")
        assert cursor_name(app, "proxies") == f"Proxy {ROWS - 1:02}"
        await pilot.press("d")
        await wait_until(pilot, screen_is(app, ConfirmModal), what="the confirmation")
        await pilot.click("#confirm")
        await back_on_console(pilot, app)
        assert cursor_name(app, "proxies") == f"Proxy {ROWS - 2:02}"  # the last but one
        assert scroll_y(app, "proxies") <= y


async def test_a_new_object_gets_the_cursor(service, crowded):
    app = make_app(service.base_url, crowded.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("n")
        await wait_until(pilot, screen_is(app, ProxyForm), what="the form")
        form = app.screen
        form.query_one("#name", Input).value = "Brand new"
        form.query_one("#destination-url", Input).value = "https://new.example.com"
        await pilot.press("ctrl+s")
        await back_on_console(pilot, app)
        assert cursor_name(app, "proxies") == "Brand new"


async def test_refresh_keeps_the_cursor_and_the_scroll(service, crowded):
    app = make_app(service.base_url, crowded.key)
    async with app.run_test(size=SIZE) as pilot:
        await at_last_row(pilot, app, "2", "proxies")
        await pilot.press("up", "up", "up")
        name, y = cursor_name(app, "proxies"), scroll_y(app, "proxies")
        seed = Seeder(service.base_url, crowded.key)
        first = resource_list(app, "proxies").items[0]
        seed.delete(f"/proxies/{first['id']}")  # someone else: every row moves up one ...
        seed.proxy("Latecomer")  # ... and as many rows as before
        seed.close()
        await pilot.press("r")
        await settle(pilot)
        listing = resource_list(app, "proxies")
        assert first["id"] not in [p["id"] for p in listing.items]
        assert cursor_name(app, "proxies") == name
        assert scroll_y(app, "proxies") == y


async def test_a_filtered_list_keeps_the_cursor_after_a_change(service, crowded):
    app = make_app(service.base_url, crowded.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("slash", *"Proxy 3")  # the live filter: Proxy 3, 30 ... 39
        listing = resource_list(app, "proxies")
        listing.focus_table()  # leaves the input, the filter stays
        await settle(pilot)
        assert len(listing.shown_items) == 10
        await pilot.press("G")
        assert cursor_name(app, "proxies") == "Proxy 39"
        await pilot.press("r")
        await settle(pilot)
        assert listing.live is not None
        assert cursor_name(app, "proxies") == "Proxy 39"


async def test_a_copy_to_another_profile_keeps_the_cursor(service):
    staging, prod = service.new_tenant("Staging"), service.new_tenant("Prod")
    seed = Seeder(service.base_url, staging.key)
    for n in range(3):
        seed.proxy(f"Edge {n}")
    seed.close()
    app = two_profile_app(
        ("staging", service.base_url, staging.key), ("prod", service.base_url, prod.key)
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("G")
        assert cursor_name(app, "proxies") == "Edge 2"
        await pilot.press("c")
        await wait_until(pilot, screen_is(app, TargetProfilePicker), what="the profile picker")
        await pilot.press("enter")
        await wait_until(pilot, screen_is(app, PlanScreen), what="the plan")
        plan = app.screen
        await wait_until(pilot, lambda: plan.plan is not None, what="the plan computed")
        await pilot.press("y")
        await back_on_console(pilot, app)
        assert cursor_name(app, "proxies") == "Edge 2"


async def test_a_row_on_a_later_page_keeps_the_cursor(service):
    """The pages loaded are all read again: the cursor on page 2 stays on its row."""
    tenant = service.new_tenant("Paged")
    seed = Seeder(service.base_url, tenant.key)
    for n in range(60):
        seed.proxy(f"Paged {n:02}")
    seed.close()
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("G")  # the last of page 1; page 2 comes as the cursor nears it
        await settle(pilot)
        await pilot.press("G")
        await settle(pilot)
        listing = resource_list(app, "proxies")
        assert listing.pages_fetched == [1, 2]
        await pilot.press("up")
        assert cursor_name(app, "proxies") == "Paged 58"
        y = scroll_y(app, "proxies")
        await pilot.press("r")
        await settle(pilot)
        assert listing.pages_fetched == [1, 2]
        assert cursor_name(app, "proxies") == "Paged 58"
        assert scroll_y(app, "proxies") == y
