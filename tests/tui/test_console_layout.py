"""Issue 13, part A: every view scrolls and fits at 80x24 and uses the width at 200x60; lists
and details answer j/k, g/G, ctrl+d/ctrl+u; lists sort and load to their real end; the footer
keeps its keys apart; a refused filter never shows as applied; details name applications."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from console_support import (
    JS,
    USAGE_KEY,
    Seeder,
    console,
    filter_list,
    make_app,
    notifications,
    open_first_detail,
    resource_list,
    settle,
)
from form_host import wait_until
from textual import events
from textual.pilot import Pilot

from console.tui.browse.kinds import APPLICATIONS
from console.tui.browse.sections import SECTIONS
from console.tui.palette.list_commands import ListCommands
from console.tui.widgets import list_paging as list_paging_module
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.row_table import RowTable

SMALL, MEDIUM, LARGE = (80, 24), (140, 45), (200, 60)

LONG_JS = (
    "module.exports = async function (req) {\n"
    + "".join(f"  const step{n} = req.args.value + {n};\n" for n in range(40))
    + "  return { raw: req.args };\n};\n"
)


@pytest.fixture
def tenant(service: Any) -> Iterator[tuple[Any, Seeder]]:
    info = service.new_tenant("Layout Corp")
    seeder = Seeder(service.base_url, info.key)
    try:
        yield info, seeder
    finally:
        seeder.close()


async def wait_for(pilot: Pilot[Any], condition: Any, what: str, rounds: int = 200) -> None:
    """Polls `condition` between frames, with a bound (no sleeps)."""
    for _ in range(rounds):
        if condition():
            return
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    raise AssertionError(f"never happened: {what}")


def key_line(app: Any) -> str:
    """The footer's line as drawn."""
    return app.screen.query_one(KeyBar).render_line(0).text


# ---- details ---------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [MEDIUM, SMALL], ids=["140x45", "80x24"])
async def test_detail_scrolls_by_keys_and_mouse_to_the_response_transform(
    service: Any, tenant: Any, size: tuple[int, int]
) -> None:
    info, seed = tenant
    seed.proxy("Both ways", request_transform={"code": LONG_JS}, response_transform={"code": JS})
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=size) as pilot:
        detail = await open_first_detail(pilot, "2")
        body = detail.query_one("#detail-body")
        assert app.focused is body
        response = detail.query("CodeView").last()
        assert response.border_title == "Response transforms, step 1"
        assert body.max_scroll_y > 0
        assert not body.scrollable_content_region.contains_region(response.region)

        await pilot.press("j", "j")
        assert body.scroll_y == 2
        await pilot.press("k")
        assert body.scroll_y == 1
        await pilot.press("ctrl+d")
        half = body.scrollable_content_region.height // 2
        assert body.scroll_y == 1 + half
        await pilot.press("ctrl+u")
        assert body.scroll_y == 1
        await pilot.press("pagedown")
        assert body.scroll_y > 1 + half
        await pilot.press("g")
        assert body.scroll_y == 0
        await pilot.press("G")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        # The whole response transform is on screen at the bottom.
        assert response.region.bottom <= body.region.bottom
        assert response.region.y >= body.region.y or size == SMALL
        await pilot.press("home")
        assert body.scroll_y == 0
        await pilot.press("end")
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("home", "down", "down")
        assert body.scroll_y == 2

        # The mouse wheel scrolls too.
        await pilot.press("home")
        for _ in range(3):
            body.post_message(events.MouseScrollDown(body, 2, 2, 0, 1, 0, False, False, False))
        await pilot.pause()
        assert body.scroll_y > 0


