"""Across tenants in the console: pick a target profile, see a plan (a promotion's, to
confirm; or the whole tenant's diff with another profile, to read).

The plan's text is console.estate.render's, the command line's own: the same words in both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, LoadingIndicator, Static

from console.tui.modals.base import ChoiceDialog
from console.tui.widgets.console_header import ConsoleHeader
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.key_scroll import KeyScroll

if TYPE_CHECKING:
    from console.estate.plan import Plan

LINE_STYLES = {"+": "green", "~": "yellow", "-": "red", "!": "bold magenta", "?": "cyan"}


def plan_text(plan: Plan, *, show_unchanged: bool = False) -> Text:
    """The plan's lines, coloured by action; a code diff's lines by + and -."""
    from console.estate.render import CODE_MARK, plan_lines

    text = Text()
    for index, line in enumerate(plan_lines(plan, show_unchanged=show_unchanged)):
        style = ""
        stripped = line.lstrip()
        if index == 0 or (line and not line.startswith(" ")):
            style = "bold"
        elif line.startswith("  ") and not line.startswith("   ") and stripped:
            style = LINE_STYLES.get(stripped[0], "")
        elif line.startswith(CODE_MARK):  # what the code check found in code this sends
            style = "bold magenta"
        elif line.startswith("        "):  # inside a line diff
            if stripped.startswith(("+++", "---")):
                style = "dim"
            elif stripped.startswith("+"):
                style = "green"
            elif stripped.startswith("-"):
                style = "red"
            elif stripped.startswith("@@"):
                style = "cyan"
        text.append(line, style=style)
        text.append("\n")
    text.rstrip()
    return text


class PlanScreen(ChoiceDialog):
    """A promotion's plan, to confirm: Apply (or `y`) answers True; Cancel, `n` or escape
    False. It opens at once with a loading line and shows the plan once it is computed;
    Apply exists only when the plan changes something and may be applied."""

    BINDINGS = [
        Binding("escape", "answer(False)", "Cancel"),
        Binding("n", "answer(False)", "Cancel", show=False),
        Binding("y", "answer(True)", "Apply", show=False),
    ]

    def __init__(self, title: str) -> None:
        super().__init__()
        self.title_text = title
        self.plan: Plan | None = None
        self.applicable = False

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.title_text, classes="dialog-title", markup=False)
            yield LoadingIndicator(id="plan-loading")
            with KeyScroll(id="plan-scroll"):
                yield Static("", id="plan-text")
            yield Static("", id="plan-note", classes="dialog-warning")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Cancel", id="cancel")
                yield Button("Apply", id="confirm", variant="warning")

    def on_mount(self) -> None:
        self.query_one("#plan-scroll").display = False
        self.query_one("#plan-note").display = False
        self.query_one("#confirm").display = False
        self.query_one("#cancel", Button).focus()

    ROOM_AROUND_PLAN = 14
    """Rows the frame, title, note and buttons take: the plan scrolls in what is left."""

    def on_resize(self) -> None:
        room = max(3, self.size.height - self.ROOM_AROUND_PLAN)
        self.query_one("#plan-scroll").styles.max_height = room

    def show_plan(
        self, plan: Plan, *, refusal: str | None = None, warning: str | None = None
    ) -> None:
        """The plan; `refusal` says why it may not be applied (read-only, placeholders),
        `warning` what to know before applying it (code the check finds broken)."""
        self.plan = plan
        self.applicable = not plan.nothing_to_do and refusal is None
        self.query_one("#plan-loading").display = False
        self.query_one("#plan-text", Static).update(plan_text(plan))
        self.query_one("#plan-scroll").display = True
        if plan.nothing_to_do and plan.blocked:
            done = "Nothing can be done: the target still differs (! cannot apply, above)."
        else:
            done = "Nothing to do: the target already matches."
        note = refusal or ("" if self.applicable else done)
        if self.applicable and warning:
            note = warning
        self._note(note)
        confirm = self.query_one("#confirm", Button)
        confirm.display = self.applicable
        confirm.label = f"Apply to {plan.target}"
        self.query_one("#cancel", Button).label = "Cancel" if self.applicable else "Close"
        self.query_one("#plan-scroll").focus()

    def show_problem(self, message: str) -> None:
        self.query_one("#plan-loading").display = False
        self._note(message)
        self.query_one("#cancel", Button).label = "Close"

    def _note(self, text: str) -> None:
        note = self.query_one("#plan-note", Static)
        note.update(text)
        note.display = bool(text)

    def confirm(self) -> None:
        if self.applicable:
            self.dismiss(True)


class TenantDiffScreen(Screen[None]):
    """The whole-tenant diff between the current profile (the source) and another: what an
    apply of an export of this tenant would do there. Read only; `a` shows unchanged too."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("a", "toggle_unchanged", "Unchanged too"),
    ]

    def __init__(self, target: str) -> None:
        super().__init__()
        self.target = target
        self.plan: Plan | None = None
        self.show_unchanged = False
        self.problem = ""

    def compose(self) -> ComposeResult:
        yield ConsoleHeader()
        yield Static(
            f"Compared with profile {self.target}", id="diff-title", classes="section-title"
        )
        yield LoadingIndicator(id="diff-loading")
        with KeyScroll(id="diff-body"):
            yield Static("", id="diff-text")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one(ConsoleHeader).trail = f"diff with {self.target}"
        self.query_one("#diff-body").display = False

    def show_plan(self, plan: Plan) -> None:
        self.plan = plan
        self._show_text()

    def show_problem(self, message: str) -> None:
        self.problem = message
        self.query_one("#diff-loading").display = False
        self.query_one("#diff-text", Static).update(Text(message, style="bold red"))
        self.query_one("#diff-body").display = True

    def _show_text(self) -> None:
        if self.plan is None:
            return
        self.query_one("#diff-loading").display = False
        text = plan_text(self.plan, show_unchanged=self.show_unchanged)
        self.query_one("#diff-text", Static).update(text)
        body = self.query_one("#diff-body")
        body.display = True
        body.focus()

    def action_toggle_unchanged(self) -> None:
        self.show_unchanged = not self.show_unchanged
        self._show_text()

    def action_back(self) -> None:
        self.app.pop_screen()
