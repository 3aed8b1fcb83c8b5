"""The keys of the actions that change data on the console and detail screens (n, e, d, R,
c; N, x, o): what each acts on there, and, from the action's declaration
(console.tui.actions.declarations), when its key applies, when it is dimmed for a permission the key
lacks, hidden in read-only mode, and the flow it starts.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from textual.binding import Binding
from textual.screen import Screen

from console.tui.actions.declarations import (
    CONSOLE_ACTIONS,
    DELETE,
    DETAIL_ACTIONS,
    EDIT,
    NEW,
    NEW_KEY,
    NO_TARGET,
    REGENERATE_KEY,
    REVOKE_KEY,
    ROTATE_KEY,
    TOGGLE,
    Action,
    Target,
    explain_lacking,
    offered,
    run,
)
from console.tui.actions.declarations import start as start_action
from console.tui.actions.declared_keys import ScreenActions
from console.tui.actions.flows import start_flow
from console.tui.actions.key_permissions import in_read_only_mode
from console.tui.base.app_access import OfAnApp, flow_host, session_host
from console.tui.browse.kinds import TENANT

if TYPE_CHECKING:
    from console.tui.base.shown import Shown
    from console.tui.browse.kinds import ResourceKind
    from console.tui.widgets.resource_list import ResourceList
    from console.tui.widgets.tenant_view import TenantView

log = logging.getLogger(__name__)


class ConsoleScreen(OfAnApp, Protocol):
    """What this policy reads of the console screen (console.tui.screens.console), which
    imports it: the section on show, its list or the tenant view."""

    @property
    def current(self) -> str: ...

    @property
    def current_list(self) -> ResourceList | None: ...

    def tenant_view(self) -> TenantView | None: ...


class DetailScreen(OfAnApp, Protocol):
    """What this policy reads of a detail screen (console.tui.screens.detail), which imports
    it: the object shown and its kind."""

    @property
    def kind(self) -> ResourceKind: ...

    @property
    def item(self) -> Shown | None: ...

    @property
    def is_attached(self) -> bool: ...

    def action_refresh(self) -> None: ...


CHANGE_KEYS_GROUP = Binding.Group("New/Edit/Del/Regen")
"""n, e, d and R share one footer label: the footer has little room. The label names only
the keys shown (KeyBar: "New/Edit/Del" on the proxies, which have no key to regenerate)."""


def hide_mutating_bindings(node: Screen[None], actions: Mapping[str, Action]) -> None:
    """In read-only mode, takes the keys of `actions` that read-only mode refuses out of
    the footer of `node` (they stay bound, to say why not).

    Otherwise adds, behind each key of an action that needs a permission, a hidden binding
    that says which permission is missing: a key the session's key may not use is dimmed
    (check_action None), and Textual then tries the next binding of the same key."""
    if not in_read_only_mode(session_host(node)):
        for key, found in list(node._bindings.key_to_bindings.items()):
            for binding in found:
                action = actions.get(binding.action.split("(")[0])
                if action is not None and action.permission is not None:
                    node._bindings.bind(key, f"lacking_permission('{action.name}')", show=False)
        return
    hidden = {name for name, action in actions.items() if action.refused_in_read_only}
    bindings = node._bindings.key_to_bindings
    for key, found in list(bindings.items()):
        bindings[key] = [
            dataclasses.replace(b, show=False) if b.action.split("(")[0] in hidden else b
            for b in found
        ]
    node.refresh_bindings()


def console_target(screen: ConsoleScreen) -> Target:
    """What the console screen's actions act on: the highlighted row of a list (of its
    kind), or the tenant on the Tenant section; nothing elsewhere (the Usage section)."""
    current_list = screen.current_list
    if current_list is not None:
        return Target(current_list.kind, current_list.current_row)
    if screen.current == TENANT.key:
        view = screen.tenant_view()
        return Target(TENANT, view.tenant if view is not None else None)
    return NO_TARGET


def detail_target(screen: DetailScreen) -> Target:
    """What a detail screen's actions act on: its object (one shown as sent, because it did
    not match its model, can be read but not changed)."""
    return Target(screen.kind, screen.item, unreadable=isinstance(screen.item, dict))


def console_action_allowed(screen: ConsoleScreen, action: str) -> bool | None:
    """check_action for a declared action on the console screen: whether it applies where
    the screen stands now; None (shown dimmed) when the key lacks the permission."""
    return offered(CONSOLE_ACTIONS[action], flow_host(screen), console_target(screen))


def explain_console_lacking(screen: ConsoleScreen, action: str) -> None:
    """A dimmed key was pressed on the console screen: say which permission it needs."""
    explain_lacking(CONSOLE_ACTIONS[action], flow_host(screen), console_target(screen))


def run_console_action(screen: ConsoleScreen, action: str) -> None:
    """Starts a declared action on the console screen: its guard, then its flow."""
    start_action(CONSOLE_ACTIONS[action], flow_host(screen), console_target(screen))


def detail_action_allowed(screen: DetailScreen, action: str) -> bool | None:
    """check_action for a declared action on a detail screen; None (dimmed) when the key
    lacks the permission."""
    return offered(DETAIL_ACTIONS[action], flow_host(screen), detail_target(screen))


def explain_detail_lacking(screen: DetailScreen, action: str) -> None:
    """A dimmed key was pressed on a detail screen: say which permission it needs."""
    explain_lacking(DETAIL_ACTIONS[action], flow_host(screen), detail_target(screen))


def run_detail_action(screen: DetailScreen, action: str) -> None:
    """Starts a declared action on a detail screen; the screen then shows its result."""
    start_flow(flow_host(screen), _detail_flow(screen, DETAIL_ACTIONS[action]))


KEY_ACTIONS = (NEW_KEY, REVOKE_KEY, ROTATE_KEY)
"""N, x and o: the application's keys panel shows what they did (refreshed after each)."""


async def _detail_flow(screen: DetailScreen, action: Action) -> None:
    app = flow_host(screen)
    result = await run(action, app, detail_target(screen))
    if action in (EDIT, TOGGLE):
        if result is not None:
            screen.action_refresh()
    elif action is DELETE:
        if result and app.screen is screen:
            app.pop_screen()
    elif action in KEY_ACTIONS and screen.is_attached:
        screen.action_refresh()


CONSOLE_SCREEN_ACTIONS = ScreenActions[ConsoleScreen](
    CONSOLE_ACTIONS,
    run_console_action,
    explain_console_lacking,
    group=CHANGE_KEYS_GROUP,
    grouped=frozenset(a.name for a in (NEW, EDIT, DELETE, REGENERATE_KEY)),
)
"""The console screen's keys n, e, d, R (under one footer label) and c."""
DETAIL_SCREEN_ACTIONS = ScreenActions[DetailScreen](
    DETAIL_ACTIONS, run_detail_action, explain_detail_lacking
)
"""A detail screen's keys e, d, R, c, and N, x, o on an application."""
