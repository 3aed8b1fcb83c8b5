"""The search of a whole tenant from a list (`/`, then enter, where the service has no filter for
the text): what is known shows at once (the loaded rows that match, and what the profile's
local index knows by that name, marked), then the walk of every page (console.tui.browse.search)
adds its matches as they arrive and puts the service's rows in place of the ones shown early.
It also holds enter's first answer while the service's own filter is asked
(console.tui.widgets.list_filter). A part of ResourceList (console.tui.widgets.resource_list).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from rich.text import Text

from console.kinds import KINDS
from console.tui.base.app_access import console_app
from console.tui.base.problems import describe
from console.tui.browse.search import TenantSearch

if TYPE_CHECKING:
    from console.tui.base.shown import JsonObject
    from console.tui.browse.kinds import ResourceKind
    from console.tui.browse.row_filter import RowFilter
    from console.tui.widgets.list_order import Pair, Row
    from console.tui.widgets.list_pages import ListPages
    from console.tui.widgets.list_paging import RateLimitNote
    from console.tui.widgets.list_section import ListSection

log = logging.getLogger("console.tui")

SEARCH_STATUS_INTERVAL = 0.25
"""Seconds between two progress lines of a search without new matches: a new status lays
the footer out again, and a page can come every few milliseconds."""


def index_name(kind: ResourceKind) -> str | None:
    """The kind's name in the profile's local index (console.client.index), None if the index
    does not keep it (its declaration in console.kinds says)."""
    declared = KINDS.find(kind.key)
    return declared.index.name if declared is not None and declared.index is not None else None


class ListSearch:
    """A tenant search shown by a list, and enter's first answer to a server filter: the rows
    they show, which of them are provisional (from the index, or loaded before the walk read
    them again), and what the footer says of them."""

    def __init__(self, section: ListSection, pages: ListPages, rate: RateLimitNote) -> None:
        self._section = section
        self._pages = pages
        self._rate = rate
        self.search: TenantSearch | None = None
        """The tenant search whose matches the table shows (running or not)."""
        self.searching = False
        self.search_stopped = False
        self.found: list[Pair] = []
        """The search's matches with their cells, in the server's order (those the local
        index knows first, until the walk confirms them)."""
        self.checking: list[Pair] | None = None
        """What enter showed at once while the service's filter is asked (the loaded rows
        that match and what the local index knows), until its answer replaces them."""
        self.index_caption = ""
        """ "from the index, 3 minutes old" while the search shows rows from the index."""
        self._indexed: dict[str, JsonObject] = {}
        """Rows shown from the local index that the walk has not confirmed yet, by id."""
        self._gone = 0
        """Rows the index knew that the search's complete walk did not find."""
        self._unconfirmed: dict[str, JsonObject] = {}
        """Loaded rows the search showed at once that its walk has not read again yet, by id:
        the walk puts the service's row in place of each (or marks it no longer found)."""
        self._lost = 0
        """Loaded rows shown by the search that its complete walk did not find again."""

    @property
    def shows_own_rows(self) -> bool:
        """Whether a search, or enter's first answer, decides the rows shown."""
        return self.search is not None or self.checking is not None

    @property
    def progress(self) -> str:
        """ "page 37 of 100, 4 matches": the walk's pages and the matches shown."""
        search = self.search
        if search is None:
            return ""
        n = self.match_count
        of = f" of {search.pages}" if search.pages is not None else ""
        return f"page {search.page}{of}, {n} match{'' if n == 1 else 'es'}"

    @property
    def match_count(self) -> int:
        """The search's matches the service has confirmed (not those only the index knows,
        nor those it no longer has)."""
        return len(self.found) - len(self._indexed) - self._gone - self._lost

    def only_indexed(self, item: JsonObject) -> bool:
        """Whether `item` is a row only the local index knows so far (opened by its id)."""
        return self._indexed.get(self._section.kind.item_id(item)) is item

    def status(self) -> str | None:
        """The footer's words for enter's first answer or a search; None when neither shows."""
        if self.checking is not None:
            # "checking the service… · 2 from the index, 3 minutes old"
            return f"checking the service…{self._indexed_note()}{self._rate.text()}"
        if self.search is None:
            return None
        progress = self.progress
        if self.searching:
            return f"searching: {progress}{self._indexed_note()}{self._rate.text()} · esc stops"
        if self.search_stopped:
            return f"search stopped at {progress}"
        n = self.match_count
        gone = f" · {self._gone} no longer exist" if self._gone else ""
        gone += f" · {self._lost} no longer found" if self._lost else ""
        matches = f"{n} match{'' if n == 1 else 'es'}"
        title = self._section.kind.title.lower()
        return f"{matches} in {self.search.total or 0} {title}{gone}"

    def empty_text(self, text: str) -> tuple[str, str] | None:
        """(title, hint) of the empty state while enter's answer or a search for `text`
        shows; None when neither does."""
        title = self._section.kind.title.lower()
        clear = "Press escape to clear the filter."
        if self.checking is not None:
            return f"Asking the service for {title} matching “{text}”…", clear
        search = self.search
        if search is None:
            return None
        if self.searching:
            return f"No matches yet: searching {title} for “{text}”…", "Press escape to stop."
        where = f"the {search.page} pages searched" if self.search_stopped else "the tenant"
        return f"No {title} in {where} match “{text}”.", clear

    def _indexed_note(self) -> str:
        return f" · {len(self._indexed)} {self.index_caption}" if self._indexed else ""

    # ---- the walk ------------------------------------------------------------------------

    def start(self, row_filter: RowFilter) -> None:
        """Walks every page of the tenant (under the server filter in force) for the rows
        `row_filter` matches, in an exclusive worker; the loaded matches show at once, the
        others as their pages arrive. Escape stops it."""
        self.end()
        section, pages = self._section, self._pages
        kind, labels = section.kind, pages.labels
        client = console_app(section).client
        search = TenantSearch.of(kind, client, row_filter, pages.query_params, pages.total)
        self._rate.watch()
        self.search, self.searching, self.search_stopped = search, True, False
        self.found = [
            (item, row)
            for item, row in pages.arrived_pairs()
            if row_filter.matches(kind, item, labels)
        ]
        self._unconfirmed = {kind.item_id(item): item for item, _row in self.found}
        self.found += self.from_index(row_filter, set(self._unconfirmed))
        section.refresh_view(section.current_row)
        section.show_state()
        section.post_status()
        section.run_worker(
            self._walk(search),
            group="search",
            name=f"{kind.key}-search",
            exclusive=True,
            exit_on_error=False,
        )

    def stop(self) -> None:
        """Escape: the walk stops where it is; its matches stay, the status says where."""
        if not self.searching:
            return
        section = self._section
        section.workers.cancel_group(section, "search")
        self.searching, self.search_stopped = False, True
        section.show_state()
        section.post_status()
        section.notify(f"Stopped at {self.progress}.", title="Search")

    def end(self) -> None:
        """The search, running or done, is dropped with its matches, and so is enter's first
        answer to a server filter (the table goes back to the loaded rows when the list
        shows its rows again)."""
        if self.checking is not None:
            self.drop_check()
        if self.search is None:
            return
        section = self._section
        if self.searching and section.is_mounted:
            section.workers.cancel_group(section, "search")
        self.search, self.searching, self.search_stopped = None, False, False
        self.found, self._indexed, self.index_caption, self._gone = [], {}, "", 0
        self._unconfirmed, self._lost = {}, 0

    def drop_check(self) -> None:
        """Enter's first answer is no longer shown (the service answered, or failed)."""
        self.checking, self._indexed, self.index_caption = None, {}, ""

    async def _walk(self, search: TenantSearch) -> None:
        """The search's pages, each one's matches added as it is read (those shown at the
        start, loaded or from the index, replaced by the service's rows)."""
        section = self._section
        kind = section.kind
        said = 0.0
        try:
            async for new in search.walk():
                if self.search is not search:
                    return
                self._pages.labels.update(search.labels)
                fresh = self._take_live(new) if self._indexed or self._unconfirmed else new
                if fresh:
                    section.add_found(fresh)
                moment = time.monotonic()
                if fresh or moment - said >= SEARCH_STATUS_INTERVAL:
                    said = moment
                    section.post_status()
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("The %s search failed", kind.key, exc_info=True)
            if self.search is search:
                problem = describe(exc, permission=kind.permission, what=kind.title.lower())
                self.search_stopped = True
                section.notify(
                    f"{problem.title}: {problem.message} Stopped at {self.progress}.",
                    title="Search failed",
                    severity="error",
                )
        finally:
            if self.search is search:
                if search.done:
                    self._mark_gone()
                self.searching = False
                section.show_state()
                section.post_status()

    # ---- what the local index knows ------------------------------------------------------

    def from_index(
        self, row_filter: RowFilter, known: set[str], *, server_filtered: bool = False
    ) -> list[Pair]:
        """What the profile's local index knows by this name, shown at once (marked "from
        the index"), each row replaced by the live one when the walk (or the service's
        filter, `server_filtered`) answers, and marked gone if a walk ends without it.
        Names only: a filter on another column, or under another server filter, is answered
        live only."""
        self._indexed, self.index_caption = {}, ""
        name = index_name(self._section.kind)
        index = self._section.local_index()
        if index is None or name is None or (self._pages.query_params and not server_filtered):
            return []
        if row_filter.column not in (None, "name") or row_filter.not_a_column:
            return []
        from console.client.find import from_index

        try:
            answer = from_index(index, row_filter.term, [name])
        except Exception:
            log.warning("The local index could not be read", exc_info=True)
            return []
        pairs = []
        for row in answer.rows:
            if row.id in known:
                continue
            item: JsonObject = {"id": row.id, "name": row.name}
            self._indexed[row.id] = item
            pairs.append((item, self._index_cells(row.name, gone=False)))
        if pairs:
            self.index_caption = answer.caption
        return pairs

    def _index_cells(self, name: str, *, gone: bool) -> Row:
        """A row the index knows: its name, marked; the other columns wait for the service."""
        if gone:
            first = Text.assemble((name, "strike dim"), (" · no longer exists", "dim red"))
        else:
            first = Text.assemble((name, ""), (" · from the index", "dim"))
        return (first, *(Text("…", "dim") for _ in self._section.kind.columns[1:]))

    @staticmethod
    def _lost_cells(row: Row) -> Row:
        """A loaded row the search's complete walk did not find again (deleted, or changed so
        that it no longer matches): struck through, and said so."""
        first = row[0].plain if isinstance(row[0], Text) else str(row[0])
        marked = Text.assemble((first, "strike dim"), (" · no longer found", "dim red"))
        return (marked, *row[1:])

    def _take_live(self, items: list[JsonObject]) -> list[JsonObject]:
        """The walk's rows of objects shown before it (from the index, or loaded) take their
        places, the cursor staying on its object; the others are returned (new to the
        search). A loaded row the service sends unchanged stays as it is."""
        others = []
        section = self._section
        kind, labels = section.kind, self._pages.labels
        places: dict[int, int] | None = None  # where each row shown is, once one is replaced
        for item in items:
            item_id = kind.item_id(item)
            provisional = self._indexed.pop(item_id, None)
            if provisional is None:
                provisional = self._unconfirmed.pop(item_id, None)
                if provisional is None:
                    others.append(item)
                    continue
                if provisional == item:
                    continue
            if places is None:
                places = {id(shown): n for n, (shown, _row) in enumerate(self.found)}
            self.found[places[id(provisional)]] = (item, kind.row_cells(item, labels))
        if places is not None:
            section.refresh_view(place=section.place())
        return others

    def _mark_gone(self) -> None:
        """The walk read the whole tenant without these: the index's rows gone, in the table
        and the index; the loaded ones no longer found."""
        if not self._indexed and not self._unconfirmed:
            return
        gone = {id(item) for item in self._indexed.values()}
        lost = {id(item) for item in self._unconfirmed.values()}
        self.found = [
            (item, self._index_cells(str(item.get("name")), gone=True))
            if id(item) in gone
            else (item, self._lost_cells(row))
            if id(item) in lost
            else (item, row)
            for item, row in self.found
        ]
        section = self._section
        index = section.local_index()
        name = index_name(section.kind)
        if self._indexed and index is not None and name is not None:
            try:
                index.mark_gone(name, list(self._indexed))
            except Exception:
                log.warning("The local index could not be updated", exc_info=True)
        self._gone += len(self._indexed)
        self._lost += len(self._unconfirmed)
        self._indexed, self._unconfirmed = {}, {}
        section.refresh_view(place=section.place())
