"""Every feature findable from where you stand (issue 25): footers naming each view's keys
at 80 and 200 columns, keys that say where they work, help grouped by screen, j/k in the
pickers, one notification per kind, the palette leading with the screen's commands, a sort
that stays at the top, forms that report every problem at once, and usage on opening."""

from __future__ import annotations

from typing import Any

import pytest
from console_support import Seeder, console, make_app, resource_list, settle, two_profile_app
from form_host import SIZE, FormHost, wait_until
from textual.widgets import Input, OptionList

import console.tui.widgets.list_paging as list_paging_module
import console.tui.widgets.resource_list as resource_list_module
import console.tui.widgets.usage_view as usage_view_module
from console.tui.actions.help_keys import KEY_GROUPS, keys_markdown
from console.tui.base.notices import notify_once
from console.tui.browse.sections import SECTIONS_BY_KEY
from console.tui.forms import ApplicationForm, ProxyForm
from console.tui.forms.permissions import PermissionChecklist
from console.tui.modals import KeyRevealModal
from console.tui.palette.command_list import ScreenHit
from console.tui.palette.list_commands import ListCommands
from console.tui.screens.detail import DetailScreen
from console.tui.screens.help import HelpScreen, keys_table
from console.tui.screens.profiles import ProfilePicker
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.toggles import TextCheckbox, TextSwitch

WIDE = (200, 60)
SMALL = (80, 24)
USAGE = SECTIONS_BY_KEY["usage"].hotkey
SECTIONS_SHOWN = f"1-{len(SECTIONS_BY_KEY) - 1},0 Sections"  # 0: Usage, the last


@pytest.fixture
def tenant(service: Any) -> Any:
    info = service.new_tenant("Findability tenant")
    seed = Seeder(service.base_url, info.key)
    for n in range(12):
        seed.application(f"App {n:02}")
    seed.proxy("Findable proxy")
    seed.formula("Findable formula")
    seed.close()
    return info


def key_line(app: Any) -> str:
    return str(app.screen.query_one(KeyBar).render_line(0).text)


def notes(app: Any) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


async def go(pilot: Any, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


# ---- footers ------------------------------------------------------------------------------


async def test_footers_name_each_views_keys_at_200_columns(service: Any, tenant: Any) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        line = key_line(app)
        for shown in ("⏎ Open", "A Review", "/ Filter", "n e d R New/Edit/Del/Regen", "S Sort/Rev"):
            assert shown in line
        for shown in ("c Copy to profile", "P All profiles", SECTIONS_SHOWN, "? Help", "q Quit"):
            assert shown in line
        # The most important first: the section's own key before the change keys and sort.
        assert line.index("A Review") < line.index("New/Edit/Del") < line.index("Sort/Rev")
        await go(pilot, "5")
        line = key_line(app)
        assert "w Who holds" in line and "A Review" not in line and "New/Edit/Del" not in line
        await go(pilot, "2", "enter")  # a proxy: test-run and copy to profile both apply
        assert isinstance(app.screen, DetailScreen)
        line = key_line(app)
        for shown in ("esc Back", "^r Test-run", "e Edit", "c Copy to profile", "v Raw JSON"):
            assert shown in line
        assert line.index("esc Back") < line.index("^r Test-run") < line.index("e Edit")


async def test_footers_keep_the_most_important_keys_at_80_columns(
    service: Any, tenant: Any
) -> None:
    """`?` stays, then the screen's own keys before those every screen has (q, r, p, P): on
    a list at 80 columns n, e, d and R are shown, q where room is left."""
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        line = key_line(app)
        assert "⏎ Open" in line and "/ Filter" in line
        assert "n e d R New/Edit/Del/Regen" in line and "? Help" in line
        assert line.rstrip().endswith("^p palette")
        await go(pilot, "2")  # a proxy has no key to regenerate: the label says so
        line = key_line(app)
        assert "n e d New/Edit/Del " in line and "Regen" not in line and "? Help" in line
        await go(pilot, "5")
        assert "w Who holds" in key_line(app) and "? Help" in key_line(app)
        await go(pilot, USAGE)  # nothing of its own: the everywhere keys, ? first
        assert "? Help q Quit" in key_line(app)
        await go(pilot, "3", "enter")
        line = key_line(app)
        assert "esc Back" in line and "^r Test-run" in line and "e Edit" in line


async def test_a_key_pressed_where_it_does_not_apply_says_where_it_works(
    service: Any, tenant: Any
) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await go(pilot, "2", "A", "A", "A")
        hints = [n for n in notes(app) if n.startswith("Not here")]
        assert hints == ["Not here: A (access review) works in Applications."]  # one, not three
        await go(pilot, "w")
        hints = [n for n in notes(app) if n.startswith("Not here")]
        assert hints == [
            "Not here: w (who holds) works in Permissions, on a highlighted permission."
        ]
        await go(pilot, "6", "s")
        assert any("s (sort) works in a list" in n for n in notes(app))
        await go(pilot, "ctrl+r")
        assert any("ctrl+r (test-run) works on a formula or a proxy" in n for n in notes(app))
        await go(pilot, "1", "A")
        assert type(app.screen).__name__ == "ReviewScreen"  # where it applies, it works


# ---- help ---------------------------------------------------------------------------------


async def test_help_groups_every_key_by_screen_in_columns(service: Any, tenant: Any) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=WIDE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(
            app.screen.query_one("#help-keys").render_line(y).text
            for y in range(app.screen.query_one("#help-keys").size.height)
        )
        for title in ("Everywhere", "Access review (A)", "Code editor", "Test-run", "Forms"):
            assert title in text
        # Three groups side by side on one line at 200 columns.
        assert any(
            "Everywhere" in line and "Detail" in line and "Forms" in line
            for line in (
                app.screen.query_one("#help-keys").render_line(y).text
                for y in range(app.screen.query_one("#help-keys").size.height)
            )
        )
    keys = {key for group in KEY_GROUPS for key, _ in group.keys}
    for key in ("ctrl+] / ctrl+\\", "F2", "F3", "F4", "F8", "F9", "F11, ctrl+f", "ctrl+t"):
        assert key in keys
    for key in ("A", "w", "s / S", "c", "P", "ctrl+r", "x", "] / [", "f", "j / k"):
        assert key in keys
    assert len(keys_table(width=74).columns) == 1 and len(keys_table(width=190).columns) == 3
    read_only = " ".join(group.title for group in KEY_GROUPS if group.changes)
    assert "Console: changes" in read_only


def top_of_screen(app: Any, lines: int = 3) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips()[:lines])


