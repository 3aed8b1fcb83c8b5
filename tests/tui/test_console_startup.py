"""How the console starts: the first page is asked for before the list is composed, and the
five hidden sections are composed on their first visit, not at start."""

from __future__ import annotations

from typing import Any

from console_support import SIZE, Seeder, console, make_app, resource_list, settle

from console.tui.app import default_client
from console.tui.widgets.resource_list import ResourceList


def recording_client(calls: list[tuple[int, bool]], app_box: list[Any]) -> Any:
    """The real client, noting for each `applications.list` its page and whether the
    Applications list was already composed when the request started."""

    def factory(base_url: str, key: str) -> Any:
        client = default_client(base_url, key)
        original = client.applications.list

        async def list_(*args: Any, **kwargs: Any) -> Any:
            screen = app_box[0].console_screen
            composed = screen is not None and bool(screen.query(ResourceList))
            calls.append((kwargs.get("page", args[0] if args else 1), composed))
            return await original(*args, **kwargs)

        client.applications.list = list_
        return client

    return factory


async def test_the_first_page_is_requested_before_the_list_is_composed(service: Any) -> None:
    info = service.new_tenant("Startup Corp")
    seed = Seeder(service.base_url, info.key)
    try:
        seed.application("Early bird")
    finally:
        seed.close()
    calls: list[tuple[int, bool]] = []
    box: list[Any] = []
    app = make_app(service.base_url, info.key, client_factory=recording_client(calls, box))
    box.append(app)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        applications = resource_list(app, "applications")
        assert "Early bird" in [a.name for a in applications.items]
        assert applications.pages_fetched == [1]
        assert calls == [(1, False)]  # one request, made before the list existed
        await pilot.press("r")  # a refresh asks again, with the list on screen
        await settle(pilot)
        assert calls == [(1, False), (1, True)]
        assert applications.pages_fetched == [1]


async def test_hidden_sections_are_composed_on_their_first_visit(service: Any) -> None:
    info = service.new_tenant("Lazy Corp")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = console(app)
        assert [w.id for w in screen.query("#sections > *")] == ["applications"]
        assert screen.find_section("usage") is None
        await pilot.press("6")
        await settle(pilot)
        assert [w.id for w in screen.query("#sections > *")] == ["applications", "usage"]
        usage = screen.find_section("usage")
        assert usage is not None and usage.display and usage.loaded
        await pilot.press("2")
        await settle(pilot)
        proxies = resource_list(app, "proxies")
        assert proxies.display and proxies.loaded and not usage.display
        assert app.focused is proxies or app.focused is proxies.table
        await pilot.press("6")  # a second visit reuses the section
        await settle(pilot)
        assert screen.find_section("usage") is usage and usage.display
        assert len(screen.query("#sections > *")) == 3
