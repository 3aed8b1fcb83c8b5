"""What the console's quit keys do: ctrl+c copies the selection where there is one and
otherwise quits, as in k9s and lazygit; every quit (ctrl+c, q, ctrl+q) is refused by a dialog
holding what quitting loses (a key shown once), and asks first where a form holds unsaved
changes. The app binds the keys; this module says what they find on the screens."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class GuardsQuit(Protocol):
    """A screen holding something a quit would lose for good (the one-time key dialog)."""

    def refuse_quit(self, pressed: str) -> str | None:
        """Why not (said on the screen too) when quitting now would lose it, else None;
        `pressed` names the key for that sentence."""
        ...


@runtime_checkable
class HoldsChanges(Protocol):
    """A screen whose changes are lost when it closes unsaved (a form)."""

    @property
    def dirty(self) -> bool: ...

    @property
    def noun(self) -> str: ...


def selected_text(app: Any) -> str | None:
    """What ctrl+c copies: the focused input's or editor's selection, else the text
    selected with the mouse on the screen; None when nothing is selected."""
    focused = app.focused
    text = getattr(focused, "selected_text", None) if focused is not None else None
    if isinstance(text, str) and text:
        return text
    selected = app.screen.get_selected_text()
    return selected or None


def quit_refusal(screens: Sequence[object], pressed: str) -> tuple[object, str] | None:
    """The screen on the stack that refuses the quit, topmost first, and why (it said so
    itself); None when none does."""
    for screen in reversed(screens):
        said = screen.refuse_quit(pressed) if isinstance(screen, GuardsQuit) else None
        if said:
            return screen, said
    return None


def unsaved(screens: Sequence[object]) -> list[str]:
    """What holds unsaved changes on the stack ("this application"), topmost first."""
    return [f"this {s.noun}" for s in reversed(screens) if isinstance(s, HoldsChanges) and s.dirty]