async def test_help_opens_at_the_keys_of_the_screen_it_is_asked_from(
    service: Any, tenant: Any
) -> None:
    from console.tui.screens.history import HistoryScreen
    from console.tui.screens.overview import OverviewScreen

    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        opened = []
        for keys, screen, group in (
            ((), None, "Console: sections and lists"),
            (("2", "enter"), DetailScreen, "Detail"),
            (("escape", "H"), HistoryScreen, "History (H)"),
            (("escape", "P"), OverviewScreen, "All profiles (P)"),
        ):
            await go(pilot, *keys)
            if screen is not None:
                await wait_until(pilot, lambda screen=screen: isinstance(app.screen, screen))
            await go(pilot, "question_mark")
            await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
            await wait_until(pilot, lambda group=group: group in top_of_screen(app))
            assert app.screen.start_at == group
            opened.append(app.screen.query_one("#help-dialog").scroll_y)
            await go(pilot, "g")  # the top is one key away: Everywhere first
            assert "Everywhere" in top_of_screen(app, 6)
            await go(pilot, "escape")
        assert all(y > 0 for y in opened)
        welcome = HelpScreen()  # a screen with no group of its own: from the top
        assert welcome.start_at is None


def test_keys_reference_matches_the_help() -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "keys.md"
    assert docs.read_text(encoding="utf-8") == keys_markdown(), (
        "docs/keys.md is out of date: python -m console.tui.actions.help_keys"
    )


# ---- one set of keys ----------------------------------------------------------------------


async def test_j_and_k_move_in_the_profile_picker(service: Any) -> None:
    first = service.new_tenant("Picker One")
    second = service.new_tenant("Picker Two")
    app = two_profile_app(
        ("one", service.base_url, first.key), ("two", service.base_url, second.key)
    )
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("p")
        await wait_until(pilot, lambda: isinstance(app.screen, ProfilePicker))
        options = app.screen.query_one(OptionList)
        assert options.highlighted == 0
        await pilot.press("j")
        assert options.highlighted == 1
        await pilot.press("k")
        assert options.highlighted == 0
        await pilot.press("j", "enter")
        await settle(pilot)
        assert app.connection is not None and app.connection.profile == "two"


def test_the_new_key_dialog_keys_do_not_collide_with_the_lists() -> None:
    keys = {binding.key for binding in KeyRevealModal.BINDINGS}  # type: ignore[union-attr]
    assert not keys & {"c", "d", "s", "n", "e"}
    assert {"y", "v", "o"} <= keys


async def test_notifications_of_one_kind_replace_one_another(service: Any, tenant: Any) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        for _ in range(4):
            await pilot.press("s")
        sorts = [n for n in notes(app) if n.startswith("Applications: Sorted")]
        assert len(sorts) == 1, sorts
        notify_once(app, "other", "another kind stays")
        await pilot.pause()
        assert len([n for n in notes(app) if "Sorted" in n or "another" in n]) == 2


def toasts(app: Any) -> list[str]:
    """The toasts on screen (not only the notifications held): what a person sees."""
    from textual.widgets._toast import Toast

    return [str(toast.render()) for toast in app.screen.query(Toast)]


async def test_any_notification_replaces_its_repeat_on_screen(service: Any, tenant: Any) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL, notifications=True) as pilot:  # toasts drawn
        await settle(pilot)
        for _ in range(4):
            await pilot.press("y")  # copy id: a plain App.notify, not notify_once
            await pilot.pause()
        await pilot.pause()
        assert len(toasts(app)) == 1, toasts(app)
        assert len(notes(app)) == 1, notes(app)


