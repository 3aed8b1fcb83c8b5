"""Palette commands for the usage dashboard on screen: auto-refresh interval, refresh now."""

from __future__ import annotations

from collections.abc import Callable

from console.tui.base.shell import PreferenceHost
from console.tui.palette.command_list import Command, CommandListProvider
from console.tui.widgets.usage_dashboard import (
    AUTO_REFRESH_CHOICES,
    UsageDashboard,
    describe_interval,
)


class UsageCommands(CommandListProvider):
    """Palette commands for the dashboard on screen: auto-refresh interval and refresh now.

    The app adds this to its `COMMANDS`; it offers nothing while no dashboard is mounted.
    """

    def _usage_dashboard(self) -> UsageDashboard | None:
        dashboards = self.screen.query(UsageDashboard)
        return dashboards.first() if dashboards else None

    def commands(self) -> list[Command]:
        dashboard = self._usage_dashboard()
        if dashboard is None:
            return []
        commands: list[Command] = []
        for seconds in AUTO_REFRESH_CHOICES:
            current = (dashboard.auto_refresh_seconds or None) == seconds
            label = f"Usage: auto-refresh {describe_interval(seconds)}"
            help_text = "The current setting" if current else "Refetch the usage report on a timer"
            if seconds is None:
                help_text = "The current setting" if current else "Refresh only when asked (r)"
            commands.append((label, auto_refresh_setter(dashboard, seconds), help_text))
        commands.append(
            ("Usage: refresh now", dashboard.action_refresh, "Fetch the usage report again")
        )
        return commands


def auto_refresh_setter(dashboard: UsageDashboard, seconds: int | None) -> Callable[[], None]:
    """The palette command that sets the interval, says so and remembers it."""

    def apply() -> None:
        dashboard.set_auto_refresh(seconds)
        dashboard.notify(f"Usage auto-refresh {describe_interval(seconds)}.", timeout=3)
        # The dashboard may be hosted by an app other than the console's: nothing to remember.
        app = dashboard.app
        if isinstance(app, PreferenceHost):
            app.set_preference(usage_auto_refresh=seconds)

    return apply
