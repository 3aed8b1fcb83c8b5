"""The six sections of the console, in the order of their number keys."""

from __future__ import annotations

from dataclasses import dataclass

from console.tui.browse.kinds import APPLICATIONS, PERMISSIONS, PROXIES, REACTOR_FORMULAS, TENANT


@dataclass(frozen=True)
class Section:
    number: int
    key: str
    title: str
    short: str
    """The title on a narrow terminal's header."""


SECTIONS: tuple[Section, ...] = (
    Section(1, APPLICATIONS.key, APPLICATIONS.title, "Apps"),
    Section(2, PROXIES.key, PROXIES.title, "Proxies"),
    Section(3, REACTOR_FORMULAS.key, REACTOR_FORMULAS.title, "Formulas"),
    Section(4, PERMISSIONS.key, PERMISSIONS.title, "Perms"),
    Section(5, TENANT.key, TENANT.title, "Tenant"),
    Section(6, "usage", "Usage", "Usage"),
)
"""The sections of a kind take its key and title (console.tui.browse.kinds); Usage is no kind."""
SECTIONS_BY_KEY = {s.key: s for s in SECTIONS}