async def test_errors_and_untitled_repeats_replace_too_different_ones_stay(
    service: Any, tenant: Any
) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL, notifications=True) as pilot:  # toasts drawn
        await settle(pilot)
        app.clear_notifications()
        for n in range(3):
            app.notify(f"attempt {n}", title="Not saved", severity="error")
        app.notify("untitled, once")
        app.notify("untitled, once")
        app.notify("untitled, another")
        app.notify("a second title", title="Saved")
        await pilot.pause()
        await pilot.pause()
        assert sorted(notes(app)) == sorted(
            [
                "Not saved: attempt 2",
                ": untitled, once",
                ": untitled, another",
                "Saved: a second title",
            ]
        )
        assert len(toasts(app)) == 4


async def test_the_palette_leads_with_the_screens_commands(service: Any, tenant: Any) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        hits = [hit async for hit in ListCommands(console(app)).discover()]
        assert hits and all(isinstance(hit, ScreenHit) and hit.score > 0 for hit in hits)


# ---- sort ---------------------------------------------------------------------------------


async def test_sort_of_a_partly_loaded_list_shows_its_top_and_loads_nothing(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(list_paging_module, "PREFETCH_MARGIN", 1)
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        listing = resource_list(app, "applications")
        listing.page_size = 6
        listing.reload()
        await settle(pilot)
        assert listing.pages_fetched == [1] and listing.has_more
        await pilot.press("j", "j", "j")
        await settle(pilot)
        await pilot.press("S")  # descending: the highlighted row goes to the bottom
        await settle(pilot)
        assert listing.table.cursor_row == 0 and listing.table.scroll_y == 0
        assert listing.pages_fetched == [1]  # no page was fetched for the sort
        status = console(app).query_one("FooterBar #status").content
        assert resource_list_module.LOADED_ROWS_ONLY in str(status)
        assert resource_list_module.LOADED_ROWS_ONLY in notes(app)[-1]


# ---- forms --------------------------------------------------------------------------------


async def test_an_empty_new_application_reports_every_problem_at_once(
    service: Any, tenant: Any
) -> None:
    app = FormHost(lambda c: ApplicationForm(c), base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await wait_until(pilot, lambda: form.query_one(PermissionChecklist).loaded)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert form.banner_text.startswith("Not saved: 2 problems.")
        assert form.fields_by_path()["name"].invalid
        assert form.fields_by_path()["permissions"].invalid


async def test_names_are_trimmed_saying_so(service: Any, tenant: Any) -> None:
    app = FormHost(lambda c: ProxyForm(c), base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        await pilot.pause()
        form.query_one("#name", Input).value = "  Spaced proxy  "
        form.query_one("#destination-url", Input).value = "https://example.com/hook"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: app.dismissed, what="save")
    assert app.result is not None and app.result.name == "Spaced proxy"
    assert any("spaces around the name" in n for n in app.notes)


async def test_the_first_space_ticks_the_highlighted_permission(service: Any, tenant: Any) -> None:
    app = FormHost(lambda c: ApplicationForm(c), base_url=service.base_url, key=tenant.key)
    async with app.run_test(size=SIZE) as pilot:
        form = app.form
        checklist = form.query_one("#permissions", PermissionChecklist)
        await wait_until(pilot, lambda: checklist.loaded)
        checklist.selection_list.focus()
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        first = checklist.selection_list.get_option_at_index(0).value
        assert checklist.selected == [first]
        await pilot.press("j", "space")
        assert len(checklist.selected) == 2


async def test_switches_and_boxes_say_their_state_in_text() -> None:
    from textual.app import App, ComposeResult

    class Toggles(App[None]):
        def compose(self) -> ComposeResult:
            yield TextSwitch(True, id="on")
            yield TextSwitch(False, id="off")
            yield TextCheckbox("Stored", id="box")

    app = Toggles()
    async with app.run_test() as pilot:
        await pilot.pause()
        on = app.query_one("#on", TextSwitch)
        assert "on" in on.render_line(1).text or "on" in on.render_line(0).text
        off = app.query_one("#off", TextSwitch)
        assert any("off" in off.render_line(y).text for y in range(off.size.height))
        box = app.query_one("#box", TextCheckbox)
        assert "[ ]" in box.render_line(0).text
        box.value = True
        await pilot.pause()
        assert "[x]" in box.render_line(0).text


# ---- usage --------------------------------------------------------------------------------


async def test_usage_is_fetched_on_opening_when_older_than_the_period(
    service: Any, tenant: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(service.base_url, tenant.key)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await go(pilot, USAGE)
        usage = console(app).section_widget("usage")
        first = usage.loaded_at  # type: ignore[attr-defined]
        assert first is not None
        await go(pilot, "1", USAGE)
        assert usage.loaded_at == first  # fresh: not fetched again  # type: ignore[attr-defined]
        monkeypatch.setattr(usage_view_module, "FRESH_SECONDS", -1.0)
        await go(pilot, "1", USAGE)
        assert usage.loaded_at is not None and usage.loaded_at > first  # type: ignore[attr-defined]
