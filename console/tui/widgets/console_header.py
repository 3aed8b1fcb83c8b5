"""The top of every screen: profile, tenant, base URL, and where you are."""

from __future__ import annotations

from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget

from console.tui.base.app_access import session_host
from console.tui.base.session import HeaderFields, Session
from console.tui.browse.sections import SECTIONS


class ConsoleHeader(Widget):
    """Two lines: who you are talking to, then the section tabs (current one highlighted).

    The first line follows the app's current session (console.tui.base.session): it subscribes to
    the app's session signal once mounted, so a new connection or a tenant name, usage line
    or notice that arrives shows in every header on the stack without anyone copying it in.
    The screen sets `section` and `trail`."""

    DEFAULT_CSS = """
    ConsoleHeader {
        height: 2; background: $panel; color: $foreground; padding: 0 1;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    fields: reactive[HeaderFields] = reactive(HeaderFields)
    """What it shows of the session (set by following the session, see on_mount)."""
    section: reactive[str] = reactive("")
    trail: reactive[str] = reactive("")

    def on_mount(self) -> None:
        app = session_host(self)
        app.session_signal.subscribe(self, self._follow, immediate=True)
        self._follow(app.session)

    def _follow(self, session: Session) -> None:
        """A session changed, or was replaced: shown if it is the app's current one (a late
        answer for the previous connection changes only that one, never this header)."""
        if session is session_host(self).session:
            self.fields = session.header_fields()

    # What the first line shows, read from `fields`.

    @property
    def profile(self) -> str:
        return self.fields.profile

    @property
    def tenant(self) -> str:
        return self.fields.tenant

    @property
    def base_url(self) -> str:
        return self.fields.base_url

    @property
    def summary(self) -> str:
        return self.fields.summary

    @property
    def read_only(self) -> bool:
        return self.fields.read_only

    @property
    def unavailable(self) -> frozenset[str]:
        return self.fields.unavailable

    @property
    def badge(self) -> str:
        return self.fields.badge

    @property
    def badge_color(self) -> str:
        return self.fields.badge_color

    @property
    def notice(self) -> str:
        return self.fields.notice

    def render(self) -> Content:
        width = self.content_region.width or self.size.width
        return Content("\n").join([self._first_line(width), self._tabs(width)])

    def _first_line(self, width: int) -> Content:
        """The fullest form that fits: labels, then the base URL, go before the profile,
        the tenant and the usage summary (a narrow terminal keeps those)."""
        profile, tenant = self.profile or "—", self.tenant or "…"
        read_only = Content.from_markup("  [b reverse] READ-ONLY [/]") if self.read_only else None
        summary = (
            Content.from_markup("  [dim]│[/] $summary", summary=self.summary)
            if self.summary and not self.notice
            else None
        )
        # A notice comes before the URL: at 80 columns it must not be the part cut off.
        notice = "  [b $warning]⚠ $notice[/]" if self.notice else ""
        forms = [
            "[b $accent]tenant-console[/]  [dim]profile[/] [b]$profile[/]"
            f"  [dim]tenant[/] [b]$tenant[/]{notice}  [u]$url[/]",
            f"[dim]profile[/] [b]$profile[/]  [dim]tenant[/] [b]$tenant[/]{notice}  [u]$url[/]",
            f"[b]$profile[/] [dim]·[/] [b]$tenant[/]{notice}  [u]$url[/]",
            f"[b]$profile[/] [dim]·[/] [b]$tenant[/]{notice}",
        ]
        badge = None
        if self.badge:
            style = f"bold reverse {self.badge_color}" if self.badge_color else "bold reverse"
            badge = Content.styled(f" {self.badge} ", style)
        line = Content("")
        for markup in forms:
            line = Content.from_markup(
                markup, profile=profile, tenant=tenant, url=self.base_url, notice=self.notice
            )
            if badge is not None:
                line = Content(" ").join([badge, line])
            if read_only is not None:
                line += read_only
            if summary is not None:
                line += summary
            if line.cell_length <= width:
                return line
        return line  # cropped with an ellipsis (text-overflow)

    def _tabs(self, width: int) -> Content:
        """The six sections, with short titles (then numbers only, the current one named)
        when the full ones do not fit, and where you are after them."""
        trail = (
            Content.from_markup(" > [b]$trail[/]", trail=self.trail) if self.trail else Content("")
        )
        tabs = Content("")
        for form in ("title", "short", "number"):
            tabs = Content("")
            for section in SECTIONS:
                current = section.key == self.section
                style = "b reverse $accent" if current else "dim"
                if section.key in self.unavailable:  # the service does not offer it
                    style += " strike"
                title = {"title": section.title, "short": section.short}.get(form, "")
                if form == "number" and current:
                    title = section.short
                key = section.hotkey or "·"  # a section past the number keys (palette)
                text = f" {key} {title} " if title else f" {key} "
                tabs += Content.from_markup(f"[{style}]$text[/] ", text=text)
            # Short titles stay if the trail keeps a dozen cells (it is cut with an ellipsis).
            fits = (tabs + trail).cell_length <= width
            if fits or (form == "short" and tabs.cell_length + 12 <= width):
                break
        return tabs + trail
