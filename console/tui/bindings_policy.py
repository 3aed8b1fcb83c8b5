"""The keys n, e, d and R on the console and detail screens: when they apply, when they are
dimmed for a permission the key lacks, hidden in read-only mode, and which flow they start.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Protocol

from textual.binding import Binding
from textual.screen import Screen

from console.tui.app_access import OfAnApp, console_app
from console.tui.flows import create_flow, delete_flow, edit_flow, regenerate_flow, start_flow
from console.tui.key_permissions import (
    REGENERATE,
    doing,
    in_read_only_mode,
    lacking_now,
    not_offered,
    say_lacking,
)
from console.tui.resources import TENANT

if TYPE_CHECKING:
    from console.tui.resources import Kind, ResourceKind
    from console.tui.shown import Shown
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

    def action_refresh(self) -> None: ...


MUTATING_ACTIONS = ("new", "edit", "delete", "regenerate")
"""The screen actions that change data; read-only mode keeps their keys bound (to say why
not) but out of the footer and help."""


CHANGE_KEYS_GROUP = Binding.Group("New/Edit/Del")
"""n, e and d share one footer label: the footer has little room."""


def hide_mutating_bindings(node: Screen[None]) -> None:
    """In read-only mode, takes the keys that change data out of the footer of `node`.

    Otherwise adds, behind each of those keys, a hidden binding that says which permission
    is missing: a key the session's key may not use is dimmed (check_action None), and
    Textual then tries the next binding of the same key."""
    if not in_read_only_mode(console_app(node)):
        for key, found in list(node._bindings.key_to_bindings.items()):
            for binding in found:
                action = binding.action.split("(")[0]
                if action in MUTATING_ACTIONS:
                    node._bindings.bind(key, f"lacking_permission('{action}')", show=False)
        return
    hidden = (*MUTATING_ACTIONS, "copy_to_profile")  # `c` says why not (refuse_if_read_only)
    bindings = node._bindings.key_to_bindings
    for key, found in list(bindings.items()):
        bindings[key] = [
            dataclasses.replace(b, show=False) if b.action.split("(")[0] in hidden else b
            for b in found
        ]
    node.refresh_bindings()


def _console_target(screen: ConsoleScreen) -> tuple[Kind | None, Shown | None]:
    """(kind, object) the console screen's change keys act on: the highlighted row of a list,
    or the tenant on the Tenant section; (None, None) elsewhere (the permissions list)."""
    current_list = screen.current_list
    if current_list is not None:
        if not current_list.kind.changeable:
            return None, None
        return current_list.kind, current_list.current_row
    if screen.current == TENANT.key:
        view = screen.tenant_view()
        return TENANT, view.tenant if view is not None else None
    return None, None


def console_action_allowed(screen: ConsoleScreen, action: str) -> bool | None:
    """Whether `n`, `e`, `d` or `R` applies where the console screen stands now; None
    (shown dimmed) when it would but the key lacks the permission."""
    app = console_app(screen)
    kind, obj = _console_target(screen)
    if action == "new":
        applies = kind is not None and kind.creatable
    elif action == "regenerate":
        applies = (
            kind is not None
            and kind.regenerable
            and obj is not None
            and REGENERATE not in not_offered(app)
        )
    else:
        applies = obj is not None
    if applies and lacking_now(app, kind, action):
        return None
    return applies


def explain_console_lacking(screen: ConsoleScreen, action: str) -> None:
    """A dimmed `n`, `e`, `d` or `R` was pressed on the console screen: say which permission
    it needs."""
    kind, _ = _console_target(screen)
    _explain(screen, kind, action, dimmed=console_action_allowed(screen, action) is None)


def explain_detail_lacking(screen: DetailScreen, action: str) -> None:
    """A dimmed `e`, `d` or `R` was pressed on a detail screen: say which permission it needs."""
    _explain(screen, screen.kind, action, dimmed=detail_action_allowed(screen, action) is None)


def _explain(screen: OfAnApp, kind: Kind | None, action: str, *, dimmed: bool) -> None:
    app = console_app(screen)
    missing = lacking_now(app, kind, action) if dimmed else None
    if missing and kind is not None:
        say_lacking(app, missing, doing(kind, action))


def run_console_action(screen: ConsoleScreen, action: str) -> None:
    """Starts the flow for `n`, `e`, `d` or `R` on the console screen."""
    app = console_app(screen)
    kind, obj = _console_target(screen)
    if kind is None or (action != "new" and obj is None):
        return
    if obj is not None:
        try:
            obj = kind.model_of(obj)  # the row as sent becomes the model the flows work on
        except Exception as exc:  # an object that does not match the API
            log.warning("The object does not match its model", exc_info=True)
            app.notify(str(exc), title=f"Cannot change this {kind.singular}", severity="error")
            return
    if action == "new":
        start_flow(app, create_flow(app, kind))
    elif action == "edit":
        start_flow(app, edit_flow(app, kind, obj))
    elif action == "delete":
        start_flow(app, delete_flow(app, kind, obj))
    elif action == "regenerate" and kind.regenerable:
        start_flow(app, regenerate_flow(app, obj))


def detail_action_allowed(screen: DetailScreen, action: str) -> bool | None:
    """Whether `e`, `d` or `R` applies to the object a detail screen shows; None (dimmed)
    when the key lacks the permission."""
    if screen.item is None or not screen.kind.changeable:
        return False
    app = console_app(screen)
    if action == "regenerate":
        applies = screen.kind.regenerable and REGENERATE not in not_offered(app)
    else:
        applies = action in ("edit", "delete")
    if applies and lacking_now(app, screen.kind, action):
        return None
    return applies


def run_detail_action(screen: DetailScreen, action: str) -> None:
    """Starts the flow for `e`, `d` or `R` on a detail screen; it shows the result."""
    if detail_action_allowed(screen, action):
        app = console_app(screen)
        start_flow(app, _detail_flow(screen, action))


async def _detail_flow(screen: DetailScreen, action: str) -> None:
    app = console_app(screen)
    if action == "edit":
        if await edit_flow(app, screen.kind, screen.item) is not None:
            screen.action_refresh()
    elif action == "delete":
        if await delete_flow(app, screen.kind, screen.item) and app.screen is screen:
            app.pop_screen()
    elif action == "regenerate":
        await regenerate_flow(app, screen.item)
