"""How fresh a list is: the age line above an old list, its pages read again in place (the
rows on screen stay until the fresh ones replace them, or stay marked stale if that fails; r
retries), and a list read again unasked when its section is opened again, within the
profile's request budget. A part of ResourceList (console.tui.widgets.resource_list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Static

from console.clock import now
from console.tui.base.app_access import console_app
from console.tui.base.formatting import clock_time, relative
from console.tui.base.problems import describe
from console.tui.widgets.section_messages import SectionFailed

if TYPE_CHECKING:
    from console.tui.widgets.list_pages import ListPages
    from console.tui.widgets.list_paging import Pager
    from console.tui.widgets.list_search import ListSearch
    from console.tui.widgets.list_section import ListSection

OLD_AFTER = 5 * 60
"""Seconds after which a list says how old it is, and is read again when its section is
opened again: objects created meanwhile by the CLI, an undo or another admin then show."""
REFRESH_SHARE = 2
"""A list read again unasked (opened again) may take at most 1/REFRESH_SHARE of the requests
the profile's budget has left this minute; else it only says its age (r still reads it)."""


class AgeNote(Static):
    """One line above an old list: when it was loaded, and how to have it read again."""

    DEFAULT_CSS = """
    AgeNote { height: 1; padding: 0 1; color: $text-muted; background: $boost;
              text-wrap: nowrap; text-overflow: ellipsis; display: none; }
    AgeNote.-shown { display: block; }
    """


class ListFreshness:
    """The age of the rows a list shows, and their reading again in place behind them."""

    def __init__(
        self, section: ListSection, pages: ListPages, pager: Pager, search: ListSearch
    ) -> None:
        self._section = section
        self._pages = pages
        self._pager = pager
        self._search = search
        self.refreshing = False
        """The loaded pages are being read again behind the rows shown (see refresh)."""

    @property
    def age(self) -> float | None:
        """Seconds since the rows shown were read (console.clock: tests move it), or None."""
        section = self._section
        if not section.loaded or section.loaded_at is None or section.problem is not None:
            return None
        return max(0.0, (now() - section.loaded_at).total_seconds())

    @property
    def is_old(self) -> bool:
        age = self.age
        return age is not None and age >= OLD_AFTER

    @property
    def age_text(self) -> str:
        """ "Loaded 7 minutes ago, at 14:02 · r or opening it again refreshes" for an old list,
        else ""; a list marked stale (a refresh failed) says its time in the stale banner."""
        loaded_at = self._section.loaded_at
        if not self.is_old or self._section.stale_note or loaded_at is None:
            return ""
        doing = "refreshing…" if self.refreshing else "r or opening it again refreshes"
        return f"Loaded {relative(loaded_at)}, at {clock_time(loaded_at)} · {doing}"

    def show_age(self) -> None:
        """The age line as of now (the clock's ticks, and after every load)."""
        section = self._section
        if not section.is_mounted:
            return
        note, text = section.query_one(AgeNote), self.age_text
        if text:
            note.update(text)
        note.set_class(bool(text), "-shown")

    def may_refresh_unasked(self) -> bool:
        """On opening the section again: whether an old list is read again now. Nothing may
        be under way that a refresh would drop (a search's matches, load all), and the
        refresh's requests must fit the share of the budget left this minute."""
        section = self._section
        if not self.is_old or section.fetching or self.refreshing:
            return False
        if self._search.shows_own_rows or self._pager.loading_to_end:
            return False
        client = console_app(section).connected_client()
        room = client.budget.room() if client is not None else None
        return room is None or max(1, len(self._pages.pages_fetched)) <= room // REFRESH_SHARE

    def refresh(self, focus_id: str | None) -> None:
        """As many pages as are loaded, read again behind the rows on screen; they replace
        them all at once (ListSection.replace_rows), or stay, marked stale, if a page fails."""
        section = self._section
        place = section.place(focus_id)
        pages = max(1, len(self._pages.pages_fetched))
        section.forget_loads()  # a next page on its way would land among the new rows
        self._pager.disarm()
        self.refreshing = True
        self.show_age()
        section.load(
            lambda: self._pager.read_again(pages),
            shown=lambda fetched: section.replace_rows(fetched, place),
            failed=self._failed,
            name=f"{section.kind.key}-refresh",
        )
        section.post_status()

    def _failed(self, exc: BaseException) -> None:
        """The rows stay as they were, under a note saying since when they are stale."""
        section = self._section
        section.fetching = self.refreshing = False
        kind = section.kind
        problem = describe(exc, permission=kind.permission, what=kind.title.lower())
        section.refresh_failed()
        section.post_status()
        self.show_age()
        section.post_message(SectionFailed(section, problem))
