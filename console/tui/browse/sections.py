"""The console's sections, in the order of their number keys: one per kind with a look of
its own section, in the registry's order (console.tui.browse.looks; the invitations are
listed within People), then Usage, which is no kind."""

from __future__ import annotations

from dataclasses import dataclass

from console.tui.browse import logs_look as logs_look  # registers the Logs look
from console.tui.browse.kinds import LOOKS
from console.tui.browse.live import LiveMapping, LiveSequence


@dataclass(frozen=True)
class Section:
    number: int
    key: str
    title: str
    short: str
    """The title on a narrow terminal's header."""


USAGE = ("usage", "Usage", "Usage")
"""The last section: the tenant's usage (key, title, short title)."""


def sections() -> tuple[Section, ...]:
    """The sections as the registry is now: a kind's take its key and titles from its look."""
    shown = [(look.key, look.title, look.short) for look in LOOKS.sectioned()]
    return tuple(Section(n, *s) for n, s in enumerate([*shown, USAGE], start=1))


MAX_SECTIONS = 10
"""Number keys 1-9, then 0, go to sections: the built-in ones, then any kind registered later."""


def number_key(number: int) -> str:
    """The key of section `number`: "1" to "9", and "0" for the tenth (as a keyboard's row
    reads)."""
    return str(number % 10)


SECTIONS: LiveSequence[Section] = LiveSequence(sections)
"""`sections()`, as of each use."""
SECTIONS_BY_KEY: LiveMapping[Section] = LiveMapping(lambda: {s.key: s for s in sections()})
