"""A permission checklist that keeps its selection while its options are still loading."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import SelectionList, Static
from textual.widgets.selection_list import Selection

_KEPT = "held, not in this service's list for this type: kept as it is"


class PermissionChecklist(Vertical):
    """Permissions to tick; until `set_permissions` gives the options, `selected` is the
    pending choice, so a form's state never depends on how fast the list arrived."""

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

    def compose(self) -> ComposeResult:
        yield Static("Loading permissions…", classes="checklist-note")
        selection_list: SelectionList[str] = SelectionList(classes="checklist")
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
        """The ticked permissions, in catalogue order."""
        if self._options is None or not self.is_mounted:
            return sorted(self._pending)
        chosen = set(self.selection_list.selected)
        return [p for p in self._options if p in chosen]

    def set_selected(self, permissions: Iterable[str]) -> None:
        self._pending = list(permissions)
        if self._options is not None and self.is_mounted:
            self.selection_list.deselect_all()
            for permission in self._pending:
                if permission in self._options:
                    self.selection_list.select(permission)

    def set_permissions(
        self,
        permissions: list[Any],
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
        selection_list = self.selection_list
        selection_list.clear_options()
        width = max((len(p) for p in self._options), default=0) + 2
        what = f"{application_type} applications" if application_type else "this type"
        # Ticked but not allowed: listed first, in red, where they cannot be missed.
        selection_list.add_options(
            Selection(
                Text.assemble((p.ljust(width), "bold yellow"), (_KEPT, "yellow"))
                if p in held
                else Text.assemble(
                    (p.ljust(width), "bold red"), (f"not allowed for {what}", "red")
                ),
                p,
                True,
            )
            for p in extras
        )
        selection_list.add_options(
            Selection(
                Text.assemble((p.type.ljust(width), "bold"), (p.description, "dim")),
                p.type,
                p.type in keep,
            )
            for p in permissions
        )
        self._pending = list(keep)
        selection_list.loading = False
        note_widget = self.query_one(".checklist-note", Static)
        note_widget.update(note or "")
        note_widget.display = bool(note)
        return [p for p in extras if p not in held]

    def set_loading(self) -> None:
        if self._options is not None:
            self._pending = self.selected
        self._options = None
        self.selection_list.loading = True
        note = self.query_one(".checklist-note", Static)
        note.update("Loading permissions…")
        note.display = True
