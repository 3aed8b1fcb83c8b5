"""The event types a webhook subscribes to: a filter above a checklist of the service's list
(`GET /webhooks/event-types`), a loading indicator while it loads, its failure said in place
(with the built-in list to choose from meanwhile, and a retry), and "All shown" / "None".

Like the permission checklist (console.tui.forms.permissions), it is a FilterableChecklist:
it keeps its selection while its options are still loading, and the filter only hides
options: ticked ones out of sight stay ticked (and the line beside the filter says how many).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button

from console.models.webhooks import EVENT_OBJECTS
from console.terminal_text import printable
from console.tui.widgets.filterable_checklist import FilterableChecklist

_KEPT = "not in the service's list: kept as it is"


class EventTypeChecklist(FilterableChecklist):
    """Event types to tick, filtered by what is typed above them. `selected` is in the
    service's order (ticked types it does not list first), hidden ones included."""

    loading_text = "Loading the event types…"
    filter_placeholder = "e.g. reactor, created…"
    filter_id = "events-filter"
    list_id = "events-list"

    class Retry(Message):
        """The retry button after a failed load: the form reads the list again."""

    def __init__(
        self, selected: Iterable[str] = (), *, id: str | None = None, disabled: bool = False
    ) -> None:
        super().__init__(selected, id=id, disabled=disabled)
        self._offered: list[str] = []
        self.failure = ""
        """Why the service's list could not be read ("" when it was, or is loading)."""

    def compose_buttons(self) -> Iterator[Widget]:
        yield Button("All shown", compact=True, id="events-all", tooltip="Tick every type shown")
        yield Button("None", compact=True, id="events-none", tooltip="Untick every type")
        yield Button("Retry", compact=True, id="events-retry", tooltip="Read the list again")

    def on_mount(self) -> None:
        self.query_one("#events-retry").display = False

    def show_loading(self) -> None:
        """Reading the list (again): the choice so far is kept, the options wait."""
        self.failure = ""
        super().show_loading()
        self.query_one("#events-retry").display = False

    def set_event_types(self, types: list[str], *, failure: str = "") -> None:
        """Shows these types to choose from. `failure`: why the service's list could not be
        read (`types` is then the built-in one), said above them in the error colour."""
        keep = self._kept_selection()
        self._offered = list(dict.fromkeys(types))
        self.failure = failure
        self._fill(keep, self._offered)
        self.query_one("#events-retry").display = bool(failure)
        if failure:
            self._note(
                f"Could not load the event types from the service: {failure}\n"
                "The console's own list is shown meanwhile; Retry reads the service's again.",
                error=True,
            )
        else:
            self._note("")

    def rows(self, width: int) -> Iterator[tuple[str, str, Text]]:
        """Each type, its object beside it (the filter searches both); those the service
        does not list in yellow, said to be kept."""
        for kind in self._options or []:
            kept = kind in self._extras
            about = _KEPT if kept else EVENT_OBJECTS.get(kind, "")
            label = Text.assemble(
                (printable(kind).ljust(width), "bold yellow" if kept else "bold"),
                (about, "yellow" if kept else "dim"),
            )
            yield kind, about, label

    # ----- all shown, none -----------------------------------------------------------------

    def tick_shown(self) -> None:
        """Ticks every type in sight (the others stay as they are)."""
        if self._options is not None:
            self._tick(set(self.selected) | set(self.shown))

    def tick_none(self) -> None:
        """Unticks every type, those out of sight too."""
        if self._options is not None:
            self._tick(set())

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
