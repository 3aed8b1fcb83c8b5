"""A palette provider over a list of named commands: every one offered when the palette
opens, and those whose text matches what is typed. The console's own providers (lists,
review, estate, usage) differ only in the commands they list."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.command import DiscoveryHit, Hit, Hits, Provider

Command = tuple[str, Callable[[], object], str]
"""(text shown in the palette, what it does, a line of help)."""


class ScreenHit(DiscoveryHit):
    """A command of the screen on show, offered when the palette opens: it comes before
    the commands offered everywhere (sections, profiles, theme), whose score is 0."""

    @property
    def score(self) -> float:
        return 1.0


class CommandListProvider(Provider):
    """Subclasses say which commands apply to the screen now (`commands`)."""

    def commands(self) -> Iterable[Command]:
        """The commands on offer now; none by default."""
        return ()

    async def discover(self) -> Hits:
        """Every command, before those of the app (they are the screen's: ScreenHit)."""
        for text, callback, help_text in self.commands():
            yield ScreenHit(text, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, callback, help_text in self.commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
