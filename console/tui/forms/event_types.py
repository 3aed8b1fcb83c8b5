"""The event types a webhook subscribes to: a filter above a checklist of the service's list
(`GET /webhooks/event-types`), a loading indicator while it loads, its failure said in place
(with the built-in list to choose from meanwhile, and a retry), and "All shown" / "None".

Like the permission checklist (console.tui.forms.permissions), it keeps its selection while
its options are still loading, and the filter only hides options: ticked ones out of sight
stay ticked (and the line beside the filter says how many).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, SelectionList, Static
from textual.widgets.selection_list import Selection

from console.models.webhooks import EVENT_OBJECTS
from console.terminal_text import printable
from console.tui.forms.permissions import CheckList

_KEPT = "not in the service's list: kept as it is"


class EventTypeChecklist(Vertical):
    """Event types to tick, filtered by what is typed above them. `selected` is in the
    service's order (ticked types it does not list first), hidden ones included."""

    DEFAULT_CSS = """
    EventTypeChecklist {
        height: auto;
    }
    EventTypeChecklist > SelectionList {
        height: auto;
        max-height: 12;
    }
    EventTypeChecklist > .events-note {
        height: auto;
        color: $text-muted;
    }
    EventTypeChecklist > .events-note.-error {
        color: $error;
    }
    EventTypeChecklist > .events-tools {
        height: 1;
    }
    EventTypeChecklist > .events-tools > Input {
        width: 1fr;
        max-width: 40;
        margin-right: 1;
    }
    EventTypeChecklist > .events-tools > .events-filter-label {
        width: auto;
        color: $text-muted;
    }
    EventTypeChecklist > .events-tools > .events-count {
        width: auto;
        margin-left: 2;
        color: $text-muted;
    }
    EventTypeChecklist > .events-tools > Button {
        width: auto;
        min-width: 0;
        margin-left: 2;
    }
    """

    class Retry(Message):
        """The retry button after a failed load: the form reads the list again."""

    def __init__(
        self, selected: Iterable[str] = (), *, id: str | None = None, disabled: bool = False
    ) -> None:
        super().__init__(id=id, disabled=disabled)
        self._pending: list[str] = list(selected)
        self._options: list[str] | None = None
        self._offered: list[str] = []
        self._extras: list[str] = []
        self._hidden_selected: set[str] = set()
        self._filter = ""
        self.failure = ""
        """Why the service's list could not be read ("" when it was, or is loading)."""

    def compose(self) -> ComposeResult:
        yield Static("Loading the event types…", classes="events-note")
        with Horizontal(classes="events-tools"):
            yield Static("Filter ", classes="events-filter-label")
            yield Input(
                placeholder="e.g. reactor, created…",
                compact=True,
                classes="events-filter",
                select_on_focus=False,
                id="events-filter",
            )
            yield Button(
                "All shown", compact=True, id="events-all", tooltip="Tick every type shown"
            )
            yield Button("None", compact=True, id="events-none", tooltip="Untick every type")
            yield Button("Retry", compact=True, id="events-retry", tooltip="Read the list again")
            yield Static("", classes="events-count")
        checklist = CheckList(id="events-list")
        checklist.loading = True
        yield checklist

    def on_mount(self) -> None:
        self.query_one("#events-retry").display = False

    @property
    def selection_list(self) -> SelectionList[str]:
        return self.query_one(SelectionList)

    @property
    def loaded(self) -> bool:
        return self._options is not None

    @property
    def options(self) -> list[str]:
        """Every type offered (those ticked that the service does not list first)."""
        return list(self._options or ())

    @property
    def shown(self) -> list[str]:
        """The types the filter leaves in sight, in their order."""
        if self._options is None or not self.is_mounted:
            return []
        sl = self.selection_list
        return [sl.get_option_at_index(i).value for i in range(sl.option_count)]

    @property
    def selected(self) -> list[str]:
        """The ticked types, in the list's order (those filtered out of sight too)."""
        if self._options is None or not self.is_mounted:
            return list(self._pending)
        chosen = set(self.selection_list.selected) | self._hidden_selected
        return [t for t in self._options if t in chosen]

    def show_loading(self) -> None:
        """Reading the list (again): the choice so far is kept, the options wait."""
        if self._options is not None:
            self._pending = self.selected
        self._options = None
        self.failure = ""
        self.selection_list.loading = True
        self.query_one("#events-retry").display = False
        self._note("Loading the event types…")

    def set_event_types(self, types: list[str], *, failure: str = "") -> None:
        """Shows these types to choose from. `failure`: why the service's list could not be
        read (`types` is then the built-in one), said above them in the error colour."""
        keep = self.selected if self._options is not None else list(self._pending)
        offered = list(dict.fromkeys(types))
        self._extras = [t for t in keep if t not in offered]
        self._offered = offered
        self._options = self._extras + offered
        self.failure = failure
        self._show(set(keep))
        self._pending = list(keep)
        self.selection_list.loading = False
        self.query_one("#events-retry").display = bool(failure)
        if failure:
            self._note(
                f"Could not load the event types from the service: {failure}\n"
                "The console's own list is shown meanwhile; Retry reads the service's again.",
                error=True,
            )
        else:
            self._note("")

    def _note(self, text: str, *, error: bool = False) -> None:
        note = self.query_one(".events-note", Static)
        note.update(text)
        note.display = bool(text)
        note.set_class(error, "-error")

    def _show(self, chosen: set[str]) -> None:
        """(Re)builds the options that match the filter, ticked as in `chosen`."""
        sl = self.selection_list
        highlighted = sl.highlighted
        sl.clear_options()
        options = self._options or []
        width = max((len(t) for t in options), default=0) + 2
        needle = self._filter.lower()
        visible: set[str] = set()
        rows: list[Selection[str]] = []
        for kind in options:
            about = _KEPT if kind in self._extras else EVENT_OBJECTS.get(kind, "")
            if needle and needle not in kind.lower() and needle not in about.lower():
                continue
            visible.add(kind)
            style = "bold yellow" if kind in self._extras else "bold"
            label = Text.assemble(
                (printable(kind).ljust(width), style),
                (about, "yellow" if kind in self._extras else "dim"),
            )
            rows.append(Selection(label, kind, kind in chosen))
        sl.add_options(rows)
        self._hidden_selected = chosen - visible
        self._update_count(chosen)
        if highlighted is not None and sl.option_count:
            sl.highlighted = min(highlighted, sl.option_count - 1)

    def _update_count(self, chosen: set[str] | None = None) -> None:
        ticked = len(chosen if chosen is not None else set(self.selected))
        hidden = len(self._hidden_selected)
        text = f"{ticked} ticked" + (f", {hidden} filtered out" if hidden else "")
        self.query_one(".events-count", Static).update(text)

    # ----- filter, all shown, none ---------------------------------------------------------

    @property
    def filter_text(self) -> str:
        return self._filter

    def filter(self, text: str) -> None:
        """Shows only the types whose name (or object) contains `text`."""
        self._filter = text.strip()
        if self._options is not None:
            self._show(set(self.selected))

    def tick_shown(self) -> None:
        """Ticks every type in sight (the others stay as they are)."""
        if self._options is not None:
            self._show(set(self.selected) | set(self.shown))
            self.post_message(SelectionList.SelectedChanged(self.selection_list))

    def tick_none(self) -> None:
        """Unticks every type, those out of sight too."""
        if self._options is not None:
            self._show(set())
            self.post_message(SelectionList.SelectedChanged(self.selection_list))

    @on(SelectionList.SelectedChanged)
    def _ticked(self) -> None:
        if self._options is not None:
            self._update_count()

    @on(Input.Changed, ".events-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()  # the filter is no part of the form's content
        self.filter(event.value)

    @on(Input.Submitted, ".events-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.selection_list.option_count:
            self.selection_list.focus()

    @on(Button.Pressed, "#events-all")
    def _all_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.tick_shown()

    @on(Button.Pressed, "#events-none")
    def _none_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.tick_none()

    @on(Button.Pressed, "#events-retry")
    def _retry_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Retry())
