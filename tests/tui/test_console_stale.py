"""After a failure nothing on screen claims to be current: stale lists and tenant say when
they were loaded, the header drops what it cannot confirm, the demo notices its service
stopped, and relative times move on while a screen stays open."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from console_support import (
    SIZE,
    Seeder,
    console,
    make_app,
    notifications,
    open_first_detail,
    resource_list,
    settle,
)

from console.client import AdminClient
from console.client._http import NO_RETRY
from console.tui.app import TenantConsoleApp
from console.tui.base.connection import Connection
from console.tui.start.demo import DemoService
from console.tui.widgets.section_loader import StaleBanner


def quick_client(base_url: str, key: str) -> AdminClient:
    return AdminClient(base_url, key, retry=NO_RETRY)


async def test_lists_and_header_say_they_are_stale_once_the_service_dies(
    fresh_service: Any,
) -> None:
    app = make_app(fresh_service.base_url, fresh_service.key, client_factory=quick_client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        header = console(app).header
        assert header.tenant and app.usage_line
        assert not console(app).query(StaleBanner)

        fresh_service.stop()
        await pilot.press("r")  # the tenant's refresh fails
        await settle(pilot)
        assert app.usage_line == ""  # no usage kept from before
        assert "unreachable" in header.notice
        assert "unreachable" in header.render().plain
        await pilot.press("1")
        await settle(pilot)
        applications = resource_list(app, "applications")
        assert applications.items  # still shown, as last loaded ...
        banner = applications.query_one(StaleBanner)  # ... and saying so
        loaded = applications.loaded_at
        assert loaded is not None
        assert f"Stale — last loaded {loaded.astimezone():%H:%M}" in str(banner.content)
        assert "refresh failed" in str(banner.content)
        assert resource_list(app, "proxies").query(StaleBanner)

        fresh_service.start()
        await pilot.press("r")
        await settle(pilot)
        assert not applications.query(StaleBanner)
        assert header.notice == ""
        assert app.usage_line


async def test_the_demo_notices_that_its_service_stopped() -> None:
    service = DemoService(demo_data=False).start()
    try:
        assert service.key
        connection = Connection("demo", service.base_url, service.key)
        app = TenantConsoleApp(
            connection=connection, client_factory=quick_client, demo_service=service
        )
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.demo_watch.watch()
            assert not any("stopped" in n for n in notifications(app))
            process = service._process
            assert process is not None
            process.kill()
            process.wait(timeout=10)
            app.demo_watch.watch()  # what the app's timer calls
            await pilot.pause()
            said = [n for n in notifications(app) if "Demo service stopped" in n]
            assert len(said) == 1 and "exit code" in said[0]
            assert "stopped" in console(app).header.notice
            app.demo_watch.watch()
            assert len([n for n in notifications(app) if "Demo service stopped" in n]) == 1
    finally:
        service.stop()


async def test_relative_times_move_on_while_a_screen_stays_open(
    service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = service.new_tenant("Clockwork")
    seed = Seeder(service.base_url, info.key)
    seed.proxy("Ticking")
    seed.close()
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_first_detail(pilot, "2")
        assert "just now" in detail.fields_view.value_of("Created")

        later = datetime.now(UTC) + timedelta(minutes=3, seconds=30)
        monkeypatch.setenv("TENANT_CONSOLE_FROZEN_NOW", later.isoformat())
        app.refresh_times()  # what the app's timer calls
        assert "3 minutes ago" in detail.fields_view.value_of("Created")
