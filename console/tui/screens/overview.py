"""`P`: every profile at once (key, tenant, usage, counts), each row filling as its check ends.

The checks are console.estate.overview's, the same as `tenant-console status`: concurrent
with a bound, a timeout each, keys read only when a profile's turn comes, off this thread.
Enter opens the highlighted profile (as the profile picker does), `r` checks again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from console.estate.overview import (
    DEFAULT_TIMEOUT,
    KeyLookup,
    ProfileStatus,
    ProfileTarget,
    Usage,
    check_profiles,
    saved_targets,
)
from console.tui.base.app_access import connecting, notices, session_host, usage_host
from console.tui.browse.kinds import APPLICATIONS, PROXIES, REACTOR_FORMULAS, REACTORS, TENANT
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.key_table import KeyTable

if TYPE_CHECKING:
    from rich.table import Table

    from console.tui.base.connection import Connection, ProfileSource

log = logging.getLogger(__name__)

CHECKING = "checking…"
MARKS = {True: "✓", False: "✗"}


# ---- where the rows come from ---------------------------------------------------------


def profile_targets(source: ProfileSource, session_profile: str | None) -> list[ProfileTarget]:
    """The profiles to check, without their keys. Blocking (it reads the profiles file).

    Saved profiles are read as `tenant-console status` reads them (each key from the
    keyring when its check starts); any other source (the demo's, tests') through its own
    summaries, each key through its `resolve` when the check starts."""
    from console.tui.base.connection import SavedProfiles

    if isinstance(source, SavedProfiles):
        return saved_targets(session_profile=session_profile)
    default = source.active()
    return [
        ProfileTarget(
            name=summary.name,
            base_url=summary.base_url,
            read_key=_resolving_reader(source, summary.name),
            label=summary.badge,
            color=summary.color,
            tenant_name=summary.tenant_name,
            active=summary.name == default,
        )
        for summary in source.summaries()
    ]


def _resolving_reader(source: ProfileSource, name: str) -> Callable[[float], KeyLookup]:
    def read(timeout: float) -> KeyLookup:
        return lookup_of(source.resolve(name))

    return read


def lookup_of(connection: Connection) -> KeyLookup:
    """What a resolved connection says of its key (its problem is a sentence: read it for
    the two keyring cases, the only ones it does not say otherwise)."""
    found = KeyLookup(
        connection.key,
        base_url=connection.base_url,
        key_header=connection.key_header,
        display_url=connection.display_url,
    )
    if connection.key:
        return found
    problem = connection.problem or f"No key is stored for profile {connection.label}."
    if "keyring" in problem.lower() and "locked" in problem.lower():
        return replace(found, status="keyring_locked", message=problem)
    if problem.startswith("No usable OS keyring"):
        return replace(found, status="keyring_unavailable", message=problem)
    return replace(found, status="no_key", message=problem)


# ---- the table ------------------------------------------------------------------------


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    flex: bool = False
    """Shrinks (with an ellipsis) to `least` cells, and takes the width left over."""
    least: int = 0


COLUMNS = (
    Column("profile", "Profile", flex=True, least=12),
    Column("label", "Label"),
    Column("url", "Base URL", flex=True, least=16),
    Column(TENANT.key, TENANT.title, flex=True, least=8),
    Column("key", "Key", flex=True, least=10),
    Column("usage", "MAT / plan"),
    Column("compact", "MAT / plan"),
    Column("share", "Plan"),
    Column("trend", "This month"),
    Column(APPLICATIONS.key, APPLICATIONS.short),
    Column(PROXIES.key, PROXIES.short),
    Column("formulas", REACTOR_FORMULAS.short),  # the status's field: private formulas
    Column(REACTORS.key, REACTORS.short),
    Column("archive", "Log archive", flex=True, least=14),
    Column("note", "Note"),
)
"""`usage` (the figures), `compact` (in thousands) and `share` (the percentage alone) are one
column in three widths: the widest that fits. `note` (why a row is not ok) shows only in
the width left over on a wide screen; otherwise the line under the table says it for the
highlighted row. `archive` says how far back the profile's log archive reaches (and a gap
in it), for the profiles that have one (console.audit.archive_summary)."""
NOTE_LEAST = 24
"""The note column shows only when this many cells are left over for it."""

PADDING = 2
"""Cells a DataTable adds to each column (cell_padding 1 on both sides)."""


def cells_of(
    status: ProfileStatus | None,
    target: ProfileTarget,
    current: str | None,
    archive: str | None = None,
) -> dict[str, str]:
    """The text of every column for one row (`status` None: still being checked; `archive`:
    what console.audit.archive_summary says of the profile's log archive, if it has one)."""
    tenant = target.tenant_name or ""
    cells = {
        "profile": target.name,
        "label": target.label or "",
        "url": target.display_url or target.base_url,
        TENANT.key: tenant,
        "archive": archive or "",
    }
    if status is None:
        cells.update(key=f"⋯ {CHECKING}", applications="", proxies="", formulas="", note="")
        cells[REACTORS.key] = ""
        cells.update(usage="", compact="", share="", trend="")
    else:
        cells["url"] = status.base_url
        cells[TENANT.key] = status.tenant_name or ""
        usage = status.usage
        cells.update(
            key=f"{MARKS[status.ok]} {status.status_text}",
            usage=usage.text() if usage else "",
            compact=compact_usage(usage) if usage else "",
            share=share_of(usage) if usage else "",
            applications=status.applications.text() if status.applications else "",
            proxies=status.proxies.text() if status.proxies else "",
            formulas=status.formulas.text() if status.formulas else "",
            reactors=status.reactors.text() if status.reactors else "",
            note=status.message or "",
            trend=trend_cell(status),
        )
    cells["profile"] = ("● " if target.name == current else "  ") + target.name
    return cells


TREND_WIDTH = 10
"""Cells of the sparkline of this month's monthly active tokens (issue 28)."""


def trend_cell(status: ProfileStatus) -> str:
    """The trend column's text: room for the sparkline (drawn in _redraw), "demo" after it
    for the demo's recorded history; empty with fewer than two snapshots this month."""
    if len(status.trend) < 2:
        return ""
    return " " * TREND_WIDTH + (" demo" if status.trend_demo else "")


def thousands(value: int) -> str:
    """A count in few cells: 950, 12k, 226k, 1.2M."""
    if value < 1000:
        return str(value)
    if value < 1_000_000:
        return f"{value // 1000}k"
    return f"{value / 1_000_000:.1f}M".replace(".0M", "M")


def compact_usage(usage: Usage) -> str:
    """The usage in about 15 cells: "226k / 250k 90%"."""
    if usage.state != "ok" or usage.monthly_active is None or usage.included is None:
        return share_of(usage)
    percent = f" {usage.percent}%" if usage.percent is not None else ""
    return f"{thousands(usage.monthly_active)} / {thousands(usage.included)}{percent}"


def share_of(usage: Usage) -> str:
    """The usage in a few cells: the share of the plan, else what stands in for it."""
    if usage.state != "ok":
        return usage.text()
    if usage.percent is not None:
        return f"{usage.percent}%"
    return "no plan" if usage.monthly_active is not None or usage.total_tokens else "n/a"


SHRINK_ORDER = ("archive", "url", TENANT.key, "key", "profile")
"""The flexible columns, in the order they give up width (and take it back last)."""
STEPS = (
    ("shrink", "archive"),
    ("narrow", "usage"),
    ("shrink", "url"),
    ("drop", "label"),
    ("shrink", TENANT.key),
    ("drop", "archive"),  # the line under the table says it for the highlighted row
    ("drop", "trend"),
    ("narrow", "compact"),
    ("drop", "url"),
    ("shrink", "key"),
    ("shrink", "profile"),
)
"""How the table fits a narrow screen: each step only as far as needed, in this order."""
NARROWER = {"usage": "compact", "compact": "share"}
SHRINK_LEAST = {TENANT.key: 12}
"""A column shrunk before a later step has a larger floor than its `least` (the last one)."""


def layout(rows: list[dict[str, str]], width: int) -> list[tuple[Column, int]]:
    """The columns shown at `width` cells and each one's width: every column as wide as its
    widest cell; while too wide, the steps of STEPS in turn (the label goes, the base URL
    shrinks, the usage figures give way to the percentage, ... the base URL goes); width
    left over after a column went is given back to the ones that shrank."""
    by_key = {c.key: c for c in COLUMNS}

    def natural(column: Column) -> int:
        return max([len(column.title), *(len(r.get(column.key, "")) for r in rows)])

    full = {c.key: natural(c) for c in COLUMNS}
    widths = dict(full)
    chosen = [c for c in COLUMNS if c.key not in ("compact", "share", "note")]
    if not any(row.get("label") for row in rows):  # no profile has one
        chosen = [c for c in chosen if c.key != "label"]
    if not any(row.get("trend") for row in rows):  # no history to draw
        chosen = [c for c in chosen if c.key != "trend"]
    if not any(row.get("archive") for row in rows):  # no profile has a log archive
        chosen = [c for c in chosen if c.key != "archive"]
    shrunk: set[str] = set()

    def total() -> int:
        return sum(widths[c.key] + PADDING for c in chosen)

    for step, key in STEPS:
        excess = total() - width
        if excess <= 0:
            break
        if step == "drop":
            chosen = [c for c in chosen if c.key != key]
        elif step == "narrow":
            chosen = [by_key[NARROWER[key]] if c.key == key else c for c in chosen]
        elif any(c.key == key for c in chosen):
            floor = by_key[key].least if key in shrunk else SHRINK_LEAST.get(key, by_key[key].least)
            widths[key] -= min(excess, max(0, widths[key] - floor))
            shrunk.add(key)
    excess = total() - width
    for key in SHRINK_ORDER:  # the last resort: every flexible column down to its least
        if excess <= 0:
            break
        if any(c.key == key for c in chosen):
            give = min(excess, max(0, widths[key] - by_key[key].least))
            widths[key] -= give
            excess -= give
    if excess > 0:  # every column at its least and still too wide: the tenant's name goes
        chosen = [c for c in chosen if c.key != TENANT.key]
    slack = width - total()
    for key in reversed(SHRINK_ORDER):
        if slack <= 0:
            break
        if any(c.key == key for c in chosen):
            grow = min(slack, full[key] - widths[key])
            widths[key] += grow
            slack -= grow
    shown = [(c, widths[c.key]) for c in chosen]
    if slack - PADDING >= NOTE_LEAST and any(row.get("note") for row in rows):
        shown.append((by_key["note"], min(slack - PADDING, full["note"])))
    return shown


def archive_summaries(names: list[str]) -> dict[str, str | None]:
    """What each profile's log archive reaches back to (None: it has none). Blocking: a
    few reads of each archive file."""
    from console.audit import archive_summary

    found: dict[str, str | None] = {}
    for name in names:
        try:
            found[name] = archive_summary(name)
        except Exception:
            log.warning("The log archive of %s could not be summed up", name, exc_info=True)
            found[name] = None
    return found


def has_gap(summary: str | None) -> bool:
    """Whether an archive's summary (console.audit.summary.reach_text) names a gap: a
    period the archive misses, as it was not synced within the service's retention."""
    return bool(summary) and "; gap " in str(summary)


def fit(text: str, width: int) -> str:
    """`text` cut to `width` cells with an ellipsis."""
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


def trend_renderable(status: ProfileStatus, cells: int) -> Table:
    """This month's monthly active tokens as Textual's sparkline, "demo" beside it for the
    demo's recorded history."""
    from rich.table import Table
    from textual.renderables.sparkline import Sparkline

    grid = Table.grid()
    grid.add_column(width=min(TREND_WIDTH, cells), no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_row(
        Sparkline(list(status.trend), width=min(TREND_WIDTH, cells)),
        Text(" demo", style="dim italic") if status.trend_demo and cells > TREND_WIDTH else "",
    )
    return grid


STATUS_STYLES = {
    "ok": "green",
    "rejected": "bold red",
    "unreachable": "bold red",
    "timed_out": "bold red",
    "failed": "bold red",
}


class OverviewScreen(Screen[None]):
    """One row per profile; rows fill as their checks end."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("enter", "open", "Open profile"),
        Binding("r", "recheck", "Check again"),
    ]

    timeout = DEFAULT_TIMEOUT
    """Seconds each profile's check may take (tests shorten it)."""

    def __init__(self) -> None:
        super().__init__()
        self.targets: list[ProfileTarget] = []
        self.statuses: dict[str, ProfileStatus] = {}
        self.problem: str | None = None
        self.checking = False
        self.archives: dict[str, str | None] = {}
        """What each profile's log archive reaches back to (and its gaps), by profile."""

    def compose(self) -> ComposeResult:
        yield Static("", id="overview-title", classes="section-title")
        yield KeyTable(id="overview-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="overview-detail")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(DataTable).focus()
        self.action_recheck()

    @property
    def current(self) -> str | None:
        connection = session_host(self).connection
        return connection.profile if connection else None

    # ---- checking ----------------------------------------------------------------------

    def action_recheck(self) -> None:
        self.run_worker(self._check_all(), group="overview", exclusive=True, exit_on_error=False)

    async def _check_all(self) -> None:
        app = session_host(self)
        self.checking = True
        self.statuses.clear()
        self.problem = None
        try:
            self.targets = await asyncio.to_thread(profile_targets, app.profiles, self.current)
        except Exception as exc:  # a damaged profiles file: said in place, r retries
            log.warning("The profiles could not be read for the overview", exc_info=True)
            self.targets, self.problem = [], str(exc)
        self._redraw()
        names = [t.name for t in self.targets]
        self.archives = await asyncio.to_thread(archive_summaries, names)
        self._redraw()
        try:
            from console.usage_history.recorder import history_recorder

            recorder = history_recorder("overview", usage_host(self).usage_history_for)  # issue 28
            checks = check_profiles(
                self._sharing_budget(self.targets), timeout=self.timeout, recorder=recorder
            )
            # Leaving the screen cancels this worker: every request in flight stops with it.
            async with aclosing(checks) as checking:
                async for status in checking:
                    self.statuses[status.name] = status
                    self._redraw()
        finally:
            self.checking = False
            self._redraw()
        self._remember_tenants()

    def _sharing_budget(self, targets: list[ProfileTarget]) -> list[ProfileTarget]:
        """The targets, the console's own profile sharing the console's request budget: the
        overview's requests (its count walks) count with the console's, and its waits are
        said as the console's are."""
        current = self.current
        client = session_host(self).connected_client() if current is not None else None
        if client is None:
            return targets
        budget = client.budget
        return [replace(t, budget=budget) if t.name == current else t for t in targets]

    def _remember_tenants(self) -> None:
        """The tenants' names kept with their profiles, for the picker (as a connection
        does): in one thread, one after the other, so no save overwrites another."""
        known = {t.name: t.tenant_name for t in self.targets}
        seen = [
            (s.name, s.tenant_name)
            for s in self.statuses.values()
            if s.tenant_name and not s.tenant_name_cached and s.tenant_name != known.get(s.name)
        ]
        if seen:
            self.run_worker(self._remember(seen), group="overview-remember", exit_on_error=False)

    async def _remember(self, seen: list[tuple[str, str]]) -> None:
        profiles = session_host(self).profiles

        def remember_all() -> None:
            for profile, tenant in seen:
                try:
                    profiles.remember_tenant(profile, tenant)
                except Exception:
                    log.warning("Could not remember the tenant of %s", profile, exc_info=True)

        await asyncio.to_thread(remember_all)

    # ---- drawing -----------------------------------------------------------------------

    def on_resize(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if not self.is_mounted:
            return
        table = self.query_one(DataTable)
        current = self.current
        rows = [
            cells_of(self.statuses.get(t.name), t, current, self.archives.get(t.name))
            for t in self.targets
        ]
        width = max(20, table.size.width or self.size.width) - 1  # room for the scrollbar
        columns = layout(rows, width)
        highlighted = table.cursor_row
        table.clear(columns=True)
        for column, cells in columns:
            table.add_column(column.title, width=cells, key=column.key)
        for target, row in zip(self.targets, rows, strict=True):
            status = self.statuses.get(target.name)
            values: list[Text | Table] = []
            for column, cells in columns:
                if column.key == "trend" and status is not None and len(status.trend) >= 2:
                    values.append(trend_renderable(status, cells))
                    continue
                text = Text(fit(row.get(column.key, ""), cells), no_wrap=True)
                if column.key == "archive" and has_gap(row.get("archive")):
                    text.stylize("bold yellow")
                elif column.key == "key" and status is not None:
                    text.stylize(STATUS_STYLES.get(status.status, "bold yellow"))
                elif column.key == "key":
                    text.stylize("dim")
                values.append(text)
            table.add_row(*values, key=target.name)
        if self.targets:
            table.move_cursor(row=min(max(highlighted, 0), len(self.targets) - 1))
        self._title()
        self._detail()

    def _title(self) -> None:
        done, count = len(self.statuses), len(self.targets)
        if self.problem:
            text = "All profiles · could not be read"
        elif not count:
            text = "All profiles · none yet" if not self.checking else "All profiles · reading…"
        elif done < count:
            text = f"All profiles · checked {done} of {count}…"
        else:
            good = sum(1 for s in self.statuses.values() if s.ok)
            text = f"All profiles · {count} checked, {good} ok · enter opens, r checks again"
        self.query_one("#overview-title", Static).update(text)

    def _detail(self) -> None:
        """What the highlighted row's status means, in a sentence."""
        detail = self.query_one("#overview-detail", Static)
        if self.problem:
            detail.update(Text(self.problem))
            return
        if not self.targets:
            detail.update("Add a profile with: tenant-console profile add NAME --base-url URL")
            return
        name = self.highlighted_name
        status = self.statuses.get(name or "")
        if name is None:
            detail.update("")
            return
        if status is None:
            text = Text(f"{name}: {CHECKING}")
        else:
            message = status.message or "The key works and every figure was read."
            text = Text(f"{name}: {status.status_text} — {message}")
        archive = self.archives.get(name)
        if archive:
            text.append("\n")
            text.append(f"{'⚠ ' if has_gap(archive) else ''}{archive[:1].upper()}{archive[1:]}.")
            if has_gap(archive):
                text.stylize("bold yellow", len(text) - len(archive) - 3)
        detail.update(text)

    @on(DataTable.RowHighlighted)
    def _highlighted(self) -> None:
        self._detail()

    @property
    def highlighted_name(self) -> str | None:
        table = self.query_one(DataTable)
        if not self.targets or table.cursor_row < 0 or table.cursor_row >= len(self.targets):
            return None
        return self.targets[table.cursor_row].name

    # ---- actions -----------------------------------------------------------------------

    @on(DataTable.RowSelected)
    def _selected(self) -> None:
        self.action_open()

    def action_open(self) -> None:
        """Switches the console to the highlighted profile, as the profile picker does."""
        name = self.highlighted_name
        if name is None:
            return
        self.dismiss()
        if name == self.current:
            notices(self).notify(f"Already on profile {name}.")
        else:
            connecting(self).switch_profile(name)

    def action_back(self) -> None:
        self.dismiss()
