"""Notifications that replace one another: four presses of `s` leave one note, not four.

Textual's App.notify adds a toast each time. The rule here (drop_repeats, which the console
app runs for every notification as it arrives): a new toast takes the place of those still on
screen with the same title, or, untitled, the same text, errors included. notify_once goes
further for notes whose title changes: it takes away the toast it showed last for the same
`kind` (matched by its title and text), so a note that answers a key shows its latest answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import Notification, SeverityLevel

_shown: WeakKeyDictionary[App[object], dict[str, tuple[str, str]]] = WeakKeyDictionary()
"""Per app: the (title, message) last shown for each kind."""


def repeats(new: Notification, shown: Notification) -> bool:
    """Whether `new` says again what `shown` said: the same title, or both untitled and the
    same text."""
    if new.title or shown.title:
        return new.title == shown.title
    return new.message == shown.message


def drop_repeats(app: App[Any], new: Notification) -> None:
    """Takes away the toasts still on screen that `new` repeats, before `new` is shown (the
    app's handler of Notify runs this first; App's own handler adds `new` and refreshes)."""
    stale = [n for n in app._notifications if n is not new and repeats(new, n)]
    for notification in stale:
        app._unnotify(notification, refresh=False)


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
