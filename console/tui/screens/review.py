"""The access review (`A` in Applications, or the palette): every application with its type,
permissions, access rules, expiry and last activity, flagged where it goes beyond minimum
scope or has not acted for long; below the table, the People part: the owner, members
without MFA, pending and expired invitations.

The flags and the walk are console.client.review's (the command line exports the same rows),
the people console.client.review_people's, the activity console.audit.activity's (the logs
read now and the profile's archive); this screen shows them as they come, filters the
applications by flag (`]` / `[`), opens one (enter) and exports what it shows (`X`, CSV or
JSON by the file's name, the people included).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from console.client.review import (
    FLAGS,
    FLAGS_BY_KEY,
    INACTIVE,
    Catalogue,
    ReviewRow,
    review_pages,
    with_activity,
)
from console.tui.base import formatting as fmt
from console.tui.base.app_access import router, session_host
from console.tui.browse.kinds import PERMISSIONS
from console.tui.palette.command_list import Command, CommandListProvider
from console.tui.palette.review_commands import WhoHoldsCommands
from console.tui.screens.tenant_walk import TenantWalkScreen
from console.tui.widgets.row_table import Cell, RowTable, TableColumn

if TYPE_CHECKING:
    from datetime import datetime

    from console.audit.archive import LogArchive
    from console.client.client import AdminClient
    from console.client.review import ReviewPage
    from console.client.review_activity import Activity
    from console.client.review_people import People

log = logging.getLogger(__name__)

ANY_FLAG = "any"
"""The filter that keeps every flagged application."""
FILTERS: tuple[str | None, ...] = (None, ANY_FLAG, *(flag.key for flag in FLAGS))
"""What `]` steps through: everything, anything flagged, then each flag."""


def filter_label(key: str | None) -> str:
    if key is None:
        return "all"
    if key == ANY_FLAG:
        return "any flag"
    return FLAGS_BY_KEY[key].label


def flag_counts(rows: list[ReviewRow]) -> dict[str, int]:
    """How many rows hold each flag, and any flag (ANY_FLAG)."""
    counts: dict[str, int] = {}
    for row in rows:
        for key in (*row.flags, *((ANY_FLAG,) if row.flags else ())):
            counts[key] = counts.get(key, 0) + 1
    return counts


def passes(row: ReviewRow, key: str | None) -> bool:
    if key is None:
        return True
    if key == ANY_FLAG:
        return bool(row.flags)
    return key in row.flags


def _expiry(row: ReviewRow) -> Cell:
    if row.expires_at is None:
        return Text("never", style="dim")
    try:
        moment = fmt.wire_time(row.expires_at)
    except ValueError:
        return row.expires_at  # as sent: not judged
    day = fmt.short_date(moment).split(" ", 1)[0]  # the day is enough in a review
    return Text(day, style=fmt.expiry_style(moment))


def _expiry_in_full(row: ReviewRow) -> str:
    """ "2026-12-01 10:00 UTC (in 7 days)", "never", or the value as sent if not a time."""
    if row.expires_at is None:
        return "never"
    try:
        return fmt.when(fmt.wire_time(row.expires_at))
    except ValueError:
        return row.expires_at


def _rules(row: ReviewRow) -> Cell:
    if not row.rules:
        return Text("none", style="dim")
    parts = []
    for rule in row.rules:
        where = f" {rule.container}" if rule.container else ""
        parts.append(f"{rule.transform or '?'}{where}")
    return ", ".join(parts)


NEVER = Text("never", style="dim")
NONE = Text("none", style="dim")
NO_FLAG = Text("—", style="dim")
UNKNOWN = Text("?", style="dim")


@lru_cache(maxsize=64)
def _flags_cell(flags: tuple[str, ...]) -> Cell:
    """The Flags cell; one Text per combination of flags (there are few)."""
    if not flags:
        return NO_FLAG
    return Text(", ".join(FLAGS_BY_KEY[key].label for key in flags), style="bold yellow")


def _last_active(row: ReviewRow, judged: bool) -> Cell:
    """The day of its last activity; "none" when none is known, "?" when not judged."""
    if row.last_activity_at is None:
        return NONE if judged else UNKNOWN
    try:
        moment = fmt.wire_time(row.last_activity_at)
    except ValueError:
        return row.last_activity_at
    day = fmt.short_date(moment).split(" ", 1)[0]
    return Text(day, style="yellow") if INACTIVE in row.flags else day


def _last_active_in_full(row: ReviewRow, judged: bool) -> str:
    if row.last_activity_at is None:
        return "none known" if judged else "not known (the audit logs were not read)"
    try:
        return fmt.when(fmt.wire_time(row.last_activity_at))
    except ValueError:
        return row.last_activity_at


def review_cells(row: ReviewRow, judged: bool = True) -> tuple[Cell, ...]:
    """`judged`: whether activity was read (else the last-activity cell is "?")."""
    return (
        row.name if row.readable else Text(row.name or "(unreadable)", style="dim italic"),
        row.type or UNKNOWN,
        _flags_cell(row.flags),
        ", ".join(row.permissions) or NONE,
        _rules(row) if row.rules else NONE,
        _expiry(row) if row.expires_at is not None else NEVER,
        _last_active(row, judged),
    )


PEOPLE_SHOWN = 3
"""E-mails named per finding in the People part; more are counted."""


def people_text(people: People | None) -> Text:
    """The People part: one finding after another, each with the e-mails it concerns."""
    from console.client.review_people import OWNER, PEOPLE_FLAGS, PEOPLE_FLAGS_BY_KEY
    from console.terminal_text import printable

    text = Text("People: ", style="bold")
    if people is None:
        text.append("reading members and invitations…", style="dim")
        return text
    parts = 0
    for flag in PEOPLE_FLAGS:
        rows = people.with_flag(flag.key)
        if not rows:
            continue
        if parts:
            text.append(" · ", style="dim")
        parts += 1
        style = "bold" if flag.key == OWNER else "bold yellow"
        text.append(f"{PEOPLE_FLAGS_BY_KEY[flag.key].label} {len(rows)}", style=style)
        named = ", ".join(printable(row.name) for row in rows[:PEOPLE_SHOWN])
        more = f" +{len(rows) - PEOPLE_SHOWN}" if len(rows) > PEOPLE_SHOWN else ""
        text.append(f" ({named}{more})")
    members = sum(1 for row in people.rows if row.kind == "member")
    if parts:
        text.append(" · ", style="dim")
    text.append(f"{members} members", style="dim")
    if people.problem:
        text.append(f" · {printable(people.problem)}", style="yellow")
    return text


class ReviewViewCommands(CommandListProvider):
    """On the review itself: show one flag, every row, or export."""

    def commands(self) -> Iterator[Command]:
        screen = self.screen
        if not isinstance(screen, ReviewScreen):
            return
        for key in FILTERS:
            yield (
                f"Review: show {filter_label(key)}",
                partial(screen.set_filter, key),
                "Filter the access review by flag (f / F step through them)",
            )
        yield ("Export the access review", screen.action_export, "CSV or JSON, by file name")


class ReviewScreen(TenantWalkScreen["ReviewPage"]):
    """Pushed above the console; escape stops the reading, then goes back."""

    DEFAULT_CSS = """
    ReviewScreen > #review-flags { height: auto; padding: 0 1; }
    ReviewScreen > #review-selected {
        height: auto; max-height: 5; padding: 0 1; color: $text-muted;
    }
    ReviewScreen > #review-people { height: auto; max-height: 3; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "next_filter", "Flag filter", key_display="]"),
        Binding(
            "left_square_bracket",
            "previous_filter",
            "Previous flag filter",
            key_display="[",
            show=False,
        ),
        Binding("X", "export", "Export"),
    ]

    COMMANDS = {ReviewViewCommands, WhoHoldsCommands}

    title_text = "Access review"
    columns = (
        TableColumn("name", "Name", 24, min_width=14, grow=True),
        TableColumn("type", "Type", None),
        TableColumn("flags", "Flags", 33, min_width=12, grow=True),
        TableColumn(PERMISSIONS.key, PERMISSIONS.title, 40, min_width=30, drop_order=2, grow=True),
        TableColumn("rules", "Rules", 24, min_width=10, drop_order=1, grow=True),
        TableColumn("expires", "Expires", 10, drop_order=3),
        TableColumn("active", "Last active", 11, drop_order=4),
    )

    def __init__(self, flag: str | None = None) -> None:
        """`flag`: show only the applications with this flag (a key of FLAGS, or "any")."""
        super().__init__()
        self.rows: list[ReviewRow] = []
        """Every application read, in the service's order."""
        self.shown: list[ReviewRow] = []
        """The rows on screen: those that pass the filter."""
        self.flag_filter: str | None = flag if flag in FILTERS else None
        self.counts: dict[str, int] = {}
        self.catalogue: Catalogue | None = None
        self.activity: Activity | None = None
        self.people: People | None = None
        self._archive: LogArchive | None = None
        self._inactive_before: datetime | None = None

    def compose_above_table(self) -> ComposeResult:
        yield Static("", id="review-flags")

    def compose_below_table(self) -> ComposeResult:
        yield Static(people_text(None), id="review-people")
        yield Static("", id="review-selected")

    # ---- the walk ------------------------------------------------------------------------

    def walk(self, client: AdminClient) -> AsyncIterator[ReviewPage]:
        """The applications' pages at once; the people and the activity beside them (the
        first page never waits for a day of logs: rows get their activity when it comes)."""
        from console.client.review_activity import inactive_limit

        self._inactive_before = inactive_limit()
        self.run_worker(self._read_people(client), group="people", exclusive=True)
        self.run_worker(self._read_activity(client), group="activity", exclusive=True)
        return review_pages(client)

    async def _read_activity(self, client: AdminClient) -> None:
        """The logs read now and the profile's archive, asked but not written to here (the
        Logs section and `logs --archive` fill it); opened off the screen's thread, and kept
        open to ask for the applications of pages still to come."""
        from console.audit.activity import open_archive, review_activity

        connection = session_host(self).connection
        profile = connection.profile if connection is not None else None
        archive = await asyncio.to_thread(open_archive, profile) if profile else None
        self._close_archive()
        self._archive = archive
        try:
            activity = await review_activity(client, archive, sync=False)
        except Exception:  # review_activity says what it could not read; else a bug
            log.exception("The access review's activity could not be read")
            return
        self._activity_known(activity)

    def _close_archive(self) -> None:
        archive, self._archive = self._archive, None
        if archive is not None:
            archive.close()

    def on_unmount(self) -> None:
        super().on_unmount()
        self._close_archive()

    def _activity_known(self, activity: Activity) -> None:
        """Every row read so far with its last activity (and flagged inactive where it is);
        the table redrawn with the cursor on the same application."""
        if activity.problem:
            self.notify(activity.problem, title="Access review", severity="warning")
        self.activity = activity
        if not self.rows:
            return
        current = self.current
        self.rows = with_activity(self.rows, activity, inactive_before=self._inactive_before)
        self.counts = flag_counts(self.rows)
        self.shown = [row for row in self.rows if passes(row, self.flag_filter)]
        cursor = 0
        if current is not None:
            cursor = next((i for i, row in enumerate(self.shown) if row.id == current.id), 0)
        self._pending_rows = []  # every row shown is set below
        judged = self.activity_judged
        self.table.set_rows([review_cells(row, judged) for row in self.shown], cursor=cursor)
        self._show_flags()
        self._show_progress()
        self._show_selected()
        self.refresh_bindings()

    async def _read_people(self, client: AdminClient) -> None:
        from console.client.review_people import read_people

        try:
            people = await read_people(client)
        except Exception:  # read_people says what it could not read; anything else is a bug
            log.exception("The access review's people could not be read")
            return
        self.people = people
        self._show_people()

    def _show_people(self) -> None:
        """The people's line, where the screen has it: a walk that ended in a problem (a key
        that may not read applications) or a screen being closed may have none by the time
        the people arrive, and they are kept for the export all the same."""
        for line in self.query("#review-people").results(Static):
            line.update(people_text(self.people))

    def clear(self) -> None:
        super().clear()
        self.workers.cancel_group(self, "activity")
        self.workers.cancel_group(self, "people")
        self._close_archive()
        self.rows, self.shown, self.counts = [], [], {}
        self.catalogue = None
        self.activity = None
        self.people = None
        self._show_people()
        self._show_flags()
        self._show_selected()

    @property
    def activity_judged(self) -> bool:
        return self.activity is not None and self.activity.judged

    def take_page(self, page: ReviewPage) -> None:
        if self.catalogue is None and page.catalogue.problem:
            self.notify(page.catalogue.problem, title="Access review", severity="warning")
        self.catalogue = page.catalogue
        rows = page.rows
        if self.activity is not None:
            rows = with_activity(rows, self.activity, inactive_before=self._inactive_before)
        self.rows += rows
        self.applications_read = len(self.rows)
        for row in rows:
            for key in (*row.flags, *((ANY_FLAG,) if row.flags else ())):
                self.counts[key] = self.counts.get(key, 0) + 1
        new = [row for row in rows if passes(row, self.flag_filter)]
        first = not self.shown
        self.shown += new
        judged = self.activity_judged
        self.add_rows([review_cells(row, judged) for row in new])
        if first and self.shown:
            self._show_selected()
            self.refresh_bindings()

    def show_totals(self) -> None:
        super().show_totals()
        self._show_flags()

    def finished(self) -> None:
        if not self.rows:
            self.show_state(lambda panel: panel.show_empty("This tenant has no applications."))

    def summary(self) -> str:
        flagged = self.counts.get(ANY_FLAG, 0)
        text = f"{flagged:,} flagged"
        if self.flag_filter is not None:
            text += f" · showing {len(self.shown):,} ({filter_label(self.flag_filter)})"
        return text

    # ---- flags ---------------------------------------------------------------------------

    def _show_flags(self) -> None:
        """The filter line: each choice with its count, the current one reversed."""
        text = Text("f filter: ", style="dim")
        for key in FILTERS:
            count = len(self.rows) if key is None else self.counts.get(key, 0)
            label = f"{filter_label(key)} {count:,}"
            style = "reverse bold" if key == self.flag_filter else ""
            text.append(f" {label} ", style=style)
            text.append(" ")
        self.query_one("#review-flags", Static).update(text)

    def set_filter(self, key: str | None) -> None:
        """Shows only the rows with flag `key` (None: every row); the cursor goes to the top."""
        self.flag_filter = key if key in FILTERS else None
        self.shown = [row for row in self.rows if passes(row, self.flag_filter)]
        judged = self.activity_judged
        self.replace_table_rows([review_cells(row, judged) for row in self.shown])
        self._show_flags()
        self._show_progress()
        self._show_selected()
        self.refresh_bindings()

    def _step_filter(self, step: int) -> None:
        index = FILTERS.index(self.flag_filter)
        self.set_filter(FILTERS[(index + step) % len(FILTERS)])

    def action_next_filter(self) -> None:
        self._step_filter(1)

    def action_previous_filter(self) -> None:
        self._step_filter(-1)

    # ---- the highlighted row ---------------------------------------------------------------

    @property
    def current(self) -> ReviewRow | None:
        row = self.table.cursor_row
        return self.shown[row] if 0 <= row < len(self.shown) else None

    def _show_selected(self) -> None:
        """The highlighted application in full: why it is flagged, what it holds, its rules."""
        row = self.current
        line = self.query_one("#review-selected", Static)
        if row is None:
            line.update("")
            return
        text = Text()
        text.append(f"{row.name or '(unnamed)'}: ", style="bold")
        if row.flags:
            text.append(" ".join(FLAGS_BY_KEY[key].explanation for key in row.flags))
        else:
            text.append("no flag.")
        text.append("\nExpires: ", style="bold")
        text.append(_expiry_in_full(row))
        text.append("  Last active: ", style="bold")
        text.append(_last_active_in_full(row, self.activity_judged))
        text.append("  Permissions: ", style="bold")
        text.append(", ".join(row.permissions) or "none")
        for rule in row.rules:
            text.append("\nRule ", style="bold")
            text.append(rule.summary())
        line.update(text)

    @on(RowTable.RowHighlighted)
    def _highlighted(self, event: RowTable.RowHighlighted) -> None:
        self._show_selected()

    @on(RowTable.RowSelected)
    def _selected(self, event: RowTable.RowSelected) -> None:
        row = self.current
        if row is not None:
            self.open_application(row.id)

    # ---- export ----------------------------------------------------------------------------

    def action_export(self) -> None:
        from console.tui.widgets.path_prompt import PathPrompt

        what = f"the {len(self.shown):,} applications shown"
        if self.flag_filter is not None:
            what += f" ({filter_label(self.flag_filter)})"
        if not self.complete:
            what += ", read so far"
        prompt = PathPrompt(
            f"Export {what} as CSV or JSON (by the file's name)",
            mode="save",
            initial="access-review.csv",
            action_label="Export",
        )
        router(self).show(prompt, self._export_to)

    def _export_to(self, path: Path | None) -> None:
        if path is not None:
            self.run_worker(self.export(path), group="export", exit_on_error=False)

    async def export(self, path: Path) -> None:
        """Writes the rows shown to `path`: JSON for a `.json` name, CSV otherwise."""
        from console.client.review_export import format_for, render, write_text

        export_format = format_for(path)
        rows = list(self.shown)
        catalogue, complete = self.catalogue, self.complete
        people, activity = self.people, self.activity

        def write() -> None:  # off the screen's thread: 10,000 rows take a moment
            text = render(
                rows,
                export_format,
                catalogue=catalogue,
                complete=complete,
                people=people,
                activity=activity,
            )
            write_text(path, text)

        try:
            await asyncio.to_thread(write)
        except OSError as error:
            log.warning("The access review could not be written", exc_info=True)
            self.notify(
                f"Could not write {path}: {error.strerror or error}",
                title="Export failed",
                severity="error",
            )
            return
        partial = "" if complete else " (not the whole tenant: the reading was stopped)"
        self.notify(
            f"Wrote {len(rows):,} applications to {path} ({export_format.upper()}){partial}.",
            title="Access review exported",
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "export":
            return bool(self.shown)
        return super().check_action(action, parameters)
