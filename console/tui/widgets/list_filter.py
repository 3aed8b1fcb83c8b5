"""The `/` filter of a list: the loaded rows follow what is typed (console.tui.browse.row_filter);
enter answers at once from what is known, then asks the service: its filter where the API has
one (a name, an id), else a search of the whole tenant (console.tui.widgets.list_search). A
text that is neither a column nor in any row is refused, the rows left as they were. A part of
ResourceList (console.tui.widgets.resource_list).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import Input

from console.tui.browse.kinds import FilterInvalid
from console.tui.browse.row_filter import RowFilter, column_words, parse_row_filter

if TYPE_CHECKING:
    from console.tui.widgets.list_pages import ListPages
    from console.tui.widgets.list_paging import Pager
    from console.tui.widgets.list_search import ListSearch
    from console.tui.widgets.list_section import ListSection


class ListFilter:
    """The filter in force over a list (live, as typed, or the server's) and its field: what
    a keystroke, enter, escape and leaving the field do to the rows shown."""

    def __init__(
        self, section: ListSection, pages: ListPages, pager: Pager, search: ListSearch
    ) -> None:
        self._section = section
        self._pages = pages
        self._pager = pager
        self._search = search
        self.live: RowFilter | None = None
        """The `/` filter of the loaded rows (and of a tenant search's pages); None: none."""
        self._live_before: RowFilter | None = None
        """The live filter in force when `/` was pressed: a refused text goes back to it."""

    @property
    def applied_text(self) -> str:
        """The filter text in force: the live filter's (a search's), else the server's."""
        return self.live.text if self.live is not None else self._pages.filter_text

    def resume(self, live: RowFilter | None) -> None:
        """`live` is the filter in force (again, after the rows were forgotten; None: none)."""
        self.live = self._live_before = live

    def status(self, *, loading_to_end: bool) -> str | None:
        """The footer's words while the live filter shows ("3 of 50 loaded rows match");
        None when it does not."""
        live, pages = self.live, self._pages
        if live is None:
            return None
        loaded = "loaded rows" if pages.has_more else "rows"
        text = f"{len(self._section.shown_items)} of {len(pages.items)} {loaded} match"
        if live.not_a_column:
            text += f" · “{live.not_a_column}” is no column: matched as text"
        elif pages.has_more:
            text += " · enter searches the rest"
        if loading_to_end:
            text += " · loading all (esc stops)…"
        return text

    def empty_text(self, title: str) -> tuple[str, str] | None:
        """(title, hint) of the empty state when the live filter keeps none of the loaded
        rows; None otherwise."""
        pages = self._pages
        if self.live is None or not pages.items:
            return None
        count = len(pages.items)
        loaded = f"{count} loaded" if pages.has_more else f"{count}"
        hint = "Press enter to ask the service (new ones too), escape to clear the filter."
        if pages.has_more:
            hint = "Press enter to search the rest of the tenant, escape to clear the filter."
        return f"None of the {loaded} {title} match “{self.applied_text}”.", hint

    # ---- the field -----------------------------------------------------------------------

    def open(self) -> None:
        """`/`: the field shows the filter in force, to be edited."""
        field = self._section.filter_input
        field.add_class("-visible")
        self._live_before = self.live
        field.value = self.applied_text
        field.focus()

    def edited(self, value: str) -> None:
        """Each keystroke filters the loaded rows (a search under way stops: enter starts
        the next)."""
        field = self._section.filter_input
        field.remove_class("-refused")
        text = value.strip()
        if text == self.applied_text or not field.has_class("-visible"):
            return
        self._search.end()
        live = parse_row_filter(self._section.kind.columns, text) if text else None
        if live is not None and text == self._pages.filter_text:
            live = None  # the server's filter in force already shows exactly these rows
        field.set_class(live is not None and live.not_a_column is not None, "-unknown")
        self.set_live(live)

    def left(self) -> None:
        """Leaving the field without applying it: it shows the filter in force again, so its
        text never disagrees with the rows (a refused filter included; what is typed is in
        force as it is typed)."""
        field = self._section.filter_input
        if field.has_class("-refused"):
            field.remove_class("-refused")
            self.set_live(self.live)
        if field.value.strip() != self.applied_text:
            with field.prevent(Input.Changed):
                field.value = self.applied_text
        if not self.applied_text:
            field.remove_class("-visible", "-unknown")

    def set_live(self, live: RowFilter | None) -> None:
        """The loaded rows `live` keeps show (all of them for None), the cursor on its row."""
        section = self._section
        current = section.current_row
        self.live = live
        section.refresh_view(current)
        if section.loaded:
            section.show_state()
        section.post_status()

    # ---- enter ---------------------------------------------------------------------------

    def apply(self, text: str) -> None:
        """Enter: the server's filter where the API has one, else the live filter stays and
        the rest of the tenant is searched. "" clears all."""
        section, pages = self._section, self._pages
        if not text:
            self._search.end()
            self.live = self._live_before = None
            section.filter_input.remove_class("-visible", "-unknown", "-refused")
            changed = bool(pages.filter_text)
            pages.filter_text, pages.query_params = "", {}
            section.focus_table()
            if changed or section.problem is not None:
                section.start_over()
            else:
                self.set_live(None)
            return
        kind = section.kind
        row_filter = parse_row_filter(kind.columns, text)
        try:
            query = kind.server_query(row_filter)
            if query is None and row_filter.not_a_column and not self._loaded_matches(row_filter):
                raise FilterInvalid(
                    f"There is no column “{row_filter.not_a_column}” "
                    f"(columns: {column_words(kind.columns)}), nor a row with this text."
                )
        except FilterInvalid as exc:
            self._refuse(text, exc)
            return
        if query is not None:
            self._search.end()
            self.live = self._live_before = None
            pages.filter_text, pages.query_params = text, query
            section.focus_table()
            if section.loaded and section.problem is None:
                self._ask_service(row_filter)
            else:
                section.start_over()
            return
        self._live_before = row_filter
        if self.live != row_filter:
            self._search.end()
            self.set_live(row_filter)
        section.focus_table()
        if section.loaded and section.problem is None:  # loaded, all or not: ask the service
            section.start_search(row_filter)

    def _ask_service(self, row_filter: RowFilter) -> None:
        """Enter on a filter the service applies (a name, an id): what is known shows at
        once, the cursor where it was (the loaded rows that match, then what the local index
        knows by that name, marked); the service's first page under the filter then
        replaces them (ListSection.replace_rows), or its failure shows in their place."""
        section, pages = self._section, self._pages
        place = section.place()
        kind, labels = section.kind, pages.labels
        pairs = [
            (item, row)
            for item, row in pages.arrived_pairs()
            if row_filter.matches(kind, item, labels)
        ]
        known = {kind.item_id(item) for item, _row in pairs}
        pairs += self._search.from_index(row_filter, known, server_filtered=True)
        section.forget_loads()  # a next page of the old filter would land among the new rows
        self._pager.disarm()
        self._search.checking = pairs
        section.refresh_view(place=place)
        section.show_state()
        section.load(
            lambda: self._pager.read_again(1),
            # where the cursor is when the answer comes (it may have moved meanwhile)
            shown=lambda fetched: section.replace_rows(fetched, section.place()),
            failed=self._check_failed,
            name=f"{kind.key}-filter",
        )
        section.post_status()

    def _check_failed(self, exc: BaseException) -> None:
        """The service's filter failed: its problem shows in place of enter's first answer
        (r asks again)."""
        section = self._section
        self._search.drop_check()
        section.refresh_view(section.current_row)
        section.show_failure(exc, 1)

    def _loaded_matches(self, row_filter: RowFilter) -> bool:
        kind, labels = self._section.kind, self._pages.labels
        return any(row_filter.matches(kind, item, labels) for item in self._pages.items)

    def _refuse(self, text: str, exc: FilterInvalid) -> None:
        """The text stays to be corrected, marked refused; the rows go back to the filter in
        force before it, and leaving the field puts that back (see left)."""
        section = self._section
        section.filter_input.add_class("-refused")
        self.live = self._live_before
        section.refresh_view(section.current_row)
        if section.loaded:
            section.show_state()
        section.post_status()
        shown = f"“{self.applied_text}”" if self.applied_text else "no filter"
        section.notify(
            f"“{text}” was not applied: {exc} The list still shows {shown}.",
            title="Filter refused",
            severity="warning",
        )
