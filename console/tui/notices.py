"""Notifications that replace one another: four presses of `s` leave one note, not four.

Textual's App.notify adds a toast each time; notify_once first takes away the toast it showed
last for the same `kind` (Textual's Notifications are keyed by their identity), so a note that
answers a key shows its latest answer only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from textual.notifications import Notification

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel

_shown: WeakKeyDictionary[App[object], dict[str, Notification]] = WeakKeyDictionary()
"""Per app: the last notification of each kind."""


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
    markup, so a name or a `[x]` shows as it is). From the app's thread: the toast is added
    now, not through a message, so two quick presses cannot both add theirs."""
    last = _shown.setdefault(app, {})
    previous = last.get(kind)
    if previous is not None:
        del app._notifications[previous]  # a no-op once it has expired or been dismissed
    notification = Notification(
        message,
        title,
        severity,
        app.NOTIFICATION_TIMEOUT if timeout is None else timeout,
        markup=False,
    )
    last[kind] = notification
    app._notifications.add(notification)
    app._refresh_notifications()
