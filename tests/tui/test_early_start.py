"""The early start: the profile resolved and its first page read before the app runs, and the
app using both instead of asking again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from console_support import SIZE, resource_list, settle
from form_host import wait_until

from console.client.index import LocalIndex
from console.tui.app import TenantConsoleApp
from console.tui.base.connection import Connection, MemoryProfiles, ProfileUnavailable
from console.tui.browse.first_page import EarlyStart, begin
from console.tui.widgets.resource_list import ResourceList


class CountingProfiles(MemoryProfiles):
    """Memory profiles that count how often a connection is resolved."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.resolved: list[str | None] = []

    def resolve(self, name: str | None) -> Connection:
        self.resolved.append(name)
        return super().resolve(name)


if TYPE_CHECKING:  # the profiles the early start and the app read
    from console.tui.base.connection import ProfileSource

    _profiles: type[ProfileSource] = CountingProfiles


def test_it_resolves_the_profile_and_reads_its_first_page(service: Any) -> None:
    info = service.new_tenant("Early Corp")
    profiles = CountingProfiles([Connection("early", service.base_url, info.key)])
    early = begin(profiles, "early")
    assert early.connection.result(timeout=30).base_url == service.base_url
    page = early.first_page.result(timeout=30)
    assert page is not None and [a["name"] for a in page["data"]]  # the bootstrap application
    assert profiles.resolved == ["early"]


def test_an_unknown_profile_is_reported_and_no_page_is_read() -> None:
    early = begin(CountingProfiles([]), "nowhere")
    with pytest.raises(ProfileUnavailable, match="nowhere"):
        early.connection.result(timeout=30)
    assert early.first_page.result(timeout=30) is None


def test_a_profile_without_a_key_reads_no_page(service: Any) -> None:
    early = begin(MemoryProfiles([Connection("keyless", service.base_url, None)]), None)
    assert early.connection.result(timeout=30).key is None
    assert early.first_page.result(timeout=30) is None


async def test_the_app_takes_the_early_connection_and_page(service: Any) -> None:
    info = service.new_tenant("Early App Corp")
    profiles = CountingProfiles([Connection("early", service.base_url, info.key)])
    early = begin(profiles, "early")
    app = TenantConsoleApp(profiles=profiles, profile_name="early", early_start=early)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        applications = resource_list(app, "applications")
        assert applications.items and applications.pages_fetched == [1]
        assert profiles.resolved == ["early"]  # not resolved a second time by the app
        assert app.connection is not None and app.connection.profile == "early"


async def test_an_early_start_for_another_profile_is_ignored(service: Any) -> None:
    info = service.new_tenant("Other Corp")
    connections = [Connection(n, service.base_url, info.key) for n in ("one", "two")]
    profiles = CountingProfiles(connections)
    early = begin(profiles, "one")
    early.connection.result(timeout=30)
    app = TenantConsoleApp(profiles=profiles, profile_name="two", early_start=early)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.connection is not None and app.connection.profile == "two"
        assert profiles.resolved == ["one", "two"]


def applications(app: TenantConsoleApp) -> ResourceList | None:
    """The Applications list once it is mounted on the console screen, else None."""
    screen = app.console_screen
    if screen is None or screen is not app.screen:
        return None
    found = [listing for listing in screen.query(ResourceList) if listing.id == "applications"]
    return found[0] if found and found[0].is_mounted else None


def waiting_for_page_1(app: TenantConsoleApp) -> bool:
    listing = applications(app)
    return listing is not None and listing.fetching and not listing.items


def shows_rows(app: TenantConsoleApp) -> bool:
    listing = applications(app)
    return listing is not None and bool(listing.items)


@pytest.mark.parametrize("answered", ["before the list", "after the list"])
async def test_the_early_page_is_recorded_in_the_profiles_local_index(
    service: Any, answered: str
) -> None:
    """The page read before the client existed goes into the profile's index like every page
    the client reads: names, ids and kind (an object only that page holds shows it came from
    there), whether it was answered before the list was mounted or while the list waited."""
    info = service.new_tenant("Indexed Early Corp")
    connection = Connection("early-index", service.base_url, info.key)
    profiles = CountingProfiles([connection])
    early = EarlyStart("early-index")
    early.connection.set_result(connection)
    only_early = {"id": "early-only-0001", "name": "Seen in the early page", "type": "private"}
    envelope = {
        "data": [only_early],
        "pagination": {"page_number": 1, "page_size": 50, "total_items": 1, "total_pages": 1},
    }
    if answered == "before the list":
        early.first_page.set_result(envelope)
    app = TenantConsoleApp(profiles=profiles, profile_name="early-index", early_start=early)
    async with app.run_test(size=SIZE) as pilot:
        if answered == "after the list":
            await wait_until(pilot, lambda: waiting_for_page_1(app), what="the list waiting")
            early.first_page.set_result(envelope)
        await wait_until(pilot, lambda: shows_rows(app), what="the early page's rows")
        await settle(pilot)
        assert resource_list(app, "applications").pages_fetched == [1]
    index = LocalIndex.for_profile("early-index", service.base_url)
    try:
        rows = index.search("Seen in the early page")
    finally:
        index.close()
    assert [(r.kind, r.id, r.name) for r in rows] == [
        ("applications", "early-only-0001", "Seen in the early page")
    ]
