"""The keys of the declared actions (console.tui.actions.declarations) on a screen: their
bindings and the `action_<name>` methods Textual calls, made from the declarations, so that
a key is written once, with its action, and a screen names only the set it offers.

    class ConsoleScreen(DeclaredActions, Screen[None], actions=CONSOLE_SCREEN_ACTIONS): ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from textual.binding import Binding, BindingType

from console.tui.actions.declarations import Action

S = TypeVar("S")
"""The screen the actions run on (a protocol of what its runner reads)."""


@dataclass(frozen=True)
class ScreenActions(Generic[S]):
    """The declared actions one kind of screen offers, and how it runs them."""

    actions: Mapping[str, Action]
    """By name (Action.name: the screen's `action_<name>`)."""
    run: Callable[[S, str], None]
    """Starts the action of that name on the screen (bindings_policy.run_console_action)."""
    explain_lacking: Callable[[S, str], None]
    """A dimmed key was pressed: says which permission is missing (`lacking_permission`)."""
    group: Binding.Group | None = None
    """The footer label the `grouped` actions share (n, e, d, R on the console)."""
    grouped: frozenset[str] = frozenset()

    def bindings(self) -> list[BindingType]:
        """A binding per action: its key, its name, its label in the footer."""
        return [
            Binding(a.key, a.name, a.label, group=self.group if a.name in self.grouped else None)
            for a in self.actions.values()
        ]

    def methods(self) -> dict[str, Callable[..., None]]:
        """`action_<name>` for each action, and `action_lacking_permission`: each starts
        the declared action (or says what it lacks) on the screen it is called on."""
        methods: dict[str, Callable[..., None]] = {
            f"action_{name}": self._runner(name) for name in self.actions
        }
        methods["action_lacking_permission"] = self._lacking()
        return methods

    def _runner(self, name: str) -> Callable[[S], None]:
        def action(screen: S) -> None:
            self.run(screen, name)

        action.__name__ = f"action_{name}"
        action.__doc__ = f"Runs the declared action `{name}` (console.tui.actions.declarations)."
        return action

    def _lacking(self) -> Callable[[S, str], None]:
        def action_lacking_permission(screen: S, action: str) -> None:
            """A dimmed key was pressed: says which permission the session's key lacks."""
            self.explain_lacking(screen, action)

        return action_lacking_permission


class DeclaredActions:
    """A screen's base (before Screen) that gives it the keys of `actions`: their bindings
    before the screen's own (a hidden binding of the same key, such as key_hints'
    `explain_key`, then comes after the action's), and their `action_*` methods, unless the
    screen writes one itself."""

    BINDINGS: ClassVar[list[BindingType]]

    def __init_subclass__(cls, actions: ScreenActions[Any] | None = None, **kwargs: Any) -> None:
        if actions is not None:
            cls.BINDINGS = [*actions.bindings(), *cls.__dict__.get("BINDINGS", [])]
            for name, method in actions.methods().items():
                if name not in cls.__dict__:
                    setattr(cls, name, method)
        super().__init_subclass__(**kwargs)
