"""Palette commands for the usage dashboard on screen: auto-refresh interval, refresh now."""

from __future__ import annotations

from collections.abc import Callable

from textual.command import DiscoveryHit, Hit, Hits, Provider

from console.tui.widgets.usage_dashboard import (
    AUTO_REFRESH_CHOICES,
    UsageDashboard,
    describe_interval,
)


class UsageCommands(Provider):
    """Palette commands for the dashboard on screen: auto-refresh interval and refresh now.

    The app adds this to its `COMMANDS`; it offers nothing while no dashboard is mounted.
    """

    def _usage_dashboard(self) -> UsageDashboard | None:
        dashboards = self.screen.query(UsageDashboard)
        return dashboards.first() if dashboards else None

    def _usage_commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        dashboard = self._usage_dashboard()
        if dashboard is None:
            return []
        commands: list[tuple[str, str, Callable[[], object]]] = []
        for seconds in AUTO_REFRESH_CHOICES:
            current = (dashboard.auto_refresh_seconds or None) == seconds
            label = f"Usage: auto-refresh {describe_interval(seconds)}"
            help_text = "The current setting" if current else "Refetch the usage report on a timer"
            if seconds is None:
                help_text = "The current setting" if current else "Refresh only when asked (r)"
            commands.append((label, help_text, auto_refresh_setter(dashboard, seconds)))
        commands.append(
            ("Usage: refresh now", "Fetch the usage report again", dashboard.action_refresh)
        )
        return commands

    async def discover(self) -> Hits:
        for label, help_text, callback in self._usage_commands():
            yield DiscoveryHit(label, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for label, help_text, callback in self._usage_commands():
            score = matcher.match(label)
            if score > 0:
                yield Hit(score, matcher.highlight(label), callback, help=help_text)


def auto_refresh_setter(dashboard: UsageDashboard, seconds: int | None) -> Callable[[], None]:
    """The palette command that sets the interval, says so and remembers it."""

    def apply() -> None:
        dashboard.set_auto_refresh(seconds)
        dashboard.notify(f"Usage auto-refresh {describe_interval(seconds)}.", timeout=3)
        # The dashboard may be hosted by an app other than the console's: nothing to remember.
        remember = getattr(dashboard.app, "set_preference", None)
        if remember is not None:
            remember(usage_auto_refresh=seconds)

    return apply
