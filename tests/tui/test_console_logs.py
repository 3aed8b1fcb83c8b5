"""The console's Logs section against the real local service: newest first, filters (the
service's and the console's actor filter), following new entries without moving the cursor
and pausing while hidden, enter opening an entry's object, `L` opening an object's logs, and
every entry read kept in the profile's archive."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from console_support import (
    SIZE,
    Seeder,
    console,
    filter_list,
    footer_status,
    make_app,
    notifications,
    settle,
)
from form_host import wait_until

from console.client import AdminClient
from console.clock import FROZEN_NOW_ENV
from console.tui.browse.logs_look import FOLLOW_KEY, LOGS, filter_query
from console.tui.browse.sections import SECTIONS_BY_KEY
from console.tui.screens.detail import DetailScreen
from console.tui.widgets.log_list import LogList


@pytest.fixture
def tenant(service: Any) -> Iterator[tuple[Any, Seeder]]:
    info = service.new_tenant("Logs Corp")
    seeder = Seeder(service.base_url, info.key)
    try:
        yield info, seeder
    finally:
        seeder.close()


LOGS_NUMBER = str(SECTIONS_BY_KEY[LOGS.key].number)


async def open_logs(pilot: Any) -> LogList:
    await settle(pilot)
    await pilot.press(LOGS_NUMBER)
    await settle(pilot)
    widget = console(pilot.app).find_section(LOGS.key)
    assert isinstance(widget, LogList)
    await wait_until(pilot, lambda: widget.loaded, what="the logs")
    return widget


def messages(widget: LogList) -> list[str]:
    return [str(item.get("message")) for item in widget.shown_items]


# ---- the filter, read -----------------------------------------------------------------------


def test_filter_words_become_the_services_filters_and_the_consoles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    query = filter_query("type:proxy actor:Checkout since:2026-11-28T10:00:00Z")
    assert query == {
        "entity_type": "proxy",
        "actor": "Checkout",
        "start_date": "2026-11-28T10:00:00Z",
    }
    assert filter_query("checkout") is None  # plain text: the loaded rows, as typed
    entity = "6f1c3a52-7c1e-4a57-9d6f-0b1b2f0d9a11"
    assert filter_query(f"entity:{entity}") == {"entity_id": entity}
    assert filter_query("entity:Card intake") == {"entity": "Card", "text": "intake"}
    assert filter_query('entity:"Card intake"') == {"entity": "Card intake"}
    # a span back from now, as `logs --since` takes it
    monkeypatch.setenv(FROZEN_NOW_ENV, "2026-11-28T10:00:00+00:00")
    assert filter_query("since:24h") == {"start_date": "2026-11-27T10:00:00Z"}


def test_a_bad_date_is_refused_with_its_word():
    from console.tui.browse.looks import FilterInvalid

    with pytest.raises(FilterInvalid, match="since:"):
        filter_query("since:yesterday")


# ---- the list ---------------------------------------------------------------------------------


async def test_entries_show_newest_first_with_names(service: Any, tenant: Any) -> None:
    info, seed = tenant
    app_made = seed.application("Checkout backend")
    proxy = seed.proxy("Card intake")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        assert messages(widget)[:2] == ["Proxy created", "Application created"]
        times = [item["created_at"] for item in widget.items]
        assert times == sorted(times, reverse=True)
        first = [str(cell) for cell in widget.rows[0]]
        assert "Card intake" in first  # the entity by its name
        assert "Proxy" in first
        ids = {item["entity_id"] for item in widget.items}
        assert {app_made["id"], proxy["id"]} <= ids
        assert "loaded" in footer_status(app)


async def test_filters_by_entity_type_and_by_actor(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.application("Checkout backend")
    seed.proxy("Card intake")
    seed.proxy("Refunds")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        await filter_list(pilot, "type:proxy")
        await wait_until(pilot, lambda: widget.loaded and not widget.fetching, what="filter")
        assert messages(widget) == ["Proxy created", "Proxy created"]
        assert widget.query_params == {"entity_type": "proxy"}

        # The actor: filtered by the console (the service has none), by name or id.
        await filter_list(pilot, "actor:nobody-at-all")
        await wait_until(pilot, lambda: widget.loaded and not widget.fetching, what="filter")
        assert widget.shown_items == []
        await filter_list(pilot, "actor:Bootstrap")
        await wait_until(pilot, lambda: widget.loaded and not widget.fetching, what="filter")
        assert len(widget.shown_items) == 3
        assert "filtered here" in widget.kind.filter_placeholder


# ---- following --------------------------------------------------------------------------------


async def test_following_shows_a_new_entry_at_the_top_and_pauses_while_hidden(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info, seed = tenant
    seed.application("Checkout backend")
    seed.proxy("Card intake")
    seed.proxy("Refunds")
    monkeypatch.setattr(LogList, "follow_interval", 0.05)
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        await pilot.press("j")  # the cursor on the second entry
        on = widget.current_row
        assert on is not None and on["message"] == "Proxy created"
        await pilot.press(FOLLOW_KEY)  # settle() would wait for the follower: it never ends
        await pilot.pause()
        assert widget.following
        assert "following" in footer_status(app)

        async with AdminClient(service.base_url, info.key) as client:
            made = await client.applications.create(
                {"name": "Followed", "type": "private", "permissions": ["token:read"]}
            )
        await wait_until(
            pilot, lambda: widget.items[0].get("entity_id") == str(made.id), what="new entry"
        )
        assert messages(widget)[0] == "Application created"
        assert widget.current_row is on  # the cursor stayed on its entry
        assert widget.table.cursor_row == 2

        # Hidden (another section): no read goes out; shown again, reads resume.
        await pilot.press("1")
        await wait_until(pilot, lambda: not widget.shown_now(), what="hidden")
        reads, ticks = widget.follow_reads, widget.follow_ticks
        await wait_until(pilot, lambda: widget.follow_ticks >= ticks + 5, what="intervals")
        assert widget.follow_reads <= reads + 1  # one read may have been under way
        hidden_reads = widget.follow_reads
        await pilot.press(LOGS_NUMBER)
        await wait_until(pilot, lambda: widget.follow_reads > hidden_reads, what="resumed")

        # A detail above the console: paused too.
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailScreen), what="detail")
        reads, ticks = widget.follow_reads, widget.follow_ticks
        await wait_until(pilot, lambda: widget.follow_ticks >= ticks + 5, what="intervals")
        assert widget.follow_reads <= reads + 1
        await pilot.press("escape")
        await wait_until(pilot, widget.shown_now, what="shown")

        await pilot.press(FOLLOW_KEY)
        await pilot.pause()
        assert not widget.following
        assert "following" not in footer_status(app)


async def test_every_entry_read_is_kept_in_the_profiles_archive(service: Any, tenant: Any) -> None:
    from console.audit.archive import LogArchive

    info, seed = tenant
    seed.proxy("Card intake")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        await settle(pilot)
        shown = {item["id"] for item in widget.items}
    archive = LogArchive.open("test")
    try:
        kept = {entry.id for entry in archive.query()}
    finally:
        archive.close()
    assert shown and shown <= kept


# ---- opening --------------------------------------------------------------------------------


async def test_enter_opens_the_entrys_object_and_says_when_it_is_gone(
    service: Any, tenant: Any
) -> None:
    info, seed = tenant
    gone = seed.application("Gone soon")
    seed.delete(f"/applications/{gone['id']}")
    proxy = seed.proxy("Card intake")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        assert messages(widget)[0] == "Proxy created"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailScreen), what="detail")
        detail = app.screen
        assert isinstance(detail, DetailScreen)
        assert detail.kind.key == "proxies"
        assert detail.item_id == proxy["id"]
        await wait_until(pilot, lambda: detail.item is not None, what="the proxy")
        await pilot.press("escape")
        await settle(pilot)

        # The deleted application's entry: its detail says it is not found.
        row = next(
            n for n, item in enumerate(widget.shown_items) if item["entity_id"] == gone["id"]
        )
        widget.table.move_cursor(row=row)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailScreen), what="detail")
        detail = app.screen
        assert isinstance(detail, DetailScreen)
        await settle(pilot)
        from console.tui.widgets.state_panel import StatePanel

        panel = detail.query_one(StatePanel)
        await wait_until(pilot, lambda: panel.kind == "error", what="the problem")
        assert "Not found (404)" in panel.title_text
        assert any("was deleted" in note for note in notifications(app)), notifications(app)


async def test_l_on_a_proxy_opens_its_logs(service: Any, tenant: Any) -> None:
    info, seed = tenant
    proxy = seed.proxy("Card intake")
    seed.proxy("Refunds")
    seed.http.put(
        f"/proxies/{proxy['id']}",
        json={"name": "Card intake v2", "destination_url": "https://example.com/hook"},
    ).raise_for_status()
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(str(SECTIONS_BY_KEY["proxies"].number))
        await settle(pilot)
        await pilot.press("L")
        await settle(pilot)
        screen = console(app)
        assert screen.current == LOGS.key
        widget = screen.find_section(LOGS.key)
        assert isinstance(widget, LogList)
        await wait_until(pilot, lambda: widget.loaded and not widget.fetching, what="logs")
        assert widget.query_params == {"entity_type": "proxy", "entity_id": proxy["id"]}
        assert messages(widget) == ["Proxy updated", "Proxy created"]

        # From a detail too: the detail closes, the Logs section shows its entries.
        await pilot.press(str(SECTIONS_BY_KEY["proxies"].number))
        await settle(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailScreen), what="detail")
        await settle(pilot)
        await pilot.press("L")
        await wait_until(pilot, lambda: app.screen is screen, what="the console")
        await wait_until(pilot, lambda: widget.loaded and not widget.fetching, what="logs")
        assert screen.current == LOGS.key
        assert widget.query_params["entity_type"] == "proxy"


async def test_an_entry_of_a_type_without_a_section_opens_its_own_detail(
    service: Any, tenant: Any
) -> None:
    """The hosted service logs types this console has no section for (a token, say): enter
    shows the entry itself, every field escaped."""
    info, seed = tenant
    seed.proxy("Card intake")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        entry = {
            "id": "0b7e3c1e-5a8f-4d0a-9a55-3f1f8f1d2c11",
            "tenant_id": info.tenant_id,
            "actor_id": info.application_id,
            "actor_type": "application",
            "entity_type": "token",
            "entity_id": "tok\x1b[31m-1",
            "operation": "create",
            "message": "Token created\x1b]0;pwned\x07",
            "created_at": "2099-01-01T00:00:00+00:00",
        }
        widget.add_new([entry])
        await pilot.pause()
        assert widget.current_row is not entry  # the cursor stayed on the entry it was on
        widget.table.move_cursor(row=0)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailScreen), what="detail")
        detail = app.screen
        assert isinstance(detail, DetailScreen)
        assert detail.kind is LOGS
        await settle(pilot)
        shown = dict(detail.fields_view.fields)
        assert str(shown["Message"]) == "Token created\\x1b]0;pwned\\x07"
        assert str(shown["Entity type"]) == "Token"
        assert "\x1b" not in str(shown["Entity"])


async def test_l_in_the_tenant_section_opens_the_tenants_logs(service: Any, tenant: Any) -> None:
    info, seed = tenant
    seed.http.put("/tenants/self", json={"name": "Logs Corp renamed"}).raise_for_status()
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(str(SECTIONS_BY_KEY["tenant"].number))
        await settle(pilot)
        await pilot.press("L")
        await settle(pilot)
        widget = console(app).find_section(LOGS.key)
        assert isinstance(widget, LogList)
        await wait_until(pilot, lambda: widget.loaded and not widget.fetching, what="logs")
        assert widget.query_params == {"entity_type": "tenant", "entity_id": info.tenant_id}
        assert messages(widget) == ["Tenant updated"]
        assert "Logs Corp renamed" in [str(cell) for cell in widget.rows[0]]  # by its name


async def test_later_pages_follow_the_cursor_without_repeats(service: Any, tenant: Any) -> None:
    info, seed = tenant
    for n in range(60):
        seed.proxy(f"Proxy {n:02}")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        assert len(widget.items) == widget.page_size and widget.has_more
        widget.load_to_end()
        await wait_until(pilot, lambda: not widget.has_more and not widget.fetching, what="all")
        ids = [item["entity_id"] for item in widget.items]
        assert len(ids) == 60 and len(set(ids)) == 60
        times = [item["created_at"] for item in widget.items]
        assert times == sorted(times, reverse=True)


async def test_users_and_members_are_named_by_their_email(service: Any) -> None:
    """A user who acted (accepting an invitation) and the member changed show by e-mail, read
    once from the members list, not as `user <id>`."""
    from people_tenant import PeopleTenant

    people = PeopleTenant.make(service, "Logs People")
    joined = people.member("grace@example.com", "READ_ONLY")
    app = make_app(service.base_url, people.key)
    async with app.run_test(size=SIZE) as pilot:
        widget = await open_logs(pilot)
        created = next(
            (i, item)
            for i, item in enumerate(widget.items)
            if item["entity_type"] == "tenant_member" and item["operation"] == "create"
        )
        index, entry = created
        assert entry["actor_id"] == joined.user_id and entry["actor_type"] == "user"
        cells = [str(cell) for cell in widget.rows[index]]
        assert cells.count("grace@example.com") == 2  # the entity and the actor
        assert not any(joined.user_id in cell for cell in cells)
