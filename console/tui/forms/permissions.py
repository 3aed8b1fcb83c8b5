"""A permission checklist that keeps its selection while its options are still loading,
with a filter, presets (none, read-only, everything the type allows) and `[x]` / `[ ]`
boxes that differ without colour."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.strip import Strip
from textual.widgets import Button, Input, SelectionList, Static
from textual.widgets.option_list import OptionDoesNotExist
from textual.widgets.selection_list import Selection

from console.tui.browse.kinds import APPLICATIONS
from console.tui.widgets.pick_list import LIST_MOVES

if TYPE_CHECKING:
    from console.models import Permission

_KEPT = "held, not in this service's list for this type: kept as it is"

READ_VERBS = ("read", "search")
"""A permission whose last part is one of these only reads: the read-only preset."""

PRESETS = (("none", "None"), ("read", "Read-only"), ("all", "All allowed"))


def is_read_only_permission(permission: str) -> bool:
    return permission.rsplit(":", 1)[-1] in READ_VERBS


class CheckList(SelectionList[str]):
    """A SelectionList whose boxes read `[x]` and `[ ]`: ticked and unticked differ in
    shape, not only in colour (a colour-blind admin, a monochrome terminal, a screenshot).

    It redraws the three cells SelectionList.render_line puts before each prompt (its
    toggle button); the test `test_checked_boxes_differ_without_colour` guards that."""

    BINDINGS: ClassVar[list[BindingType]] = LIST_MOVES

    def _on_focus(self, event: events.Focus) -> None:
        """The cursor on the first row when none is highlighted (the options were rebuilt
        after a load or a filter): the row that looks current is the one `space` ticks."""
        super()._on_focus(event)
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    def action_select(self) -> None:
        """`space` ticks the highlighted row, the first one if none is highlighted yet:
        the first press is never lost to placing the cursor."""
        if self.highlighted is None and self.option_count:
            self.highlighted = 0
        super().action_select()

    def render_line(self, y: int) -> Strip:
        line = super().render_line(y)
        segments = list(line)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:  # past the last option: nothing to redraw
            return line
        if len(segments) < 4:
            return line
        text_style = segments[3].style or Style()
        meta = segments[1].style.meta if segments[1].style else {}
        box_style = text_style + Style.from_meta(meta)
        ticked = selection.value in self.selected
        boxes = [
            Segment("[", box_style),
            Segment("x" if ticked else " ", box_style + Style(bold=True)),
            Segment("]", box_style),
        ]
        return Strip([*boxes, *segments[3:]], line.cell_length)


class PermissionChecklist(Vertical):
    """Permissions to tick; until `set_permissions` gives the options, `selected` is the
    pending choice, so a form's state never depends on how fast the list arrived.

    The filter only hides options: ticked ones out of sight stay ticked."""

    DEFAULT_CSS = """
    PermissionChecklist {
        height: auto;
    }
    PermissionChecklist > SelectionList {
        height: auto;
        max-height: 12;
    }
    PermissionChecklist.-compact > SelectionList {
        max-height: 7;
    }
    PermissionChecklist > .checklist-note {
        color: $text-muted;
        height: auto;
    }
    PermissionChecklist > .checklist-tools {
        height: 1;
        margin-bottom: 0;
    }
    PermissionChecklist > .checklist-tools > Input {
        width: 1fr;
        max-width: 40;
        margin-right: 1;
    }
    PermissionChecklist > .checklist-tools > .checklist-filter-label {
        width: auto;
        color: $text-muted;
    }
    PermissionChecklist > .checklist-tools > .checklist-hidden {
        width: auto;
        margin-left: 2;
        color: $text-muted;
    }
    PermissionChecklist > .checklist-tools > Button {
        width: auto;
        min-width: 0;
        margin-left: 2;
    }
    """

    def __init__(
        self,
        selected: Iterable[str] = (),
        *,
        compact: bool = False,
        id: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(id=id, classes="-compact" if compact else None, disabled=disabled)
        self._pending: list[str] = list(selected)
        self._options: list[str] | None = None
        self._extras: list[str] = []
        self._offered: list[Permission] = []
        self._hidden_selected: set[str] = set()
        self._filter = ""
        self._application_type = ""
        self._held: set[str] = set()

    def compose(self) -> ComposeResult:
        yield Static("Loading permissions…", classes="checklist-note")
        with Horizontal(classes="checklist-tools"):
            yield Static("Filter ", classes="checklist-filter-label")
            yield Input(
                placeholder="name or words…",
                compact=True,
                classes="checklist-filter",
                select_on_focus=False,
            )
            for preset, label in PRESETS:
                yield Button(
                    label,
                    compact=True,
                    classes=f"checklist-preset preset-{preset}",
                    tooltip={
                        "none": "Untick every permission",
                        "read": "Tick only the permissions that read (read, search)",
                        "all": "Tick every permission this application type allows",
                    }[preset],
                )
            yield Static("", classes="checklist-hidden")
        selection_list = CheckList(classes="checklist")
        selection_list.loading = True
        yield selection_list

    @property
    def selection_list(self) -> SelectionList[str]:
        return self.query_one(SelectionList)

    @property
    def loaded(self) -> bool:
        return self._options is not None

    @property
    def selected(self) -> list[str]:
        """The ticked permissions, in catalogue order (those filtered out of sight too)."""
        if self._options is None or not self.is_mounted:
            return sorted(self._pending)
        chosen = set(self.selection_list.selected) | self._hidden_selected
        return [p for p in self._options if p in chosen]

    def set_permissions(
        self,
        permissions: list[Permission],
        *,
        note: str | None = None,
        application_type: str = "",
        held: Collection[str] = (),
    ) -> list[str]:
        """Shows these options (Permission objects); returns ticked ones they do not include
        and the application does not already hold (`held`).

        Those stay ticked, first and marked, so that nothing chosen silently vanishes:
        saving then says why they cannot be granted. Held ones the service's list lacks are
        marked as kept: the application holds them, and saving sends them back unchanged.
        """
        keep = self.selected if self._options is not None else list(self._pending)
        offered = [p.type for p in permissions]
        extras = [p for p in keep if p not in offered]
        self._options = extras + offered
        self._extras = extras
        self._offered = list(permissions)
        self._application_type = application_type
        self._held = set(held)
        self._show(set(keep))
        self._pending = list(keep)
        self.selection_list.loading = False
        note_widget = self.query_one(".checklist-note", Static)
        note_widget.update(note or "")
        note_widget.display = bool(note)
        return [p for p in extras if p not in self._held]

    def _show(self, chosen: set[str]) -> None:
        """(Re)builds the options that match the filter, ticked as in `chosen`."""
        selection_list = self.selection_list
        highlighted = selection_list.highlighted
        selection_list.clear_options()
        options = self._options or []
        width = max((len(p) for p in options), default=0) + 2
        what = (
            f"{self._application_type} {APPLICATIONS.plural}"
            if self._application_type
            else "this type"
        )
        needle = self._filter.lower()

        def shown(permission: str, description: str = "") -> bool:
            return not needle or needle in permission.lower() or needle in description.lower()

        visible: set[str] = set()
        rows: list[Selection[str]] = []
        # Ticked but not allowed: listed first, in red, where they cannot be missed.
        for p in self._extras:
            if shown(p):
                visible.add(p)
                label = (
                    Text.assemble((p.ljust(width), "bold yellow"), (_KEPT, "yellow"))
                    if p in self._held
                    else Text.assemble(
                        (p.ljust(width), "bold red"), (f"not allowed for {what}", "red")
                    )
                )
                rows.append(Selection(label, p, p in chosen))
        for permission in self._offered:
            if shown(permission.type, permission.description or ""):
                visible.add(permission.type)
                label = Text.assemble(
                    (permission.type.ljust(width), "bold"), (permission.description, "dim")
                )
                rows.append(Selection(label, permission.type, permission.type in chosen))
        selection_list.add_options(rows)
        self._hidden_selected = chosen - visible
        hidden = len(self._hidden_selected)
        self.query_one(".checklist-hidden", Static).update(
            f"+{hidden} ticked, filtered out" if hidden else ""
        )
        if highlighted is not None and selection_list.option_count:
            selection_list.highlighted = min(highlighted, selection_list.option_count - 1)

    def show_options_loading(self) -> None:
        if self._options is not None:
            self._pending = self.selected
        self._options = None
        self.selection_list.loading = True
        note = self.query_one(".checklist-note", Static)
        note.update("Loading permissions…")
        note.display = True

    # ----- filter and presets ------------------------------------------------------------

    @property
    def filter_text(self) -> str:
        return self._filter

    def filter(self, text: str) -> None:
        """Shows only the permissions whose name or description contains `text`."""
        self._filter = text.strip()
        if self._options is not None:
            self._show(set(self.selected))

    def apply_preset(self, preset: str) -> None:
        """ "none", "read" (only what reads) or "all" (everything this type allows)."""
        if self._options is None:
            return
        allowed = [p.type for p in self._offered]
        if preset == "none":
            chosen: set[str] = set()
        else:
            # Held permissions the service's list lacks stay as they are: a preset picks
            # among what the type allows, it does not drop what the console cannot judge.
            chosen = {p for p in self.selected if p in self._held and p not in allowed}
            if preset == "read":
                chosen |= {p for p in allowed if is_read_only_permission(p)}
            else:
                chosen |= set(allowed)
        self._show(chosen)
        self.post_message(SelectionList.SelectedChanged(self.selection_list))

    @on(Input.Changed, ".checklist-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()  # the filter is no part of the form's content
        self.filter(event.value)

    @on(Input.Submitted, ".checklist-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.selection_list.option_count:
            self.selection_list.focus()

    @on(Button.Pressed, ".checklist-preset")
    def _preset_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        for preset, _ in PRESETS:
            if event.button.has_class(f"preset-{preset}"):
                self.apply_preset(preset)
