"""j and k move in every table and list of the console, as down and up do.

Three ways round: no module builds one of Textual's list widgets bare (each is one of the
console's own, which bind j and k); every list widget class the console defines binds them;
and a walk through every screen and dialog that shows a list presses them in each list it
finds there, so a list added to a screen later is checked by the same walk."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import Any

import pytest
from console_support import Seeder, console, resource_list, settle, two_profile_app
from form_host import screen_is, wait_until
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, ListView, OptionList

import console.tui as tui_package
from console.client.recording import PendingChange
from console.journal.store import open_journal
from console.tui.forms import ApplicationForm
from console.tui.modals.key_choice import KeyChoiceModal
from console.tui.modals.target_profile import TargetProfilePicker
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.history import HistoryScreen
from console.tui.screens.holders import HoldersScreen
from console.tui.screens.overview import OverviewScreen
from console.tui.screens.profiles import ProfilePicker
from console.tui.screens.review import ReviewScreen
from console.tui.widgets.row_table import RowTable

SIZE = (120, 40)
LISTS = (DataTable, OptionList, ListView, RowTable)
"""The widgets a person moves a cursor through: Textual's and the console's own."""
BARE = {"DataTable", "OptionList", "ListView", "SelectionList"}
"""Textual's list widgets, which do not answer j and k: the console uses its own."""
TUI = Path(tui_package.__file__).parent


def _console_modules() -> list[str]:
    return [
        info.name
        for info in pkgutil.walk_packages(tui_package.__path__, prefix="console.tui.")
        if not info.ispkg
    ]


