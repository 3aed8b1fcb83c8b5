"""The console's sections, in the order of their number keys: one per kind with a look of
its own section, in the registry's order (console.tui.browse.looks; the invitations are
listed within People), then Usage, which is no kind.

Keys 1-9 go to the first nine kinds' sections, and 0 to Usage, the last, always: a kind
registered past the ninth (a test's own) has a section without a number key, reached from
the palette ("Go to ..."), and Usage keeps its key."""

from __future__ import annotations

from dataclasses import dataclass

from console.tui.browse import logs_look as logs_look  # registers the Logs look
from console.tui.browse.kinds import LOOKS
from console.tui.browse.live import LiveMapping, LiveSequence


@dataclass(frozen=True)
class Section:
    number: int
    """Its place among the sections, from 1 (Usage's is the last)."""
    key: str
    title: str
    short: str
    """The title on a narrow terminal's header."""
    hotkey: str = ""
    """The number key that goes to it ("1"-"9", "0" for Usage); "" past the ninth kind."""


USAGE = ("usage", "Usage", "Usage")
"""The last section: the tenant's usage (key, title, short title)."""


KIND_KEYS = 9
"""Kinds' sections with a number key (1-9): the built-in ones, then any registered later."""
USAGE_KEY = "0"
"""Usage's key, whatever number of sections comes before it (as a keyboard's row reads)."""
MAX_SECTIONS = KIND_KEYS + 1
"""Sections with a number key: 1-9, and 0 for Usage."""


def sections() -> tuple[Section, ...]:
    """The sections as the registry is now: a kind's take its key and titles from its look."""
    shown = [(look.key, look.title, look.short) for look in LOOKS.sectioned()]
    kinds = [
        Section(n, *s, hotkey=str(n) if n <= KIND_KEYS else "") for n, s in enumerate(shown, 1)
    ]
    return (*kinds, Section(len(kinds) + 1, *USAGE, hotkey=USAGE_KEY))


def number_key(number: int) -> str:
    """The key of section `number` now: "1" to "9" for the first nine kinds, "0" for Usage
    (the last); "" for a section past them (a kind registered after the ninth)."""
    shown = sections()
    return shown[number - 1].hotkey if 0 < number <= len(shown) else ""


def section_of_key(key: str) -> Section | None:
    """The section number key `key` goes to now; None where it goes nowhere."""
    return next((s for s in sections() if s.hotkey == key), None)


SECTIONS: LiveSequence[Section] = LiveSequence(sections)
"""`sections()`, as of each use."""
SECTIONS_BY_KEY: LiveMapping[Section] = LiveMapping(lambda: {s.key: s for s in sections()})
