"""Every failure shows a clear message in place and a notification, with r to retry."""

from __future__ import annotations

from typing import Any

import httpx
from console_support import (
    SIZE,
    Seeder,
    console,
    make_app,
    notifications,
    resource_list,
    settle,
    type_into,
)

from console.client import AdminClient
from console.client._http import NO_RETRY
from console.client.budget import RequestBudget
from console.tui.screens.detail import DetailScreen
from console.tui.screens.profiles import KeyPrompt
from console.tui.widgets.section_loader import StaleBanner
from console.tui.widgets.state_panel import StatePanel
from console.tui.widgets.tenant_view import TenantView


def problem_of(app: Any, key: str) -> StatePanel:
    panel = console(app).section_widget(key).query_one(StatePanel)
    assert panel.kind == "error", f"{key} shows {panel.kind}"
    return panel


async def test_rejected_key_offers_a_new_one(service: Any) -> None:
    info = service.new_tenant("Rejected Key")
    app = make_app(service.base_url, "not-a-valid-key-" + "x" * 20)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = problem_of(app, "applications")
        assert "401" in panel.title_text
        assert "Press K" in str(panel.query_one(".state-hint").content)
        assert any("401" in n for n in notifications(app))
        assert app.key_rejected
        await pilot.press("K")
        await pilot.pause()
        assert isinstance(app.screen, KeyPrompt)
        await type_into(pilot, info.key)
        await settle(pilot)
        assert not app.key_rejected
        assert [a["name"] for a in resource_list(app, "applications").items]
        assert console(app).header.tenant == "Rejected Key"
        assert app.connection is not None and app.connection.key == info.key


async def test_a_key_lacking_a_permission_says_which(service: Any) -> None:
    info = service.new_tenant("Narrow Key")
    key = service.new_key(["application:read"], tenant_key=info.key)
    app = make_app(service.base_url, key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert resource_list(app, "applications").items
        await pilot.press("2")
        await settle(pilot)
        panel = problem_of(app, "proxies")
        assert "403" in panel.title_text
        assert "proxy:read" in panel.message_text
        assert any("proxy:read" in n for n in notifications(app))
        await pilot.press("r")
        await settle(pilot)
        assert "proxy:read" in problem_of(app, "proxies").message_text
        await pilot.press("6")
        await settle(pilot)
        assert "tenant:read" in problem_of(app, "tenant").message_text
        await pilot.press("5")  # needs no permission
        await settle(pilot)
        # 35: webhook:read, create, update, delete among them (#37)
        assert len(resource_list(app, "permissions").items) == 35
        assert app.is_running


async def test_an_object_gone_meanwhile_is_not_found(service: Any) -> None:
    info = service.new_tenant("Gone Corp")
    seed = Seeder(service.base_url, info.key)
    proxy = seed.proxy("Soon gone")
    app = make_app(service.base_url, info.key)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("2")
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, DetailScreen)
            seed.delete(f"/proxies/{proxy['id']}")
            await pilot.press("r")
            await settle(pilot)
            panel = app.screen.query_one(StatePanel)
            assert panel.kind == "error" and "404" in panel.title_text
            assert any("404" in n for n in notifications(app))
    finally:
        seed.close()


async def test_rate_limited(start_service: Any) -> None:
    limited = start_service(rate_limit=3)

    async def no_wait(seconds: float) -> None:
        """The 429's Retry-After pauses the profile's requests: not spent here."""

    def client(base_url: str, key: str) -> AdminClient:
        budget = RequestBudget(None, sleep=no_wait)
        return AdminClient(base_url, key, retry=NO_RETRY, budget=budget)

    app = make_app(limited.base_url, limited.key, client_factory=client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for number in "2345":
            await pilot.press(number)
            await settle(pilot)
        panels = [
            console(app).section_widget(k).query_one(StatePanel)
            for k in ("proxies", "reactor_formulas", "reactors", "permissions")
        ]
        limited_panels = [p for p in panels if p.kind == "error" and "429" in p.title_text]
        assert limited_panels, [p.title_text for p in panels]
        assert "try again" in limited_panels[0].message_text.lower()


class FailingProxies(httpx.AsyncBaseTransport):
    """The real service, except that /proxies answers 503: a fault it cannot produce."""

    def __init__(self) -> None:
        self.real = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/proxies"):
            body = {"type": "about:blank", "title": "Service Unavailable", "status": 503}
            return httpx.Response(
                503, json=body, headers={"content-type": "application/problem+json"}
            )
        return await self.real.handle_async_request(request)

    async def aclose(self) -> None:
        await self.real.aclose()


async def test_server_errors(service: Any) -> None:
    info = service.new_tenant("Flaky Corp")

    def client(base_url: str, key: str) -> AdminClient:
        return AdminClient(base_url, key, transport=FailingProxies(), retry=NO_RETRY)

    app = make_app(service.base_url, info.key, client_factory=client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        panel = problem_of(app, "proxies")
        assert "503" in panel.title_text
        assert "r to retry" in str(panel.query_one(".state-hint").content)
        assert any("503" in n for n in notifications(app))


async def test_service_stopped_mid_session(fresh_service: Any) -> None:
    app = make_app(fresh_service.base_url, fresh_service.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert resource_list(app, "applications").items
        fresh_service.stop()
        await pilot.press("r")
        await settle(pilot)
        applications = resource_list(app, "applications")
        assert applications.items  # what was loaded stays, marked stale (test_stale_retries)
        assert applications.query(StaleBanner)
        assert any("unreachable" in n and fresh_service.base_url in n for n in notifications(app))
        await pilot.press("6")  # never loaded: nothing to keep, the failure in its place
        await settle(pilot)
        assert console(app).query_one(TenantView).problem is not None
        fresh_service.start()
        await pilot.press("r")
        await settle(pilot)
        assert console(app).query_one(TenantView).tenant is not None
        await pilot.press("1", "r")
        await settle(pilot)
        assert resource_list(app, "applications").items
        assert resource_list(app, "applications").state_panel.kind is None
