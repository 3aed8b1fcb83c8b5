"""How the console starts: the first page is asked for before the list is composed, without
the client, and the five hidden sections are composed on their first visit, not at start."""

from __future__ import annotations

import time
from typing import Any

import pytest
from console_support import SIZE, USAGE_KEY, Seeder, console, make_app, resource_list, settle

import console.tui.app as app_module
from console.client import plain_get
from console.tui.app import default_client
from console.tui.screens.help import HelpScreen
from console.tui.widgets.resource_list import ResourceList

Calls = list[tuple[str, int, bool]]


def composed(app_box: list[Any]) -> bool:
    screen = app_box[0].console_screen
    return screen is not None and bool(screen.query(ResourceList))


def recording_client(calls: Calls, app_box: list[Any]) -> Any:
    """The real client, noting for each `applications.page_json` its page and whether the
    Applications list was already composed when the request started."""

    def factory(base_url: str, key: str) -> Any:
        client = default_client(base_url, key)
        original = client.applications.page_json

        async def page_json(*args: Any, **kwargs: Any) -> Any:
            calls.append(("client", kwargs.get("page", args[0] if args else 1), composed(app_box)))
            return await original(*args, **kwargs)

        client.applications.page_json = page_json
        return client

    return factory


def record_plain_reader(
    calls: Calls, app_box: list[Any], monkeypatch: pytest.MonkeyPatch, *, works: bool = True
) -> None:
    """Notes each page plain_get reads (in its thread); with `works=False` it gets no answer."""
    original = plain_get.read_page

    def read_page(base_url: str, key: str, path: str, page: int, size: int, **options: Any) -> Any:
        calls.append(("plain", page, composed(app_box)))
        return original(base_url, key, path, page, size, **options) if works else None

    monkeypatch.setattr(plain_get, "read_page", read_page)


async def test_the_first_page_is_requested_before_the_list_is_composed(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Startup Corp")
    seed = Seeder(service.base_url, info.key)
    try:
        seed.application("Early bird")
    finally:
        seed.close()
    calls: Calls = []
    box: list[Any] = []
    record_plain_reader(calls, box, monkeypatch)
    app = make_app(service.base_url, info.key, client_factory=recording_client(calls, box))
    box.append(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        applications = resource_list(app, "applications")
        assert "Early bird" in [a["name"] for a in applications.items]
        assert applications.pages_fetched == [1]
        assert calls == [("plain", 1, False)]  # one request, before the list, no client
        await pilot.press("r")  # a refresh asks the client, with the list on screen
        await settle(pilot)
        assert calls == [("plain", 1, False), ("client", 1, True)]
        assert applications.pages_fetched == [1]


async def test_the_client_asks_when_the_plain_reader_gets_no_answer(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Fallback Corp")
    calls: Calls = []
    box: list[Any] = []
    record_plain_reader(calls, box, monkeypatch, works=False)
    app = make_app(service.base_url, info.key, client_factory=recording_client(calls, box))
    box.append(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        applications = resource_list(app, "applications")
        assert [a["name"] for a in applications.items]  # the bootstrap application
        assert calls == [("plain", 1, False), ("client", 1, True)]
        assert app.console_screen is not None and app.console_screen.header.tenant


async def test_the_header_waits_for_the_first_rows(service: Any) -> None:
    """The tenant's name is asked for once the rows are on screen, and fills the header."""
    info = service.new_tenant("Header Corp")
    rows_shown_when_asked: list[bool] = []
    box: list[Any] = []

    def factory(base_url: str, key: str) -> Any:
        client = default_client(base_url, key)
        original = client.tenant.get

        async def get() -> Any:
            rows_shown_when_asked.append(bool(resource_list(box[0], "applications").items))
            return await original()

        client.tenant.get = get
        return client

    app = make_app(service.base_url, info.key, client_factory=factory)
    box.append(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert rows_shown_when_asked == [True]
        assert console(app).header.tenant == "Header Corp"


async def test_hidden_sections_are_composed_on_their_first_visit(service: Any) -> None:
    info = service.new_tenant("Lazy Corp")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = console(app)
        assert [w.id for w in screen.query("#sections > *")] == ["applications"]
        assert screen.find_section("usage") is None
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        assert [w.id for w in screen.query("#sections > *")] == ["applications", "usage"]
        usage = screen.find_section("usage")
        assert usage is not None and usage.display and usage.loaded
        await pilot.press("2")
        await settle(pilot)
        proxies = resource_list(app, "proxies")
        assert proxies.display and proxies.loaded and not usage.display
        assert app.focused is proxies or app.focused is proxies.table
        await pilot.press(USAGE_KEY)  # a second visit reuses the section
        await settle(pilot)
        assert screen.find_section("usage") is usage and usage.display
        assert len(screen.query("#sections > *")) == 3


async def test_the_other_screens_styles_are_read_when_the_first_one_opens(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """later.tcss (detail, dialogs, forms, help, the Tenant and Usage sections) is not
    parsed on the way to the first rows (issue 15): the first other screen reads it before
    it is styled, through Textual's App._load_screen_css (an internal: see the README's
    upgrade checklist)."""
    monkeypatch.setattr(app_module, "LATER_STYLES_DELAY", 600.0)  # no early read here
    info = service.new_tenant("Styles Corp")
    Seeder(service.base_url, info.key).application("Styled")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert resource_list(app, "applications").items
        assert not app.stylesheet.has_source(app_module.LATER_CSS)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert app.stylesheet.has_source(app_module.LATER_CSS)
        dialog = app.screen.query_one("#help-dialog")
        # #help-dialog: the whole width (its columns of keys follow it), up to 196 cells.
        assert dialog.styles.width is not None and dialog.styles.width.value == 100
        assert dialog.styles.max_width is not None and dialog.styles.max_width.value == 196
        assert app.screen.styles.align == ("center", "middle")  # HelpScreen


async def test_the_sections_styles_are_read_on_their_first_visit(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Usage section, composed on its first visit, is laid out by later.tcss: the
    console reads it before composing the section."""
    monkeypatch.setattr(app_module, "LATER_STYLES_DELAY", 600.0)
    info = service.new_tenant("Section Styles Corp")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.stylesheet.has_source(app_module.LATER_CSS)
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        usage = console(app).find_section("usage")
        assert usage is not None and usage.display
        assert app.stylesheet.has_source(app_module.LATER_CSS)
        assert usage.styles.padding.top == 1 and usage.styles.padding.left == 0  # UsageView


async def test_the_other_screens_styles_are_read_a_moment_after_start(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no other screen opened, later.tcss is read LATER_STYLES_DELAY after mount, so
    that the first dialog does not wait for it."""
    monkeypatch.setattr(app_module, "LATER_STYLES_DELAY", 0.05)
    info = service.new_tenant("Later Styles Corp")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        deadline = time.monotonic() + 10
        while not app.stylesheet.has_source(app_module.LATER_CSS):
            assert time.monotonic() < deadline, "later.tcss was never read"
            await pilot.pause(0.05)
