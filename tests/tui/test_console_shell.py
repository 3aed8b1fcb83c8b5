"""The shell around the sections: help, palette commands, copying ids, the demo launcher."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

import pytest
from console_support import SIZE, Seeder, console, make_app, settle, two_profile_app
from textual.command import CommandPalette

from console.tui.actions.help_keys import KEY_GROUPS
from console.tui.browse.sections import SECTIONS
from console.tui.palette.commands import ObjectProvider
from console.tui.screens.detail import DetailScreen
from console.tui.screens.help import HelpScreen
from console.tui.start.demo import DemoService, DemoServiceError
from console.tui.start.launch import open_demo


async def test_help_lists_every_key(service: Any) -> None:
    info = service.new_tenant("Help Corp")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        listed = {key for group in KEY_GROUPS for key, _ in group.keys}
        assert {
            f"1-{len(SECTIONS)}",
            "/",
            "enter",
            "escape",
            "r",
            "y",
            "p",
            "?",
            "q",
            "ctrl+p",
        } <= listed
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is console(app)


async def test_palette_commands(service: Any) -> None:
    first = service.new_tenant("Palette One")
    second = service.new_tenant("Palette Two")
    seed = Seeder(service.base_url, first.key)
    proxy = seed.proxy("Palette target proxy")
    seed.close()
    app = two_profile_app(
        ("one", service.base_url, first.key), ("two", service.base_url, second.key)
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        for wanted in ("Go to Usage", "Switch profile", "Switch to profile two", "Change theme"):
            assert wanted in titles
        assert "Quit" in titles

        go = next(c for c in app.get_system_commands(app.screen) if c.title == "Go to Tenant")
        go.callback()
        await settle(pilot)
        assert console(app).current == "tenant"

        provider = ObjectProvider(app.screen)
        hits = [hit async for hit in provider.search("target")]
        assert [str(h.text) for h in hits] == ["Open proxy: Palette target proxy"]
        by_id = [hit async for hit in provider.search(proxy["id"])]
        assert len(by_id) == 1
        by_id[0].command()
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        assert app.screen.fields_view.value_of("Name") == "Palette target proxy"

        switch = next(
            c for c in app.get_system_commands(app.screen) if c.title == "Switch to profile two"
        )
        switch.callback()
        await settle(pilot)
        assert console(app).header.tenant == "Palette Two"
        assert app.screen is console(app)

        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)


async def test_copy_id_from_the_list(service: Any) -> None:
    info = service.new_tenant("Copy Corp")
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
        assert app.clipboard == info.application_id


async def test_read_only_is_shown(service: Any) -> None:
    info = service.new_tenant("Read Only Corp")
    app = make_app(service.base_url, info.key, read_only=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.read_only and console(app).header.read_only
        assert "READ-ONLY" in console(app).header.render().plain


def test_demo_service_starts_and_cleans_up() -> None:
    service = DemoService(demo_data=False).start()
    data_dir = service.data_dir
    assert data_dir is not None and data_dir.exists()
    assert service.key and service.base_url.startswith("http://127.0.0.1:")
    assert service.key not in repr(service)
    service.stop()
    assert not data_dir.exists()
    assert not service.running


def test_demo_that_cannot_start_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "executable", sys.executable + "-missing")
    with pytest.raises(DemoServiceError):
        DemoService().start()
    assert open_demo(argparse.Namespace(read_only=False)) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("tenant-console demo: ")
    assert "Traceback" not in "\n".join(err)


async def test_palette_opens_an_application_that_is_not_loaded(service: Any) -> None:
    info = service.new_tenant("Palette far")
    seed = Seeder(service.base_url, info.key)
    for index in range(120):
        seed.application(f"Filler {index:03}")
    far = seed.application("Far away target")
    seed.close()
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        loaded = console(app).resource_list("applications").items
        assert far["id"] not in {item["id"] for item in loaded}  # page 3 of the list

        await pilot.press("ctrl+p")
        await pilot.pause()
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await pilot.press(*"away targ")
        options = palette.query_one("CommandList")

        def offered() -> list[str]:
            return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]

        deadline = asyncio.get_running_loop().time() + 15
        while not any("Far away target" in o for o in offered()):
            assert asyncio.get_running_loop().time() < deadline, offered()
            await pilot.pause(0.05)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DetailScreen)
        assert app.screen.item_id == far["id"]


async def test_palette_walks_application_pages_once_per_opening(service: Any) -> None:
    info = service.new_tenant("Palette walk")
    seed = Seeder(service.base_url, info.key)
    for index in range(105):
        seed.application(f"App {index:03}")
    seed.close()
    app = make_app(service.base_url, info.key)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        provider = ObjectProvider(app.screen)
        first = [str(h.text) async for h in provider.search("App 10")]
        assert first == [f"Open application: App {n}" for n in range(100, 105)]
        walk = provider._walk
        assert walk is not None and walk.done and walk.page == 2
        # One more letter narrows the walk's matches: no page is fetched again (the walk
        # keeps its matches, not the tenant's pages).
        again = [str(h.text) async for h in provider.search("app 104")]
        assert again == ["Open application: App 104"]
        narrowed = provider._walk
        assert narrowed is not walk and narrowed.page == 2 and narrowed.done
        assert [a["name"] for a in narrowed.found] == ["App 104"]  # no page fetched twice
