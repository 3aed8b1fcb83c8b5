"""A form's parts in tabs under its first fields, each a key away (F5, F6, F7, or alt+1..3):
the formula form's code, configuration and request parameters, the reactor form's code,
configuration and runtime. Shared so that the keys mean the same on every form: "the form's
first, second, third part"."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import TabbedContent, TabPane

PART_KEYS = (("f5,alt+1", "F5"), ("f6,alt+2", "F6"), ("f7,alt+3", "F7"))
"""F5-F7 in every terminal; alt+1..3 where the terminal sends them."""


def part_bindings(*titles: str) -> list[Binding]:
    """The keys of a form's parts, `show_part(n)` (priority: never typed into the field
    that has the focus), labelled with the parts' titles."""
    return [
        Binding(keys, f"show_part({number})", title, key_display=shown, priority=True)
        for number, ((keys, shown), title) in enumerate(zip(PART_KEYS, titles, strict=False), 1)
    ]


class FormParts(TabbedContent):
    """A form's tabs. A pane reports a focus that is already gone (its field's, as the pane
    is left): Textual's TabbedContent would show that pane again, hiding the one just chosen;
    only a focus still inside a pane makes it active."""

    def _on_tab_pane_focused(self, event: TabPane.Focused) -> None:
        focused = self.app.focused
        if focused is None or event.tab_pane not in focused.ancestors_with_self:
            event.prevent_default()  # TabbedContent's own handler would activate it
            event.stop()
