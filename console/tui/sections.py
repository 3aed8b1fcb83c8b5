"""The six sections of the console, in the order of their number keys."""

from __future__ import annotations

from dataclasses import dataclass

from console.tui.resources import APPLICATIONS, PERMISSIONS, PROXIES, REACTOR_FORMULAS, TENANT


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
"""The sections of a kind take its key and title (console.tui.resources); Usage is no kind."""
SECTIONS_BY_KEY = {s.key: s for s in SECTIONS}

KEYS: tuple[tuple[str, str], ...] = (
    ("1-6", "Sections: " + ", ".join(f"{s.number} {s.title}" for s in SECTIONS)),
    (
        "/",
        "Filter the loaded rows as you type (any column, or column:value); enter asks the"
        " service, or searches the whole tenant",
    ),
    ("enter", "Open the highlighted object"),
    ("escape", "Back (or stop a search or a load, or clear the filter)"),
    ("r", "Refresh / retry"),
    ("y", "Copy the id of the object"),
    ("ctrl+r", "Test-run a formula's code or a proxy's transform, locally (form or detail)"),
    ("v", "Raw JSON view on a detail (toggle)"),
    ("s / S", "Sort the list by the next column / reverse the order (loaded rows)"),
    ("ctrl+g", "Load every page of the list, then sort it all"),
    ("A", "Access review of every application (in Applications; f filters by flag, x exports)"),
    ("w", "Who holds the highlighted permission, directly or through a rule (in Permissions)"),
    ("H", "History of the changes made through the console (u undoes one)"),
    ("K", "Enter a new key when the service rejects the profile's key"),
    ("p", "Switch profile"),
    ("P", "Every profile at once: key, tenant, usage, counts"),
    ("?", "This help"),
    ("q", "Quit"),
    (
        "ctrl+p",
        "Command palette: sections, profiles, open by name or id, load a list to its end,"
        " sort it by any column, theme, quit",
    ),
)
"""Every key of the console, for the help screen."""

CHANGE_KEYS: tuple[tuple[str, str], ...] = (
    ("n", "New application, proxy or formula (in its list)"),
    ("e", "Edit the object (row or detail), or the tenant (Tenant section)"),
    ("d", "Delete the object, or the tenant (asks first)"),
    ("R", "Regenerate an application's API key (asks first; shown once)"),
    ("N", "New key beside an application's others (its detail; shown once)"),
    ("x", "Revoke one of an application's keys (its detail; asks first)"),
    ("o", "Rotate an application's key: new key, deploy, revoke the old (its detail)"),
    ("c", "Copy the application, proxy or formula to another profile (shows the plan first)"),
    ("ctrl+s", "Save a form (escape cancels; asks if there are unsaved changes)"),
)
"""Keys that change data: neither shown nor allowed in read-only mode."""
