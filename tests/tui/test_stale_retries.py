"""A failed retry keeps what was shown: the list's rows, the detail, the tenant and the usage
report stay on screen under the stale note, which gives the time of the latest failure; only
a successful load replaces them (issue 23: `r` used to replace every row with the error).
The local service is stopped mid-test, as an outage."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from console_support import (
    USAGE_KEY,
    Seeder,
    console,
    make_app,
    open_first_detail,
    resource_list,
    settle,
)

from console.client import AdminClient
from console.client._http import NO_RETRY
from console.clock import FROZEN_NOW_ENV
from console.tui.screens.detail import DetailScreen
from console.tui.widgets.fields_view import FieldsView
from console.tui.widgets.section_loader import StaleBanner
from console.tui.widgets.state_panel import StatePanel
from console.tui.widgets.tenant_view import TenantView
from console.tui.widgets.usage_view import UsageView

SIZE = (120, 40)


def quick_client(base_url: str, key: str) -> AdminClient:
    """Gives up at once: an outage shows without the retries' waits."""
    return AdminClient(base_url, key, retry=NO_RETRY)


if TYPE_CHECKING:  # a client factory, as the app takes one (make_app passes it on untyped)
    from console.tui.app import ClientFactory

    _factory: ClientFactory = quick_client


class Outage:
    """Stops and starts the test's own service; each failure happens at a later (frozen)
    time, so the note's "refresh failed at" shows which failure it is about."""

    def __init__(self, service: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.service = service
        self.monkeypatch = monkeypatch
        self.base = datetime.now(UTC).replace(second=0, microsecond=0)

    def begin(self) -> None:
        self.service.stop()

    def at(self, hours: int) -> str:
        """From now on the console's clock says `hours` later; that time as the note says it."""
        moment = self.base + timedelta(hours=hours)
        self.monkeypatch.setenv(FROZEN_NOW_ENV, moment.isoformat())
        return f"{moment.astimezone():%H:%M}"

    def end(self) -> None:
        self.monkeypatch.delenv(FROZEN_NOW_ENV, raising=False)
        self.service.start()


@pytest.fixture
def outage(fresh_service: Any, monkeypatch: pytest.MonkeyPatch) -> Outage:
    seed = Seeder(fresh_service.base_url, fresh_service.key)
    for n in range(3):
        seed.proxy(f"Edge {n}")
    seed.close()
    return Outage(fresh_service, monkeypatch)


def banner_of(node: Any) -> str:
    banners = node.query(StaleBanner)
    assert banners, f"no stale note on {node}"
    return str(banners.first().content)


def note_says(text: str, loaded: datetime | None, failed: str) -> bool:
    assert loaded is not None
    return f"Stale — last loaded {loaded.astimezone():%H:%M}, refresh failed at {failed}" in text


async def test_a_list_keeps_its_rows_through_failed_retries(outage: Outage) -> None:
    service = outage.service
    app = make_app(service.base_url, service.key, client_factory=quick_client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        listing = resource_list(app, "proxies")
        await pilot.press("G")
        before = [p["id"] for p in listing.items]
        loaded = listing.loaded_at
        assert len(before) == 3

        outage.begin()
        for hours in (1, 2):  # a retry, then another: the rows stay through both
            failed = outage.at(hours)
            await pilot.press("r")
            await settle(pilot)
            assert [p["id"] for p in listing.items] == before
            assert listing.table.display and listing.table.row_count == 3
            assert listing.state_panel.kind is None  # no error in place of the rows
            assert listing.problem is None
            assert note_says(banner_of(listing), loaded, failed)
            assert listing.current_row is not None and listing.current_row["name"] == "Edge 2"

        outage.end()
        await pilot.press("r")
        await settle(pilot)
        assert not listing.query(StaleBanner)
        assert listing.loaded_at is not None and loaded is not None
        assert listing.loaded_at > loaded
        assert [p["name"] for p in listing.items] == ["Edge 0", "Edge 1", "Edge 2"]


async def test_a_detail_keeps_its_object_through_failed_retries(outage: Outage) -> None:
    service = outage.service
    app = make_app(service.base_url, service.key, client_factory=quick_client)
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_first_detail(pilot, "2")
        assert isinstance(detail, DetailScreen)
        item = detail.item
        loaded = detail.loaded_at

        outage.begin()
        for hours in (1, 2):
            failed = outage.at(hours)
            await pilot.press("r")
            await settle(pilot)
            assert app.screen is detail
            assert detail.item is item
            assert detail.query_one("#detail-body").display
            assert detail.query_one(StatePanel).kind is None
            assert detail.fields_view.value_of("Name") == "Edge 0"
            assert note_says(banner_of(detail), loaded, failed)

        outage.end()
        await pilot.press("r")
        await settle(pilot)
        assert not detail.query(StaleBanner)
        assert detail.item is not item  # read again
        assert detail.fields_view.value_of("Name") == "Edge 0"


async def test_the_tenant_section_keeps_the_tenant_through_failed_retries(
    outage: Outage,
) -> None:
    service = outage.service
    app = make_app(service.base_url, service.key, client_factory=quick_client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("6")
        await settle(pilot)
        view = console(app).query_one(TenantView)
        tenant, loaded = view.tenant, view.loaded_at
        assert tenant is not None
        fields = view.query_one(FieldsView)
        usage = dict(fields.fields).get("Usage")
        assert usage

        outage.begin()
        for hours in (1, 2):
            failed = outage.at(hours)
            await pilot.press("r")
            await settle(pilot)
            assert view.tenant is tenant
            assert view.problem is None
            assert view.query_one(StatePanel).kind is None
            assert fields.display
            assert note_says(banner_of(view), loaded, failed)
            app.refresh_times()  # what the app's timer calls: the fields drawn again
            assert dict(fields.fields).get("Usage") == usage  # shown with the tenant, kept

        outage.end()
        await pilot.press("r")
        await settle(pilot)
        assert not view.query(StaleBanner)
        assert view.tenant is not None and view.tenant is not tenant
        assert view.tenant.name == tenant.name


async def test_the_usage_section_keeps_the_report_through_failed_retries(
    outage: Outage,
) -> None:
    service = outage.service
    app = make_app(service.base_url, service.key, client_factory=quick_client)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(USAGE_KEY)
        await settle(pilot)
        view = console(app).query_one(UsageView)
        dashboard = view.dashboard
        report, loaded = view.report, view.loaded_at
        assert report is not None and dashboard.state in ("report", "empty")
        state = dashboard.state

        outage.begin()
        for hours in (1, 2):
            failed = outage.at(hours)
            await pilot.press("r")
            await settle(pilot)
            assert view.report is report
            assert dashboard.report is report
            assert dashboard.state == state  # not "error"
            assert not dashboard.refreshing  # so that r retries again
            assert view.problem is None
            assert note_says(banner_of(view), loaded, failed)

        outage.end()
        await pilot.press("r")
        await settle(pilot)
        assert not view.query(StaleBanner)
        assert view.report is not None and view.report is not report
        assert dashboard.state == state
