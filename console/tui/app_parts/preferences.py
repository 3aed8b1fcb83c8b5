"""What the console remembers for the next start (the theme, the usage auto-refresh): read
before the first frame and saved in the config dir when asked to persist them (the real
console); tests and snapshots keep them in memory."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.theme import Theme

    from console.profiles.preferences import Preferences

log = logging.getLogger(__name__)


class PreferenceKeeper:
    """The app's preferences: loaded once (the saved theme applied), changed with `set`,
    saved in a worker of the app when they persist."""

    def __init__(self, app: App[Any], *, persist: bool) -> None:
        self._app = app
        self._persist = persist
        self.preferences: Preferences | None = None
        """Once loaded or set (None: the defaults)."""

    def load(self) -> None:
        """The saved theme, before the first frame; theme changes are saved from now on.
        Nothing is read when the preferences do not persist."""
        if not self._persist:
            return
        from console.profiles.preferences import load_preferences

        app = self._app
        self.preferences = load_preferences()  # a few bytes: no thread needed
        theme = self.preferences.theme
        if theme and theme in app.available_themes:
            app.theme = theme
        app.theme_changed_signal.subscribe(app, self._theme_changed)

    def _theme_changed(self, theme: Theme) -> None:
        self.set(theme=theme.name)

    def set(self, **values: Any) -> None:
        """Remembers a preference (theme=..., usage_auto_refresh=...) for the next start: a
        name Preferences lacks is a TypeError, as for any dataclass."""
        if self.preferences is None:
            from console.profiles.preferences import Preferences

            self.preferences = Preferences()
        before, self.preferences = self.preferences, replace(self.preferences, **values)
        if self.preferences != before and self._persist:
            self._app.run_worker(self._save(), group="prefs", exit_on_error=False)

    async def _save(self) -> None:
        from console.profiles.preferences import save_preferences

        if self.preferences is None:  # set sets it before this runs
            return
        try:
            await asyncio.to_thread(save_preferences, self.preferences)
        except OSError as exc:
            log.warning("Could not save the preferences", exc_info=True)
            self._app.notify(f"Preferences not saved: {exc}", severity="warning")
