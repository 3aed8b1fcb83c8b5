"""A permission checklist that keeps its selection while its options are still loading,
with a filter, presets (none, read-only, everything the type allows) and `[x]` / `[ ]`
boxes that differ without colour: a FilterableChecklist of the service's permissions."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.widget import Widget
from textual.widgets import Button

from console.tui.browse.kinds import APPLICATIONS
from console.tui.widgets.filterable_checklist import FilterableChecklist

if TYPE_CHECKING:
    from console.models import Permission

_KEPT = "held, not in this service's list for this type: kept as it is"

READ_VERBS = ("read", "search")
"""A permission whose last part is one of these only reads: the read-only preset."""

PRESETS = (("none", "None"), ("read", "Read-only"), ("all", "All allowed"))

PRESET_TIPS = {
    "none": "Untick every permission",
    "read": "Tick only the permissions that read (read, search)",
    "all": "Tick every permission this application type allows",
}


def is_read_only_permission(permission: str) -> bool:
    return permission.rsplit(":", 1)[-1] in READ_VERBS


class PermissionChecklist(FilterableChecklist):
    """Permissions to tick; until `set_permissions` gives the options, `selected` is the
    pending choice (sorted), so a form's state never depends on how fast the list arrived.

    The filter only hides options: ticked ones out of sight stay ticked."""

    DEFAULT_CSS = """
    PermissionChecklist.-compact > SelectionList {
        max-height: 7;
    }
    """

    loading_text = "Loading permissions…"
    filter_placeholder = "name or words…"
    list_classes = "checklist"

    def __init__(
        self,
        selected: Iterable[str] = (),
        *,
        compact: bool = False,
        id: str | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            selected, id=id, classes="-compact" if compact else None, disabled=disabled
        )
        self._offered: list[Permission] = []
        self._application_type = ""
        self._held: set[str] = set()

    def compose_buttons(self) -> Iterator[Widget]:
        for preset, label in PRESETS:
            yield Button(
                label,
                compact=True,
                classes=f"checklist-preset preset-{preset}",
                tooltip=PRESET_TIPS[preset],
            )

    def count_text(self, ticked: int, hidden: int) -> str:
        return f"+{hidden} ticked, filtered out" if hidden else ""

    def _pending_selection(self) -> list[str]:
        return sorted(self._pending)

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
        keep = self._kept_selection()
        self._offered = list(permissions)
        self._application_type = application_type
        self._held = set(held)
        extras = self._fill(keep, [p.type for p in permissions])
        self._note(note or "")
        return [p for p in extras if p not in self._held]

    def rows(self, width: int) -> Iterator[tuple[str, str, Text]]:
        """Ticked but not allowed first, in red where they cannot be missed (held ones in
        yellow, kept); then the offered ones, their description beside them (the filter
        searches it too; the extras only by name)."""
        what = (
            f"{self._application_type} {APPLICATIONS.plural}"
            if self._application_type
            else "this type"
        )
        for p in self._extras:
            label = (
                Text.assemble((p.ljust(width), "bold yellow"), (_KEPT, "yellow"))
                if p in self._held
                else Text.assemble((p.ljust(width), "bold red"), (f"not allowed for {what}", "red"))
            )
            yield p, "", label
        for permission in self._offered:
            label = Text.assemble(
                (permission.type.ljust(width), "bold"), (permission.description, "dim")
            )
            yield permission.type, permission.description or "", label

    # ----- presets -----------------------------------------------------------------------

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
        self._tick(chosen)

    @on(Button.Pressed, ".checklist-preset")
    def _preset_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        for preset, _ in PRESETS:
            if event.button.has_class(f"preset-{preset}"):
                self.apply_preset(preset)
