"""A checklist with a filter above it: a note (loading, or what went wrong), a filter input,
the subclass's buttons and a count on one line, and the options below (a CheckList).

The permission checklist (console.tui.forms.permissions) and the event-type checklist
(console.tui.forms.event_types) are both one: they differ in their options' words, their
buttons and their count, not in how the filter, the loading and the selection behave. So:

- until the options arrive, `selected` is the pending choice, so that a form's state never
  depends on how fast the list came;
- the filter only hides options: ticked ones out of sight stay ticked (and the count says
  how many);
- ticked values the options lack stay ticked, listed first (`_extras`), so that nothing
  chosen silently vanishes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Input, SelectionList, Static
from textual.widgets.selection_list import Selection

from console.tui.widgets.check_list import CheckList


class FilterableChecklist(Vertical):
    """Values to tick, filtered by what is typed above them. Subclasses give the words
    (`loading_text`, `filter_placeholder`), the buttons (`compose_buttons`), the rows
    (`rows`) and the count (`count_text`), and fill it through `_fill`."""

    DEFAULT_CSS = """
    FilterableChecklist {
        height: auto;
    }
    FilterableChecklist > SelectionList {
        height: auto;
        max-height: 12;
    }
    FilterableChecklist > .checklist-note {
        height: auto;
        color: $text-muted;
    }
    FilterableChecklist > .checklist-note.-error {
        color: $error;
    }
    FilterableChecklist > .checklist-tools {
        height: 1;
    }
    FilterableChecklist > .checklist-tools > Input {
        width: 1fr;
        max-width: 40;
        margin-right: 1;
    }
    FilterableChecklist > .checklist-tools > .checklist-filter-label {
        width: auto;
        color: $text-muted;
    }
    FilterableChecklist > .checklist-tools > .checklist-count {
        width: auto;
        margin-left: 2;
        color: $text-muted;
    }
    FilterableChecklist > .checklist-tools > Button {
        width: auto;
        min-width: 0;
        margin-left: 2;
    }
    """

    loading_text = "Loading…"
    """The note while the options load."""
    filter_placeholder = ""
    filter_id: str | None = None
    """The filter input's id (None: none)."""
    list_id: str | None = None
    list_classes: str | None = None
    """The CheckList's id and classes."""

    def __init__(
        self,
        selected: Iterable[str] = (),
        *,
        id: str | None = None,
        classes: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(id=id, classes=classes, disabled=disabled)
        self._pending: list[str] = list(selected)
        self._options: list[str] | None = None
        self._extras: list[str] = []
        self._hidden_selected: set[str] = set()
        self._filter = ""

    def compose(self) -> ComposeResult:
        yield Static(self.loading_text, classes="checklist-note")
        with Horizontal(classes="checklist-tools"):
            yield Static("Filter ", classes="checklist-filter-label")
            yield Input(
                placeholder=self.filter_placeholder,
                compact=True,
                classes="checklist-filter",
                select_on_focus=False,
                id=self.filter_id,
            )
            yield from self.compose_buttons()
            yield Static("", classes="checklist-count")
        checklist = CheckList(id=self.list_id, classes=self.list_classes)
        checklist.loading = True
        yield checklist

    # ----- what subclasses give -------------------------------------------------------------

    def compose_buttons(self) -> Iterator[Widget]:
        """The buttons between the filter and the count."""
        return iter(())

    def rows(self, width: int) -> Iterator[tuple[str, str, Text]]:
        """Every option, in order: its value, the words the filter also searches (beside
        the value) and its label (`width`: the longest value's length, plus two)."""
        return iter(())

    def count_text(self, ticked: int, hidden: int) -> str:
        """The line beside the filter: `ticked` in all, `hidden` of them filtered out."""
        return f"{ticked} ticked" + (f", {hidden} filtered out" if hidden else "")

    def _pending_selection(self) -> list[str]:
        """`selected` before the options arrive."""
        return list(self._pending)

    # ----- state ----------------------------------------------------------------------------

    @property
    def selection_list(self) -> SelectionList[str]:
        return self.query_one(SelectionList)

    @property
    def loaded(self) -> bool:
        return self._options is not None

    @property
    def options(self) -> list[str]:
        """Every value offered (those ticked that the options lack first)."""
        return list(self._options or ())

    @property
    def shown(self) -> list[str]:
        """The values the filter leaves in sight, in their order."""
        if self._options is None or not self.is_mounted:
            return []
        sl = self.selection_list
        return [sl.get_option_at_index(i).value for i in range(sl.option_count)]

    @property
    def selected(self) -> list[str]:
        """The ticked values, in the options' order (those filtered out of sight too)."""
        if self._options is None or not self.is_mounted:
            return self._pending_selection()
        chosen = set(self.selection_list.selected) | self._hidden_selected
        return [v for v in self._options if v in chosen]

    def show_loading(self) -> None:
        """Reading the options (again): the choice so far is kept, the options wait."""
        if self._options is not None:
            self._pending = self.selected
        self._options = None
        self.selection_list.loading = True
        self._note(self.loading_text)

    def _kept_selection(self) -> list[str]:
        """What stays ticked when new options arrive."""
        return self.selected if self._options is not None else list(self._pending)

    def _fill(self, keep: list[str], offered: list[str]) -> list[str]:
        """Shows `offered` (after the values of `keep` they lack), ticked as in `keep`;
        returns those lacking values."""
        self._extras = [v for v in keep if v not in offered]
        self._options = self._extras + offered
        self._show(set(keep))
        self._pending = list(keep)
        self.selection_list.loading = False
        return self._extras

    def _note(self, text: str, *, error: bool = False) -> None:
        """The line above the filter ("": none), in the error colour if `error`."""
        note = self.query_one(".checklist-note", Static)
        note.update(text)
        note.display = bool(text)
        note.set_class(error, "-error")

    def _show(self, chosen: set[str]) -> None:
        """(Re)builds the options that match the filter, ticked as in `chosen`."""
        sl = self.selection_list
        highlighted = sl.highlighted
        sl.clear_options()
        options = self._options or []
        width = max((len(v) for v in options), default=0) + 2
        needle = self._filter.lower()
        visible: set[str] = set()
        selections: list[Selection[str]] = []
        for value, words, label in self.rows(width):
            if needle and needle not in value.lower() and needle not in words.lower():
                continue
            visible.add(value)
            selections.append(Selection(label, value, value in chosen))
        sl.add_options(selections)
        self._hidden_selected = chosen - visible
        self._update_count(chosen)
        if highlighted is not None and sl.option_count:
            sl.highlighted = min(highlighted, sl.option_count - 1)

    def _update_count(self, chosen: set[str] | None = None) -> None:
        ticked = len(chosen if chosen is not None else set(self.selected))
        text = self.count_text(ticked, len(self._hidden_selected))
        self.query_one(".checklist-count", Static).update(text)

    def _tick(self, chosen: set[str]) -> None:
        """Ticks exactly `chosen` (a button's doing) and tells the form."""
        self._show(chosen)
        self.post_message(SelectionList.SelectedChanged(self.selection_list))

    # ----- filter ---------------------------------------------------------------------------

    @property
    def filter_text(self) -> str:
        return self._filter

    def filter(self, text: str) -> None:
        """Shows only the options whose value (or words) contain `text`."""
        self._filter = text.strip()
        if self._options is not None:
            self._show(set(self.selected))

    @on(SelectionList.SelectedChanged)
    def _ticked(self) -> None:
        if self._options is not None:
            self._update_count()

    @on(Input.Changed, ".checklist-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()  # the filter is no part of the form's content
        self.filter(event.value)

    @on(Input.Submitted, ".checklist-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.selection_list.option_count:
            self.selection_list.focus()
