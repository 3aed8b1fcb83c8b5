"""Every key of the console, grouped by the screen it works on: what the help (`?`) shows and
what docs/keys.md is generated from (tests/tui/test_findability.py keeps the two the same).
The keys of the declared actions are their declarations' (console.tui.actions.declarations)."""

from __future__ import annotations

from typing import NamedTuple

from console.tui.actions.declarations import (
    COPY_TO_PROFILE,
    DELETE,
    EDIT,
    INVITE,
    NEW,
    NEW_KEY,
    REACT,
    REGENERATE_KEY,
    RESEND,
    REVOKE_KEY,
    ROTATE_KEY,
    TOGGLE,
)
from console.tui.browse.logs_look import FOLLOW_KEY
from console.tui.browse.sections import SECTIONS
from console.tui.browse.webhooks_look import COPY_KEY


class KeyGroup(NamedTuple):
    """The keys of one screen (or of every screen), as (key, what it does)."""

    title: str
    keys: tuple[tuple[str, str], ...]
    changes: bool = False
    """Keys that change data: neither shown nor allowed in read-only mode."""


SECTION_NAMES = ", ".join(f"{s.hotkey} {s.title}" for s in SECTIONS if s.hotkey)
SECTION_KEYS = f"1-{len(SECTIONS) - 1}, 0"
"""The number keys of the built-in sections ("1-9, 0": 0 is Usage, the last)."""

