"""One meaning per key everywhere (issue 34): a key that does one thing on a screen does the
same on every other, and a thing is done by one key, so what a user learns on one screen
holds on the next.

The walk reads the bindings of every screen, widget and form of console.tui, and the app's
(not those Textual's own widgets bring: a text field's editing keys). A dialog
(console.tui.modals.base.Dialog) is left out: it answers one question while it covers
everything, and its keys are the letters written on its buttons ("Show (v)", "Yes (y)").
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
from collections import defaultdict

import pytest
from textual.binding import Binding
from textual.dom import DOMNode

import console.tui
from console.tui.modals.base import Dialog

UNIVERSAL: dict[str, str] = {
    "escape": "back, close or cancel what is in front (a form, the help, a running walk)",
    "enter": "open or choose what is highlighted",
    "q": "quit; where something covers the console (the help), close it first",
    "question_mark": "the help; on the help, close it",
}
"""Keys whose meaning is universal, whatever each screen calls its action: exempt."""

SAME_MEANING: dict[str, str] = {
    # Read again: each screen reads its own data.
    "reload": "refresh",
    "recheck": "refresh",
    "restart": "refresh",
    # Moves: a list's cursor and a scrolled text's view move alike.
    "scroll_down": "cursor_down",
    "scroll_up": "cursor_up",
    "scroll_home": "scroll_top",
    "scroll_end": "scroll_bottom",
    # ctrl+r test-runs the code: a detail or a form opens the test-run, which runs again.
    "run": "test_run",
    # F8 goes to the problem in the code: the editor's next one, the test-run's error.
    "go_to_error": "next_problem",
}
"""Actions that do one thing under another name (the screen's or Textual's widget's)."""

ALIASES: tuple[frozenset[str], ...] = (
    frozenset({"j", "down"}),
    frozenset({"k", "up"}),
    frozenset({"g", "home"}),
    frozenset({"G", "end"}),
    frozenset({"f5", "alt+1"}),
    frozenset({"f6", "alt+2"}),
    frozenset({"f7", "alt+3"}),
    frozenset({"f11", "ctrl+f"}),
    frozenset({"q", "ctrl+q"}),  # the welcome screen: ctrl+q quits while a key is typed
)
"""Keys that do the same thing on purpose (vi and arrow keys, F-keys and alt+digit)."""


def meaning(action: str) -> str:
    """What a binding does: its action (a hidden key-hint or permission binding means the
    action it stands behind), under the one name of its meaning."""
    name, _, arguments = action.partition("(")
    name = name.removeprefix("app.")
    if name in ("explain_key", "lacking_permission"):
        name = arguments.strip("')\"")
    elif arguments:
        name = action.removeprefix("app.")
    return SAME_MEANING.get(name, name)


def bindings_of_every_screen() -> list[tuple[str, str, str]]:
    """(key, meaning, where) for every binding of a screen, widget, form and the app."""
    for info in pkgutil.walk_packages(console.tui.__path__, "console.tui."):
        importlib.import_module(info.name)
    found = []
    seen: set[type] = set()
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("console.tui"):
            continue
        for cls in vars(module).values():
            if (
                not inspect.isclass(cls)
                or cls in seen
                or not cls.__module__.startswith("console.tui")
                or not issubclass(cls, DOMNode)
                or issubclass(cls, Dialog)
                or "BINDINGS" not in vars(cls)
            ):
                continue
            seen.add(cls)
            for binding in cls.BINDINGS:
                b = binding if isinstance(binding, Binding) else Binding(*binding)
                for key in b.key.split(","):
                    found.append((key.strip(), meaning(b.action), cls.__qualname__))
    return found


def test_the_walk_finds_the_screens_keys():
    keys = {key for key, _, _ in bindings_of_every_screen()}
    assert {"n", "e", "d", "R", "c", "N", "x", "o", "K", "A", "w", "u", "ctrl+r"} <= keys


def test_a_key_has_one_meaning_on_every_screen():
    meanings: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for key, does, where in bindings_of_every_screen():
        if key not in UNIVERSAL:
            meanings[key][does].add(where)
    double = {key: dict(found) for key, found in meanings.items() if len(found) > 1}
    assert not double, f"keys with two meanings (action: screens): {double}"


def test_a_meaning_has_one_key():
    keys: dict[str, set[str]] = defaultdict(set)
    for key, does, _ in bindings_of_every_screen():
        if key not in UNIVERSAL:
            keys[does].add(key)
    several = {
        does: found
        for does, found in keys.items()
        if len(found) > 1 and not any(found <= alias for alias in ALIASES)
    }
    assert not several, f"one action under several keys: {several}"


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("explain_key('copy_to_profile')", "copy_to_profile"),
        ("lacking_permission('delete')", "delete"),
        ("app.quit", "quit"),
        ("section(2)", "section(2)"),
        ("reload", "refresh"),
    ],
)
def test_meaning_names_the_action_a_binding_stands_for(action, expected):
    assert meaning(action) == expected
