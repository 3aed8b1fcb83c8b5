"""The top of every screen: profile, tenant, base URL, and where you are."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from console.tui.sections import SECTIONS


class ConsoleHeader(Widget):
    """Two lines: who you are talking to, then the section tabs (current one highlighted)."""

    DEFAULT_CSS = """
    ConsoleHeader {
        height: 2; background: $panel; color: $foreground; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    profile: reactive[str] = reactive("")
    tenant: reactive[str] = reactive("")
    base_url: reactive[str] = reactive("")
    summary: reactive[str] = reactive("")
    section: reactive[str] = reactive("")
    trail: reactive[str] = reactive("")
    read_only: reactive[bool] = reactive(False)
    badge: reactive[str] = reactive("")
    """The profile's label (e.g. PROD), shown reversed in `badge_color`."""
    badge_color: reactive[str] = reactive("")
    notice: reactive[str] = reactive("")
    """A warning about what the header shows (the service unreachable, the demo stopped)."""

    def render(self) -> Content:
        line = Content.from_markup(
            "[b $accent]tenant-console[/]  [dim]profile[/] [b]$profile[/]"
            "  [dim]tenant[/] [b]$tenant[/]",
            profile=self.profile or "—",
            tenant=self.tenant or "…",
        )
        if self.notice:  # before the URL: at 80 columns it must not be the part cut off
            line += Content.from_markup("  [b $warning]⚠ $notice[/]", notice=self.notice)
        line += Content.from_markup("  [u]$url[/]", url=self.base_url)
        if self.badge:
            style = f"bold reverse {self.badge_color}" if self.badge_color else "bold reverse"
            line = Content(" ").join([Content.styled(f" {self.badge} ", style), line])
        if self.read_only:
            line += Content.from_markup("  [b reverse] READ-ONLY [/]")
        if self.summary and not self.notice:
            line += Content.from_markup("  [dim]│[/] $summary", summary=self.summary)
        tabs = Content("")
        for section in SECTIONS:
            style = "b reverse $accent" if section.key == self.section else "dim"
            tabs += Content.from_markup(
                f"[{style}] $n $title [/] ", n=str(section.number), title=section.title
            )
        if self.trail:
            tabs += Content.from_markup(" > [b]$trail[/]", trail=self.trail)
        return Content("\n").join([line, tabs])