KEY_GROUPS: tuple[KeyGroup, ...] = (
    KeyGroup(
        "Everywhere",
        (
            ("?", "This help, opened at the keys of the screen you are on (g: the top)"),
            (
                "ctrl+p",
                "Command palette: the screen's own commands first, then sections, profiles,"
                " open by name or id, theme, quit",
            ),
            ("p", "Switch profile (in the picker, m makes one the default)"),
            ("P", "All profiles at once: key, tenant, usage, counts"),
            ("H", "History of the changes made through the console"),
            ("escape", "Back, close, or stop what is running"),
            ("q", "Quit"),
            (
                "ctrl+c",
                "Copy the selection; with nothing selected, quit (asks first where a form"
                " holds unsaved changes)",
            ),
        ),
    ),
    KeyGroup(
        "Console: sections and lists",
        (
            (SECTION_KEYS, f"Sections: {SECTION_NAMES}"),
            ("enter", "Open the highlighted object"),
            (
                "/",
                "Filter the loaded rows as you type (column:value too); enter asks the"
                " service, or searches the whole tenant; escape clears",
            ),
            ("j / k, down / up", "Move in a list (and in every picker and dialog list)"),
            ("g / G, home / end", "First / last loaded row; G again loads the rest"),
            ("ctrl+d / ctrl+u", "Half a page down / up"),
            ("pagedown / pageup", "A page down / up"),
            ("s / S", "Sort by the next column / reverse (the loaded rows; the top shows)"),
            ("ctrl+g", "Load every page of the list, then sort it all"),
            ("A", "Access review of every application (in Applications)"),
            ("w", "Who holds the highlighted permission (in Permissions)"),
            ("L", "The highlighted object's log entries (the Logs section, filtered)"),
            (
                FOLLOW_KEY,
                "Logs: follow new entries (a read every 5 s, paused while hidden); again stops."
                " Its / takes type: entity: since: until: actor:",
            ),
            ("r", "Refresh / retry"),
            ("y", "Copy the id of the highlighted object"),
            ("K", "Enter a new key when the service rejects the profile's key"),
        ),
    ),
    KeyGroup(
        "Console: changes",
        (
            (NEW.key, "New application, proxy, formula, reactor or webhook (in its list)"),
            (EDIT.key, "Edit the object (row or detail), or the tenant (Tenant section)"),
            (DELETE.key, "Delete the object, or the tenant (asks first)"),
            (REGENERATE_KEY.key, "Regenerate an application's API key (asks first; shown once)"),
            (
                COPY_TO_PROFILE.key,
                "Copy the application, proxy or formula to another profile (plan first)",
            ),
        ),
        changes=True,
    ),
    KeyGroup(
        "People (members and invitations)",
        (
            ("tab", "Go to the other list: members / invitations"),
            (INVITE.key, "Invite someone: their email and role (ADMIN or READ_ONLY)"),
            (RESEND.key, "Resend the highlighted invitation: it expires 72 hours from now"),
            (EDIT.key, "Change the member's role (the owner's never changes)"),
            (
                DELETE.key,
                "Remove the member or revoke the invitation (asks first; the owner is never "
                "removed, and the console's own user only once their email is typed)",
            ),
        ),
        changes=True,
    ),
    KeyGroup(
        "Detail",
        (
            ("v", "Raw JSON (toggle)"),
            ("ctrl+r", "Test-run a formula's or a reactor's code, or a proxy's pipeline"),
            ("y", "Copy the id"),
            ("r", "Read it again"),
            ("L", "Its log entries (the Logs section, filtered)"),
            (COPY_KEY, "A webhook's: copy the public key its deliveries are verified with"),
            ("j / k, g / G", "Scroll"),
            (
                " / ".join(a.key for a in (EDIT, DELETE, REGENERATE_KEY, COPY_TO_PROFILE)),
                "Edit, delete, regenerate the key, copy to profile",
            ),
        ),
    ),
    KeyGroup(
        "Reactors (list, detail, form)",
        (
            (
                REACT.key,
                "React: run the reactor on the service with a request you edit (async when"
                " asked), beside a test-run of the same request here; read-only mode allows"
                " it with reactor:invoke",
            ),
        ),
    ),
    KeyGroup(
        "Application detail: keys",
        (
            (NEW_KEY.key, "New key beside the others (shown once)"),
            (
                REVOKE_KEY.key,
                "Revoke one of its keys (asks first; the session's own needs the name)",
            ),
            (
                ROTATE_KEY.key,
                "Rotate: new key, deploy it, then revoke the old (or go on with one begun)",
            ),
        ),
        changes=True,
    ),
    KeyGroup(
        "Webhooks (list and detail)",
        (
            (
                TOGGLE.key,
                "Enable or disable the webhook (disabling asks first); a disabled one says why",
            ),
            (NEW.key, "New webhook: name, URL, email, event types (filter them); at most five"),
        ),
        changes=True,
    ),
    KeyGroup(
        "History (H)",
        (
            ("j / k", "Move; the highlighted change shows below (a field diff, code as lines)"),
            ("u", "Undo the highlighted change (asks first)"),
            ("r", "Read the journal again"),
        ),
    ),
    KeyGroup(
        "Access review (A)",
        (
            ("] / [", "Next / previous flag filter"),
            ("X", "Export (CSV or JSON, by file name)"),
            ("enter", "Open the highlighted application"),
            ("r", "Read the tenant again"),
            ("escape", "Stop the reading, then back"),
        ),
    ),
    KeyGroup(
        "Who holds (w)",
        (
            ("enter", "Open the highlighted application"),
            ("r", "Read again"),
        ),
    ),
    KeyGroup(
        "All profiles (P)",
        (
            ("enter", "Switch to the highlighted profile"),
            ("r", "Check every profile again"),
        ),
    ),
    KeyGroup(
        "Forms",
        (
            ("ctrl+s", "Save (every problem is listed at once)"),
            ("escape", "Close (asks if there are unsaved changes)"),
            ("tab / shift+tab", "Next / previous field; never changes a field"),
            ("space", "Tick or untick the highlighted permission or box"),
            ("ctrl+r", "Test-run the code as edited (formula, reactor; proxy: a side's steps)"),
            (
                "F5 / F6 / F7",
                "Formula: its code, configuration contract, request parameters; reactor: its"
                " code, configuration, runtime",
            ),
            ("n / d", "Proxy, on a step list: add a step (type first) / remove one (asks)"),
            ("shift+up / shift+down", "Proxy, on a step list: move the step up / down"),
        ),
        changes=True,
    ),
    KeyGroup(
        "Code editor",
        (
            ("ctrl+] / ctrl+\\", "Indent / outdent the selected lines"),
            ("F2", "Load the code from a file"),
            ("F3", "Save the code to a file"),
            ("F4", "Open the code in $EDITOR"),
            ("F8", "Next problem in the code"),
            ("F9", "Link to a file (follows its changes) / unlink"),
            ("F11, ctrl+f", "Full screen (tab indents there); escape or F11 returns"),
        ),
    ),
    KeyGroup(
        "Test-run",
        (
            ("ctrl+r", "Run the code on the sample request"),
            ("ctrl+t", "Prefill the sample"),
            ("F8", "Go to the error in the code"),
            ("escape", "Close"),
        ),
    ),
    KeyGroup(
        "React",
        (
            (REACT.key, "Send the request to the service (and run it here beside)"),
            ("ctrl+r", "Run the request here only (a test-run)"),
            ("escape", "Close"),
        ),
    ),
    KeyGroup(
        "Dialogs and pickers",
        (
            ("j / k", "Move in a picker's list"),
            ("enter", "Choose; press the focused button"),
            ("y / n", "Yes / no, where a dialog asks"),
            ("left / right", "Previous / next button"),
            ("v / y / w / o", "New key: show it, copy it, write it to a file (0600), done"),
            (
                "t",
                "New key, rotation: tick the box (the key is stored; the new key is deployed"
                " everywhere)",
            ),
            ("a", "Plan: show unchanged objects too"),
            ("ctrl+o", "Welcome screen: open the demo"),
        ),
    ),
)
"""Every key, by screen; the help and docs/keys.md show these."""


