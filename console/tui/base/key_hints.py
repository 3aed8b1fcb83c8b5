"""A key pressed where it does not apply says where it does, instead of doing nothing.

Each such key has, behind its own binding, a hidden one to `explain_key('ACTION')`: Textual
tries it when the first is not allowed here (check_action False or None), as
bindings_policy does for the keys a permission is missing for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding

if TYPE_CHECKING:
    from textual.app import App

WHERE: dict[str, tuple[str, str]] = {
    "access_review": ("A", "A (access review) works in Applications."),
    "who_holds": ("w", "w (who holds) works in Permissions, on a highlighted permission."),
    "sort": ("s", "s (sort) works in a list: Applications, Proxies, Formulas, Permissions."),
    "sort_reverse": ("S", "S (reverse sort) works in a list with rows."),
    "load_all_sorted": ("ctrl+g", "ctrl+g (load all and sort) works in a list with rows."),
    "copy_to_profile": (
        "c",
        "c (copy to profile) works on an application, a proxy or a private formula.",
    ),
    "object_logs": ("L", "L (logs) works on an object: a row of its list, or its detail."),
    "test_run": (
        "ctrl+r",
        "ctrl+r (test-run) works on a formula or a proxy: its detail or its form.",
    ),
}
"""action -> (its key, where it works)."""


def explaining_bindings(*actions: str) -> list[Binding]:
    """Hidden bindings that say where each action's key works (see the module)."""
    return [Binding(WHERE[action][0], f"explain_key('{action}')", show=False) for action in actions]


def explain_key(app: App[object], action: str) -> None:
    """The notification for a key pressed where it does not apply (one at a time)."""
    from console.tui.base.notices import notify_once

    text = WHERE.get(action, (action, f"{action} does not apply here."))[1]
    notify_once(app, "key-hint", text, title="Not here")