async def test_raw_json_is_v_and_j_scrolls(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.proxy("Json", request_transform={"code": LONG_JS})
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        detail = app.screen
        await pilot.press("j")
        assert not detail.query_one("#detail-json").display
        assert detail.query_one("#detail-body").scroll_y == 1
        await pilot.press("v")
        await pilot.pause()
        assert detail.query_one("#detail-json").display
        assert "v Raw JSON" in key_line(app)


async def test_detail_names_applications_beside_their_ids(service: Any, tenant: Any) -> None:
    info, seed = tenant
    backend = seed.application("Checkout backend")
    seed.proxy("Named", application={"id": backend["id"]})
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        fields = app.screen.fields_view  # type: ignore[attr-defined]
        # Created by the bootstrap key's application: its name, then its id.
        assert fields.value_of("Created by") == f"Bootstrap management  {info.application_id}"
        assert fields.value_of("Application") == f"Checkout backend  {backend['id']}"
        await pilot.press("escape", "1")
        await settle(pilot)
        await pilot.press("enter")  # the bootstrap application: made by the tenant's owner
        await settle(pilot)
        fields = app.screen.fields_view  # type: ignore[attr-defined]
        created_by = fields.value_of("Created by")
        assert "  " not in created_by  # an id that is no application stays a plain id


async def test_a_failed_name_lookup_leaves_the_detail_whole(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.proxy("Seen by a proxy reader")
    key = service.new_key(["proxy:read"], info.key)  # may not read applications
    app = make_app(service.base_url, key)
    async with app.run_test(size=LARGE) as pilot:
        detail = await open_first_detail(pilot, "2")
        assert detail.fields_view.value_of("Created by") == info.application_id
        assert detail.fields_view.value_of("Name") == "Seen by a proxy reader"


# ---- lists: keys, sorting, loading to the end ---------------------------------------------


async def small_pages(pilot: Pilot[Any], key: str, size: int) -> Any:
    """The list reloaded with pages of `size` rows."""
    listing = resource_list(pilot.app, key)
    listing.page_size = size
    listing.reload()
    await settle(pilot)
    return listing


def gate_pages(monkeypatch: pytest.MonkeyPatch, *, after: int = 0) -> asyncio.Event:
    """The applications' pages after page `after` wait for the returned event to be set."""
    gate = asyncio.Event()
    fetch = APPLICATIONS.fetch

    async def gated(client: Any, page: int, size: int, query: Any) -> Any:
        if page > after:
            await gate.wait()
        return await fetch(client, page, size, query)

    monkeypatch.setattr(APPLICATIONS, "fetch", gated)
    return gate


async def test_list_keys_move_and_g_twice_loads_to_the_real_end(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info, seed = tenant
    for n in range(29):
        seed.application(f"App {n:02}")
    monkeypatch.setattr(list_paging_module, "PREFETCH_MARGIN", 1)
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        listing = await small_pages(pilot, "applications", 5)
        table = listing.table
        assert listing.pages_fetched == [1] and len(listing.items) == 5
        await pilot.press("j", "j", "k")
        assert table.cursor_row == 1
        await pilot.press("ctrl+d")  # half a page (10 rows), within the 5 loaded
        assert table.cursor_row == 4
        await settle(pilot)  # the cursor neared the end: the next page came
        assert len(listing.items) == 10
        await pilot.press("ctrl+d")
        assert table.cursor_row == 9
        await pilot.press("ctrl+u")
        assert table.cursor_row == 0
        await pilot.press("j", "g")
        assert table.cursor_row == 0
        await settle(pilot)

        loaded = len(listing.items)
        await pilot.press("G")  # the last loaded row; it says there are more
        assert table.cursor_row == loaded - 1
        assert any("Press G again" in n for n in notifications(app))
        await settle(pilot)
        await pilot.press("G")  # again from there: every page, one by one, to the last
        await settle(pilot)
        assert listing.pages_fetched == [1, 2, 3, 4, 5, 6]
        assert len(listing.items) == 30 and not listing.has_more
        assert table.cursor_row == 29
        assert listing.current_row["name"] == "App 28"
        assert not listing.loading_to_end


async def test_loading_to_the_end_stops_on_escape(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info, seed = tenant
    for n in range(29):
        seed.application(f"App {n:02}")
    monkeypatch.setattr(list_paging_module, "PREFETCH_MARGIN", 1)
    gate = asyncio.Event()
    fetch = APPLICATIONS.fetch
    held: list[int] = []

    async def gated(client: Any, page: int, size: int, query: Any) -> Any:
        if page >= 3:
            held.append(page)
            await gate.wait()
        return await fetch(client, page, size, query)

    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        listing = await small_pages(pilot, "applications", 5)
        await pilot.press("G")
        await settle(pilot)
        monkeypatch.setattr(APPLICATIONS, "fetch", gated)
        await pilot.press("G")
        await pilot.pause()
        assert listing.loading_to_end
        assert "loading all (esc stops)" in listing.status_text
        assert "esc stops" in str(console(app).query_one("FooterBar #status").content)
        assert held == [3, 4, 5, 6], "several pages in flight at once"
        await pilot.press("escape")
        assert not listing.loading_to_end
        gate.set()
        await settle(pilot)
        assert listing.pages_fetched == [1, 2]  # escape cancelled every page in flight
        assert listing.has_more
        assert any("Stopped at" in n for n in notifications(app))
        # The footer's status gives the keys their room back.
        status = console(app).query_one("FooterBar #status")
        assert status.styles.width.value == len(listing.status_text) + 2  # type: ignore[union-attr]
        assert "? Help" in key_line(app)


async def test_every_list_sorts_by_a_column_and_says_so(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info, seed = tenant
    monkeypatch.setattr(list_paging_module, "PREFETCH_MARGIN", 1)
    for name in ("b-app", "A-app", "c-app", "App 10", "App 9"):
        seed.application(name)
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=LARGE) as pilot:
        await settle(pilot)
        await pilot.press("5")
        await settle(pilot)
        permissions = resource_list(app, "permissions")
        server_order = [p["type"] for p in permissions.items]
        await pilot.press("s")
        types = [p["type"] for p in permissions.items]
        assert types == sorted(server_order)
        assert notifications(app)[-1] == "Permissions: Sorted by Type ↑."
        assert "loaded rows" not in permissions.status_text  # all of them are loaded
        assert "Type ▲" in permissions.table.render_line(0).text
        await pilot.press("S")
        assert [p["type"] for p in permissions.items] == sorted(server_order, reverse=True)
        assert "Type ▼" in permissions.table.render_line(0).text
        # The cursor stays on its row, and enter opens what is highlighted.
        await pilot.press("down")
        highlighted = permissions.current_row
        await pilot.press("s")  # by Description now
        assert permissions.current_row is highlighted
        assert "Description ▲" in permissions.table.render_line(0).text

        await pilot.press("1")
        await settle(pilot)
        listing = await small_pages(pilot, "applications", 3)
        assert listing.has_more
        assert "loaded rows" not in listing.status_text  # server order: nothing to say
        gate = gate_pages(monkeypatch)  # page 2 waits: 3 rows sorted
        await pilot.press("s")
        assert notifications(app)[-1] == (
            "Applications: Sorted by Name ↑ · sorted: loaded rows only"
            " (3 of 6; ctrl+g loads all, then sorts)."
        )
        assert "3 of 6 loaded" in listing.status_text
        assert "sorted: loaded rows only" in listing.status_text
        gate.set()
        await settle(pilot)
        await pilot.press("G", "G")  # loads the rest: the new rows join the sort
        await settle(pilot)
        names = [a["name"] for a in listing.items]
        assert names == ["A-app", "App 9", "App 10", "b-app", "Bootstrap management", "c-app"]
        assert "loaded rows" not in listing.status_text
        for _ in range(len(APPLICATIONS.columns)):
            await pilot.press("s")
        assert listing.sort is None and "server order" in notifications(app)[-1]
        assert listing.items[0]["name"] == "Bootstrap management"


async def test_a_list_read_again_while_loading_all_pages_on_afterwards(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`r` while load all walks: the walk is cancelled and forgotten with its rows, and the
    list fetches its next page again when the cursor nears the end."""
    info, seed = tenant
    for n in range(11):
        seed.application(f"App {n:02}")
    monkeypatch.setattr(list_paging_module, "PREFETCH_MARGIN", 1)
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        listing = await small_pages(pilot, "applications", 3)
        assert listing.pages_fetched == [1] and listing.has_more
        gate = gate_pages(monkeypatch, after=1)
        await pilot.press("G", "G")  # load all: its walk waits for page 2
        await pilot.pause()
        assert listing.loading_to_end
        await pilot.press("r")  # read again: page 1 only, the walk cancelled and forgotten
        await wait_until(pilot, lambda: not listing.refreshing, what="the list read again")
        gate.set()
        assert not listing.loading_to_end and listing.pages_fetched == [1]

        await pilot.press("G")  # the last row: the next page comes
        await wait_until(
            pilot, lambda: listing.pages_fetched[:2] == [1, 2], what="the next page fetched"
        )


# ---- columns fit the width ---------------------------------------------------------------


async def test_columns_fit_80_and_use_200(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.application("An application with a rather long name indeed", expires_at=None)
    url = "https://api.example.com/v1/a/rather/long/path/to/the/destination/endpoint"
    seed.proxy("A proxy with a long name too", destination_url=url)
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        apps = resource_list(app, "applications").table
        assert apps.shown_columns == ("name", "type", "grants", "expires")
        assert apps.column_widths["expires"] == len("Expires") + 9  # a whole date
        header, first = apps.render_line(0).text, apps.render_line(1).text
        assert "Expires" in header and "never" in first
        assert "…" in apps.render_line(2).text  # the long name is cut, with an ellipsis
        await pilot.press("2")
        await settle(pilot)
        proxies = resource_list(app, "proxies").table
        assert proxies.shown_columns == ("name", "destination", "auth", "application")
        await pilot.press("5")
        await settle(pilot)
        permissions = resource_list(app, "permissions").table
        assert "types" in permissions.shown_columns
        assert "Application types" in permissions.render_line(0).text

        await pilot.resize_terminal(*LARGE)
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        assert proxies.shown_columns == ("name", "destination", "auth", "application", "created")
        assert url in proxies.render_line(1).text  # the extra width went to the URL
        await pilot.press("1")
        await pilot.pause()
        assert "An application with a rather long name indeed" in apps.render_line(2).text
        assert "created" in apps.shown_columns


# ---- header, footer, help, usage at 80x24 ------------------------------------------------


async def test_header_keeps_six_sections_and_the_usage_at_80(service: Any, tenant: Any) -> None:
    info, _seed = tenant
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: bool(app.usage_line), "the usage summary")
        await pilot.pause()
        header = console(app).header
        first, tabs = header.render().plain.split("\n")
        assert "Layout Corp" in first and "test" in first
        assert app.usage_line in first
        for section in SECTIONS:  # every section's number key (Usage's is 0)
            assert f" {section.hotkey} " in tabs
        # Too many sections for their short titles: numbers, the current one named.
        assert "Apps" in tabs and "Proxies" not in tabs
        assert len(tabs) <= 78


async def test_footer_keeps_help_and_the_lists_keys_apart(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.application("One")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        line = key_line(app)
        # ? stays; the list's change keys before the keys every screen has (issue 33); a
        # group's label never runs into the next key.
        assert "? Help" in line and "n e d R New/Edit/Del/Regen " in line
        assert re.search(r"/(Del|Rev|Regen)[^ /]", line) is None
        await pilot.press("enter")
        await settle(pilot)
        assert "? Help" in key_line(app) and "esc Back" in key_line(app)
        await pilot.press("escape")
        await pilot.press("6")
        await settle(pilot)
        line = key_line(app)
        assert " e d Edit/Del " in line and "n e d" not in line  # only the keys offered
        assert "? Help q Quit" in line  # room left: the everywhere keys take it

        await pilot.press("e")
        await wait_for(pilot, lambda: type(app.screen).__name__ == "TenantForm", "the form")
        await pilot.pause()
        app.screen.query_one("#name").value = "Layout Corp renamed"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is console(app), "the form closing")
        await settle(pilot)
        tenant_view = console(app).section_widget("tenant")
        await wait_for(pilot, lambda: tenant_view.tenant is not None, "the tenant reloaded")
        await pilot.pause()
        assert tenant_view.tenant.name == "Layout Corp renamed"
        await settle(pilot)  # the names of the applications among its ids
        modified_by = tenant_view.query_one("FieldsView").value_of("Modified by")
        assert modified_by == f"Bootstrap management  {info.application_id}"
        line = key_line(app)
        assert " e d Edit/Del " in line and "n e d" not in line  # only the keys offered


async def test_help_scrolls_at_80x24(service: Any, tenant: Any) -> None:
    info, _seed = tenant
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        dialog = app.screen.query_one("#help-dialog")
        assert app.focused is dialog
        assert dialog.max_scroll_y > 0
        await pilot.press("G")
        await pilot.pause()
        assert dialog.scroll_y == dialog.max_scroll_y
        await pilot.press("k")
        assert dialog.scroll_y == dialog.max_scroll_y - 1
        await pilot.press("g")
        assert dialog.scroll_y == 0


async def test_usage_last_panel_is_a_key_away_at_80x24(start_service: Any) -> None:
    demo = start_service(demo_data=True, frozen_now="2026-11-22T10:00:00+00:00")
    app = make_app(demo.base_url, demo.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        report = console(app).query_one("#usage-report")
        chart = console(app).query_one("#usage-history")  # the last panel: usage over time
        assert app.focused is report
        assert report.max_scroll_y > 0
        assert chart.region.bottom > report.region.bottom  # out of sight at first
        await pilot.press("G")
        await pilot.pause()
        assert report.scroll_y == report.max_scroll_y
        assert report.region.contains_region(chart.region)
        await pilot.press("g", "j")
        assert report.scroll_y == 1
        table = console(app).query_one("#usage-table")
        panel = console(app).query_one("#usage-table-panel")
        # The tokens table is whole (its Last created column was cut at the right).
        assert table.virtual_size.width <= table.region.width
        assert table.region.right < panel.region.right


# ---- a refused filter ----------------------------------------------------------------------


async def test_a_refused_filter_never_shows_as_applied(service: Any, tenant: Any) -> None:
    info, seed = tenant
    backend = seed.application("Checkout backend")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        listing = resource_list(app, "applications")
        # A name now filters the loaded rows and searches the tenant: a filter the console
        # refuses is a column that does not exist, matching no row.
        await filter_list(pilot, "colour:red")
        field = listing.filter_input
        assert field.has_class("-refused") and field.value == "colour:red"
        assert app.focused is field  # still there to be corrected
        assert any("“colour:red” was not applied" in n for n in notifications(app))
        assert any("no column “colour”" in n for n in notifications(app))
        assert len(listing.items) == 2 and len(listing.shown_items) == 2
        field.value = "colour:red2"
        await pilot.pause()
        assert not field.has_class("-refused")  # edited: no longer the refused text

        await filter_list(pilot, backend["id"])  # a good filter applies
        assert [a["name"] for a in listing.items] == ["Checkout backend"]
        await filter_list(pilot, "id:nope")  # an id filter needs a whole id
        assert field.has_class("-refused")
        await pilot.click(RowTable)  # leaving the input: it shows the filter in force
        await pilot.pause()
        assert field.value == backend["id"] == listing.filter_text
        assert not field.has_class("-refused")
        assert [a["name"] for a in listing.items] == ["Checkout backend"]


async def test_the_palette_loads_a_list_to_its_end_and_sorts_it(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info, seed = tenant
    for n in range(11):
        seed.application(f"App {n:02}")
    monkeypatch.setattr(list_paging_module, "PREFETCH_MARGIN", 1)
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        listing = await small_pages(pilot, "applications", 4)
        assert listing.has_more

        provider = ListCommands(app.screen)
        found = [str(hit.text) async for hit in provider.discover()]
        assert found[0] == "Load the rest of Applications"
        assert "Sort Applications by Expires ↓" in found

        async def command(text: str) -> None:
            hits = [hit async for hit in provider.search(text)]
            assert hits, text
            best = max(hits, key=lambda hit: hit.score)
            assert str(best.text) == text
            best.command()
            await settle(pilot)

        await command("Load the rest of Applications")
        assert listing.pages_fetched == [1, 2, 3] and not listing.has_more
        assert listing.table.cursor_row == 11
        await command("Sort Applications by Name ↓")
        assert listing.sort == (0, True)
        assert listing.items[0]["name"] == "Bootstrap management"