SCREEN_GROUPS: dict[str, str] = {
    "ConsoleScreen": "Console: sections and lists",
    "DetailScreen": "Detail",
    "HistoryScreen": "History (H)",
    "ReviewScreen": "Access review (A)",
    "HoldersScreen": "Who holds (w)",
    "OverviewScreen": "All profiles (P)",
    "TestRunScreen": "Test-run",
    "ReactScreen": "React",
}
"""The group `?` opens at, by the name of the screen's class (the screens import this
module's layer, not the other way round); a screen not named here opens at the top."""


def help_group_of(screen: object) -> str | None:
    """The title of the group of keys for `screen` (its class or a base's), if it has one."""
    for cls in type(screen).__mro__:
        if cls.__name__ in SCREEN_GROUPS:
            return SCREEN_GROUPS[cls.__name__]
    return None


def help_groups(read_only: bool = False) -> tuple[KeyGroup, ...]:
    """The groups the help shows: read-only mode leaves out the keys that change data."""
    return tuple(g for g in KEY_GROUPS if not (read_only and g.changes))


def keys_markdown() -> str:
    """docs/keys.md: every group as a table (written by
    `python -m console.tui.actions.help_keys`)."""
    lines = [
        "# Keys reference",
        "",
        "Every key of the console, by the screen it works on. The help screen (`?`) lists the"
        " same keys, opened at the screen you are on; each screen's footer names its own, the"
        " most important first, as many as the width allows (on a narrow line `?` and the"
        " screen's own keys before those every screen has). A key pressed where it does not"
        " apply says where it works.",
        "",
        "<!-- Generated from console/tui/actions/help_keys.py:"
        " python -m console.tui.actions.help_keys -->",
    ]
    for group in KEY_GROUPS:
        lines += ["", f"## {group.title}", ""]
        if group.changes:
            lines += ["Not in read-only mode (`--read-only`).", ""]
        lines += ["| Key | Does |", "|---|---|"]
        for key, what in group.keys:
            shown = " / ".join(
                ", ".join(f"`{k.strip()}`" for k in part.split(",")) for part in key.split(" / ")
            )
            shown = shown.replace("|", "\\|")
            lines.append(f"| {shown} | {what} |")
    lines += [
        "",
        "See also: [Browsing and finding](browsing.md), [Editing and keys](editing.md),"
        " [Access review](access-review.md), [Several tenants](several-tenants.md),"
        " [Code and test-runs](code.md).",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    import pathlib

    target = pathlib.Path(__file__).resolve().parents[3] / "docs" / "keys.md"
    target.write_text(keys_markdown(), encoding="utf-8")
    print(f"wrote {target}")
