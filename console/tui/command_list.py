"""A palette provider over a list of named commands: every one offered when the palette
opens, and those whose text matches what is typed. The console's own providers (lists,
review, estate, usage) differ only in the commands they list."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.command import DiscoveryHit, Hit, Hits, Provider

Command = tuple[str, Callable[[], object], str]
"""(text shown in the palette, what it does, a line of help)."""


class CommandListProvider(Provider):
    """Subclasses say which commands apply to the screen now (`commands`)."""

    def commands(self) -> Iterable[Command]:
        """The commands on offer now; none by default."""
        return ()

    async def discover(self) -> Hits:
        for text, callback, help_text in self.commands():
            yield DiscoveryHit(text, callback, help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, callback, help_text in self.commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), callback, help=help_text)
