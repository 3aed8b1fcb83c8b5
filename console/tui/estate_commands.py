"""Palette commands across tenants: copy the object on screen to another profile, and the
whole-tenant diff with another profile."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider

from console.tui.app_access import console_app
from console.tui.key_permissions import in_read_only_mode
from console.tui.promote import promotable, screen_target, start_promotion, start_tenant_diff


class EstateCommands(Provider):
    """ "Copy … to profile…" for the highlighted or open application, proxy or formula (not
    in read-only mode), and "Compare this tenant with another profile…"."""

    def _commands(self) -> Iterator[tuple[str, Callable[[], None], str]]:
        app = console_app(self)
        if app.connected_client() is None:
            return
        kind, item = screen_target(self.screen)
        if promotable(kind, item) and not in_read_only_mode(app):
            assert kind is not None and item is not None  # promotable says so
            yield (
                f"Copy {kind.singular} {kind.item_name(item)} to profile…",
                partial(start_promotion, self.screen),
                "Shows the plan in the other tenant before changing anything (key c)",
            )
        yield (
            "Compare this tenant with another profile…",
            partial(start_tenant_diff, app),
            "What it takes to make that tenant like this one: settings, applications, "
            "proxies, formulas",
        )

    async def discover(self) -> Hits:
        for text, callback, help_text in self._commands():
            yield DiscoveryHit(text, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, callback, help_text in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