def test_no_module_builds_a_list_widget_that_does_not_answer_j_and_k() -> None:
    bare = []
    for path in sorted(TUI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in BARE:
                bare.append(f"{path.relative_to(TUI)}:{node.lineno} {name}(...)")
    assert not bare, f"use KeyTable, PickList or CheckList instead: {bare}"


def _keys(widget_class: type[Any], action: str) -> set[str]:
    """The keys bound to `action` by the class and its bases (BINDINGS, as declared)."""
    keys: set[str] = set()
    for klass in inspect.getmro(widget_class):
        for binding in klass.__dict__.get("BINDINGS", []):
            if isinstance(binding, Binding) and binding.action == action:
                keys.update(key.strip() for key in binding.key.split(","))
            elif isinstance(binding, tuple) and binding[1] == action:
                keys.update(key.strip() for key in binding[0].split(","))
    return keys


def test_every_list_widget_class_of_the_console_binds_j_and_k() -> None:
    classes = set()
    for name in _console_modules():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if value.__module__ == name and issubclass(value, LISTS):
                classes.add(value)
    assert {c.__name__ for c in classes} >= {"RowTable", "KeyTable", "PickList", "CheckList"}
    for klass in classes:
        assert "j" in _keys(klass, "cursor_down"), f"{klass.__name__}: no j"
        assert "k" in _keys(klass, "cursor_up"), f"{klass.__name__}: no k"


# ---- the walk through every screen -------------------------------------------------------


def _rows(widget: Widget) -> int:
    if isinstance(widget, (DataTable, RowTable)):
        return widget.row_count
    if isinstance(widget, OptionList):
        return widget.option_count
    assert isinstance(widget, ListView)
    return len(widget.children)


def _cursor(widget: Widget) -> int | None:
    if isinstance(widget, (DataTable, RowTable)):
        return widget.cursor_row
    if isinstance(widget, OptionList):
        return widget.highlighted
    assert isinstance(widget, ListView)
    return widget.index


def _to_first_row(widget: Widget) -> None:
    if isinstance(widget, (DataTable, RowTable)):
        widget.move_cursor(row=0)
    elif isinstance(widget, OptionList):
        widget.highlighted = 0
    elif isinstance(widget, ListView):
        widget.index = 0


def lists_shown(screen: Screen[Any]) -> list[Widget]:
    """The lists on `screen` that show, with two rows or more."""
    return [
        widget
        for widget in screen.query("*")
        if isinstance(widget, LISTS) and widget.display and _rows(widget) >= 2
    ]


async def press_j_and_k_in_every_list(pilot: Pilot[Any], checked: dict[str, int]) -> None:
    """Each list shown on the top screen with two rows or more: from its first row, j goes
    to the second and k back. `checked` counts the lists checked, by screen class."""
    screen = pilot.app.screen
    lists = lists_shown(screen)
    for widget in lists:
        widget.focus()
        _to_first_row(widget)
        await pilot.pause()
        where = f"{type(screen).__name__} {type(widget).__name__}#{widget.id}"
        assert _cursor(widget) == 0, where
        await pilot.press("j")
        assert _cursor(widget) == 1, f"j did not move down in {where}"
        await pilot.press("k")
        assert _cursor(widget) == 0, f"k did not move up in {where}"
    name = type(screen).__name__
    checked[name] = checked.get(name, 0) + len(lists)


async def back_to_console(pilot: Pilot[Any]) -> None:
    app = pilot.app
    while not isinstance(app.screen, ConsoleScreen):
        if app.screen.is_modal:
            app.screen.dismiss(None)
        else:
            app.pop_screen()
        await pilot.pause()


@pytest.fixture
def journal_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TENANT_CONSOLE_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


async def test_j_and_k_move_in_every_list_of_every_screen(service: Any, journal_dir: Path) -> None:
    one = service.new_tenant("Lists one")
    two = service.new_tenant("Lists two")
    seed = Seeder(service.base_url, one.key)
    try:
        for n in (1, 2):
            seed.application(f"App {n}")
            seed.proxy(f"Proxy {n}")
            seed.formula(f"Formula {n}")
    finally:
        seed.close()
    journal = open_journal()
    for n in (1, 2):
        change = PendingChange(
            method="POST",
            path="/proxies",
            kind="proxies",
            action="create",
            object_id=None,
            name=f"Proxy {n}",
            before=None,
            request={"name": f"Proxy {n}"},
            profile="one",
            base_url=service.base_url,
            tenant=None,
            origin="console",
        )
        journal.complete(journal.record(change), outcome="ok", after={"id": f"p{n}"})
    journal.close()

    app = two_profile_app(("one", service.base_url, one.key), ("two", service.base_url, two.key))
    checked: dict[str, int] = {}
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for section in "123456":  # every section of the console
            await pilot.press(section)
            await settle(pilot)
            await press_j_and_k_in_every_list(pilot, checked)
        assert checked["ConsoleScreen"] >= 4

        opened = [
            ("A", ReviewScreen),  # the access review
            ("H", HistoryScreen),  # the change journal
            ("P", OverviewScreen),  # every profile
            ("p", ProfilePicker),  # the profile picker
        ]
        await pilot.press("1")
        await settle(pilot)
        for key, kind in opened:
            await pilot.press(key)
            await wait_until(pilot, screen_is(app, kind), what=kind.__name__)
            await wait_until(pilot, lambda: bool(lists_shown(app.screen)), what="its rows")
            await press_j_and_k_in_every_list(pilot, checked)
            await back_to_console(pilot)

        app.open_who_holds("token:read")  # who holds a permission
        await wait_until(pilot, screen_is(app, HoldersScreen), what="who holds")
        await wait_until(pilot, lambda: bool(lists_shown(app.screen)), what="its rows")
        await press_j_and_k_in_every_list(pilot, checked)
        await back_to_console(pilot)

        await pilot.press("1")
        await settle(pilot)
        await pilot.press("n")  # a form with a list: the application's permissions
        await wait_until(pilot, screen_is(app, ApplicationForm), what="the form")
        await wait_until(pilot, lambda: bool(lists_shown(app.screen)), what="its rows")
        await press_j_and_k_in_every_list(pilot, checked)
        await back_to_console(pilot)

        dialogs: list[Screen[Any]] = [
            KeyChoiceModal("Revoke which key?", [("a", "key a"), ("b", "key b")]),
            TargetProfilePicker("Copy to", ["two", "three"]),
        ]
        for dialog in dialogs:
            app.show(dialog)
            await wait_until(pilot, screen_is(app, type(dialog)), what=type(dialog).__name__)
            await press_j_and_k_in_every_list(pilot, checked)
            await back_to_console(pilot)

        assert console(app) is app.screen
        assert resource_list(app, "applications").table.has_focus
    for name in (
        "ReviewScreen",
        "HistoryScreen",
        "OverviewScreen",
        "ProfilePicker",
        "HoldersScreen",
        "ApplicationForm",
        "KeyChoiceModal",
        "TargetProfilePicker",
    ):
        assert checked.get(name, 0) >= 1, f"no list with two rows was checked on {name}"
