"""Notifications that replace one another: four presses of `s` leave one note, not four.

Textual's App.notify adds a toast each time; notify_once first takes away the toast it showed
last for the same `kind` (still on screen, matched by its title and text), then notifies as
App.notify does, so a note that answers a key shows its latest answer only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

_shown: WeakKeyDictionary[App[object], dict[str, tuple[str, str]]] = WeakKeyDictionary()
"""Per app: the (title, message) last shown for each kind."""


def notify_once(
    app: App[object],
    kind: str,
    message: str,
    *,
    title: str = "",
    severity: SeverityLevel = "information",
    timeout: float | None = None,
) -> None:
    """App.notify in place of the previous notification of this `kind` (plain text: no
    markup, so a name or a `[x]` shows as it is)."""
    last = _shown.setdefault(app, {})
    previous = last.get(kind)
    if previous is not None:
        stale = [n for n in app._notifications if (n.title, n.message) == previous]
        for notification in stale:
            app._unnotify(notification, refresh=False)  # the new one refreshes the toasts
    last[kind] = (title, message)
    app.notify(message, title=title, severity=severity, timeout=timeout, markup=False)
