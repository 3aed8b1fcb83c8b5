"""The one place a section says it is loading, empty, or failed (with what to do next)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import LoadingIndicator, Static

from console.tui.base.problems import ConsoleProblem


class StatePanel(Vertical):
    """Shown in place of a section's content while it has nothing else to show."""

    DEFAULT_CSS = """
    StatePanel { height: 1fr; align: center middle; display: none; }
    StatePanel.-visible { display: block; }
    StatePanel > LoadingIndicator { height: 1; }
    StatePanel > .state-title { text-style: bold; width: 100%; content-align: center middle; }
    StatePanel > .state-message { width: 100%; text-align: center; padding: 0 4; }
    StatePanel > .state-hint { width: 100%; text-align: center; color: $text-muted; margin-top: 1; }
    StatePanel.-error > .state-title { color: $error; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", classes="state-title")
        yield Static("", classes="state-message")
        yield Static("", classes="state-hint")

    @property
    def kind(self) -> str | None:
        """ "loading", "empty", "error" or None when hidden."""
        for kind in ("loading", "empty", "error"):
            if self.has_class(f"-{kind}"):
                return kind
        return None

    @property
    def title_text(self) -> str:
        return str(self.query_one(".state-title", Static).content)

    @property
    def message_text(self) -> str:
        return str(self.query_one(".state-message", Static).content)

    def _show(self, kind: str, title: str, message: str = "", hint: str = "") -> None:
        if kind != "loading":
            self.query(LoadingIndicator).remove()
        self.set_class(True, "-visible")
        for other in ("loading", "empty", "error"):
            self.set_class(other == kind, f"-{other}")
        self.query_one(".state-title", Static).update(title)
        self.query_one(".state-message", Static).update(message)
        self.query_one(".state-hint", Static).update(hint)

    def show_loading(self, what: str) -> None:
        self._show("loading", f"Loading {what}…")
        if not self.query(LoadingIndicator):
            # Mounted only while loading: an indicator animates even when hidden.
            self.mount(LoadingIndicator(), before=0)

    def show_empty(self, message: str, hint: str = "") -> None:
        self._show("empty", message, "", hint)

    def show_problem(self, problem: ConsoleProblem) -> None:
        self._show("error", problem.title, problem.message, problem.hint)

    def hide(self) -> None:
        self.query(LoadingIndicator).remove()
        self.set_class(False, "-visible", "-loading", "-empty", "-error")
