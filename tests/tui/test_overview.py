"""The overview of every profile in the console (`P`): rows fill as their checks end, enter
opens a profile as the picker does, `r` checks again. Saved profiles on a temp config dir
and an in-memory keyring, against the real local service; a port that accepts and never
answers is the slow tenant."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any

import keyring.core
import pytest
from console_support import JS, SIZE, MemoryKeyring, Seeder, console, settle
from form_host import screen_is, wait_until
from hosted_service import KEY as HOSTED_KEY
from hosted_service import HostedService
from paged_tenant import KEY as PAGED_KEY
from paged_tenant import PagedTenant
from textual.widgets import DataTable

from console.client.walk import IN_FLIGHT, MOST_IN_FLIGHT
from console.profiles.config import Profile, ProfilesFile
from console.profiles.keys import SERVICE
from console.tui.app import TenantConsoleApp
from console.tui.screens.overview import CHECKING, OverviewScreen, layout


@pytest.fixture
def saved_profiles(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[MemoryKeyring]:
    """A temp config dir and an in-memory keyring; no TENANT_CONSOLE_* from the shell."""
    for name in ("TENANT_CONSOLE_PROFILE", "TENANT_CONSOLE_BASE_URL", "TENANT_CONSOLE_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(tmp_path / "config"))
    backend = MemoryKeyring()
    monkeypatch.setattr(keyring.core, "_keyring_backend", backend)
    yield backend


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield listener.getsockname()[1]


def save(name: str, base_url: str, key: str, backend: MemoryKeyring, active: bool = False) -> None:
    profiles = ProfilesFile.load()
    profiles.add(Profile(name=name, base_url=base_url))
    if active:
        profiles.use(name)
    profiles.save()
    backend.entries[(SERVICE, name)] = key


def key_cell(screen: OverviewScreen, name: str) -> str:
    table = screen.query_one(DataTable)
    return str(table.get_row(name)[[c.value for c in table.columns].index("key")])


async def test_rows_fill_as_checks_end_and_enter_opens_a_profile(
    service: Any, saved_profiles: MemoryKeyring, silent_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(OverviewScreen, "timeout", 1.5)
    one = service.new_tenant("One Corp")
    two = service.new_tenant("Two Corp")
    save("one", service.base_url, one.key, saved_profiles, active=True)
    save("slow", f"http://127.0.0.1:{silent_port}", "slow-key-" + "s" * 24, saved_profiles)
    save("two", service.base_url, two.key, saved_profiles)
    save("bad", service.base_url, "not-a-key-of-this-service-000000", saved_profiles)
    app = TenantConsoleApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("P")
        await wait_until(pilot, screen_is(app, OverviewScreen), what="the overview")
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        # The quick ones are in while the slow one still says it is being checked.
        await wait_until(pilot, lambda: {"one", "two", "bad"} <= set(screen.statuses))
        assert "slow" not in screen.statuses
        assert CHECKING in key_cell(screen, "slow")
        assert key_cell(screen, "one") == "✓ ok" and key_cell(screen, "bad") == "✗ rejected"
        await wait_until(pilot, lambda: not screen.checking, what="every check")
        assert screen.statuses["slow"].status == "timed_out"
        assert key_cell(screen, "slow") == "✗ timed out"
        title = str(screen.query_one("#overview-title").content)  # type: ignore[attr-defined]
        assert "4 checked, 2 ok" in title

        # enter on "two" switches the console to it, as the picker does
        await pilot.press("down", "down")
        assert screen.highlighted_name == "two"
        assert "two: ok" in str(screen.query_one("#overview-detail").content)  # type: ignore[attr-defined]
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is console(app)
        assert console(app).header.profile == "two"
        assert console(app).header.tenant == "Two Corp"
        assert ProfilesFile.load().active == "one"  # for this session only
        assert ProfilesFile.load().profiles["two"].tenant_name == "Two Corp"  # remembered


async def test_r_checks_again_escape_goes_back_and_the_palette_offers_it(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    one = service.new_tenant("Again Corp")
    save("one", service.base_url, one.key, saved_profiles, active=True)
    app = TenantConsoleApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "All profiles: overview" in titles
        app.action_overview()
        await wait_until(pilot, screen_is(app, OverviewScreen), what="the overview")
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        await wait_until(pilot, lambda: not screen.checking and screen.statuses)
        first = screen.statuses["one"]
        await pilot.press("r")
        await wait_until(pilot, lambda: not screen.checking and screen.statuses)
        assert screen.statuses["one"] is not first and screen.statuses["one"].ok
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is console(app)


def cell(screen: OverviewScreen, name: str, column: str) -> str:
    table = screen.query_one(DataTable)
    return str(table.get_row(name)[[c.value for c in table.columns].index(column)])


async def test_reactors_are_counted_and_not_offered_where_the_service_has_none(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    """The Reactors column: the tenant's reactors; "not offered" where the service's code
    surfaces lack them (a service without reactors), as for formulas."""
    one = service.new_tenant("Reactive Corp")
    seeder = Seeder(service.base_url, one.key)
    try:
        for name in ("Scoring", "Relay", "Lookup"):  # no runtime: active at once
            seeder.post("/reactors", {"name": name, "code": JS})
    finally:
        seeder.close()
    save("one", service.base_url, one.key, saved_profiles, active=True)
    with HostedService.running(retired={("GET", "/reactors")}) as older:
        save("older", older.base_url, HOSTED_KEY, saved_profiles)
        app = TenantConsoleApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.press("P")
            await wait_until(pilot, screen_is(app, OverviewScreen), what="the overview")
            screen = app.screen
            assert isinstance(screen, OverviewScreen)
            await wait_until(pilot, lambda: not screen.checking and len(screen.statuses) == 2)
            table = screen.query_one(DataTable)
            assert "reactors" in [c.value for c in table.columns]  # at 80x24 too
            assert cell(screen, "one", "reactors") == "3"
            assert cell(screen, "older", "reactors") == "not offered"
            assert cell(screen, "older", "formulas") != "not offered"
            assert screen.statuses["older"].ok


async def test_leaving_the_overview_stops_its_count_walks_in_flight(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    """A tenant whose pages carry no totals is counted by walking its pages, several in
    flight; escape leaves the overview and every request still in flight is dropped."""
    one = service.new_tenant("Home Corp")
    save("one", service.base_url, one.key, saved_profiles, active=True)
    paged = await PagedTenant(sizes={"/applications": 1_050}).start()
    never = asyncio.Event()
    paged.hold = lambda path, page: never if page > 1 else None
    save("paged", paged.base_url, PAGED_KEY, saved_profiles)
    app = TenantConsoleApp()
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            await pilot.press("P")
            await wait_until(pilot, screen_is(app, OverviewScreen), what="the overview")
            walking = "/applications"
            await wait_until(
                pilot, lambda: paged.in_flight_of[walking] == IN_FLIGHT, what="the count walk"
            )
            assert sorted(paged.pages_of(walking)) == [1, 2, 3, 4, 5]
            assert 1 < paged.most_in_flight_of[walking] <= MOST_IN_FLIGHT
            await pilot.press("escape")
            await wait_until(pilot, lambda: paged.in_flight == 0, what="the requests dropped")
            assert app.screen is console(app)
            assert sorted(paged.closed_unanswered) == [(walking, n) for n in (2, 3, 4, 5)]
    finally:
        await paged.stop()


def test_columns_give_way_on_a_narrow_screen() -> None:
    row = {
        "profile": "● production-eu",
        "label": "PROD",
        "url": "https://admin.eu.example.com/api",
        "tenant": "Acme Payments Europe",
        "key": "✗ lacks permissions",
        "usage": "226,480 / 250,000 (90%)",
        "compact": "226k / 250k 90%",
        "share": "90%",
        "applications": "13",
        "proxies": "5",
        "formulas": "≥100",
        "reactors": "not offered",
    }
    wide = layout([row], 199)
    assert [c.key for c, _ in wide][:3] == ["profile", "label", "url"]
    assert all(width >= len(row[c.key]) for c, width in wide)  # nothing cut at 200 columns
    narrow = layout([row], 79)
    keys = [c.key for c, _ in narrow]
    assert "url" not in keys and "label" not in keys and "share" in keys
    assert sum(width + 2 for _, width in narrow) <= 79
    assert dict((c.key, w) for c, w in narrow)["profile"] >= 12


async def test_each_profiles_log_archive_is_said_and_a_gap_warned_of(
    service: Any, saved_profiles: MemoryKeyring
) -> None:
    """The Log archive column: how far back the profile's archive reaches; a gap (a sync
    later than the service's retention) is warned of, in the column and the line below."""
    from console.audit.archive import LogArchive
    from console.client import AdminClient

    one = service.new_tenant("Archived Corp")
    seeder = Seeder(service.base_url, one.key)
    try:
        seeder.proxy("Card intake")
    finally:
        seeder.close()
    save("archived", service.base_url, one.key, saved_profiles, active=True)
    async with AdminClient(service.base_url, one.key) as client:
        with LogArchive.open("archived") as archive:
            await archive.sync(client)
            await archive.sync(client, retention_seconds=0)  # the last sync: past retention
    app = TenantConsoleApp()
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot)
        await pilot.press("P")
        await wait_until(pilot, screen_is(app, OverviewScreen), what="the overview")
        screen = app.screen
        assert isinstance(screen, OverviewScreen)
        await wait_until(pilot, lambda: not screen.checking and screen.statuses)
        archive_cell = cell(screen, "archived", "archive")
        assert archive_cell.startswith("logs archived back to"), archive_cell
        assert "gap" in archive_cell
        detail = str(screen.query_one("#overview-detail").content)  # type: ignore[attr-defined]
        assert "⚠ Logs archived back to" in detail
