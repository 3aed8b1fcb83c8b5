"""A declared action's key is written once, with its action: a screen that names its set of
actions (console.tui.actions.declared_keys) gets each one's binding and `action_<name>`
method with no other code."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from console.tui.actions.bindings_policy import (
    CHANGE_KEYS_GROUP,
    CONSOLE_SCREEN_ACTIONS,
    DETAIL_SCREEN_ACTIONS,
)
from console.tui.actions.declarations import NEW, Action, Target
from console.tui.actions.declared_keys import DeclaredActions, ScreenActions
from console.tui.browse.kinds import APPLICATIONS
from console.tui.screens.console import ConsoleScreen
from console.tui.screens.detail import DetailScreen


async def _nothing(app: Any, target: Target) -> object:
    return None


ARCHIVE = Action(
    name="archive",
    key="Z",
    label="Archive",
    kinds=frozenset({APPLICATIONS.key}),
    flow=_nothing,
    refused_as=lambda target: "archiving",
    permission="edit",
)
"""An action only this test declares."""


def bound(screen: type[Screen[Any]], action: str) -> list[Binding]:
    """The screen's bindings (its own and its bases') that call `action`."""
    return [
        binding
        for bindings in screen._merged_bindings.key_to_bindings.values()
        for binding in bindings
        if binding.action == action
    ]


async def test_a_declared_action_gets_its_key_and_method_with_no_other_code() -> None:
    ran: list[tuple[str, str]] = []
    declared = ScreenActions[Any](
        {ARCHIVE.name: ARCHIVE},
        run=lambda screen, name: ran.append(("run", name)),
        explain_lacking=lambda screen, name: ran.append(("lacking", name)),
    )

    class Archives(DeclaredActions, Screen[None], actions=declared):
        pass

    [binding] = bound(Archives, "archive")
    assert (binding.key, binding.description, binding.show) == ("Z", "Archive", True)
    assert callable(Archives.action_archive)

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Archives())

    app = Host()
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("Z")
        await pilot.pause()
        await app.run_action("lacking_permission('archive')", app.screen)
        await pilot.pause()
    assert ran == [("run", "archive"), ("lacking", "archive")]


def test_a_screen_writing_its_own_method_keeps_it() -> None:
    declared = ScreenActions[Any]({ARCHIVE.name: ARCHIVE}, run=print, explain_lacking=print)

    class Own(DeclaredActions, Screen[None], actions=declared):
        def action_archive(self) -> None:
            """Its own."""

    assert Own.action_archive.__doc__ == "Its own."
    assert bound(Own, "archive")


@pytest.mark.parametrize(
    ("screen", "declared"),
    [(ConsoleScreen, CONSOLE_SCREEN_ACTIONS), (DetailScreen, DETAIL_SCREEN_ACTIONS)],
)
def test_each_screen_binds_every_action_it_offers(screen: Any, declared: Any) -> None:
    for name, action in declared.actions.items():
        [binding] = bound(screen, name)
        assert (binding.key, binding.description) == (action.key, action.label)
        assert f"action_{name}" in vars(screen), name
    assert "action_lacking_permission" in vars(screen)


def test_the_console_groups_its_change_keys_under_one_label() -> None:
    grouped = {name: bound(ConsoleScreen, name)[0].group for name in CONSOLE_SCREEN_ACTIONS.actions}
    assert grouped == {
        "new": CHANGE_KEYS_GROUP,
        "edit": CHANGE_KEYS_GROUP,
        "delete": CHANGE_KEYS_GROUP,
        "regenerate": CHANGE_KEYS_GROUP,
        "copy_to_profile": None,
        "react": None,  # a reactor's: its own label, beside enter in the footer
        "invite": None,  # People's own: i and I, each with its label
        "resend": None,
        "toggle": None,  # the webhooks' own: t, On/off
    }
    assert {
        b.group for name in DETAIL_SCREEN_ACTIONS.actions for b in bound(DetailScreen, name)
    } == {None}
    assert bound(ConsoleScreen, NEW.name)[0].key == "n"


def test_a_hidden_binding_of_the_same_key_comes_after_the_action() -> None:
    """key_hints' `explain_key('copy_to_profile')` is tried only when `c` does not apply."""
    for screen in (ConsoleScreen, DetailScreen):
        actions = [b.action for b in screen._merged_bindings.key_to_bindings["c"]]
        assert actions[0] == "copy_to_profile", (screen, actions)
