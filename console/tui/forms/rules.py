"""The access rules editor: one block per rule, added, removed and reordered in place."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Button, Input, Select, Static

from console.models import TRANSFORMS
from console.tui.base.shown import JsonObject
from console.tui.forms.fields import FormField
from console.tui.forms.permissions import PermissionChecklist

if TYPE_CHECKING:
    from console.models import Permission

TRANSFORM_HINTS = {
    "redact": "redact: data removed",
    "mask": "mask: masked value",
    "reveal": "reveal: plaintext",
}


def _transform_options(current: str | None) -> list[tuple[str, str]]:
    """The three transforms, plus a value of the service's own that a rule already has."""
    options = [(TRANSFORM_HINTS[t], t) for t in TRANSFORMS]
    if current and current not in TRANSFORMS:
        options.append((f"{current}: this service's own transform (kept)", current))
    return options


class RuleRow(Vertical):
    """One access rule: description, priority, container, transform and its permissions."""

    DEFAULT_CSS = """
    RuleRow {
        height: auto;
        border: round $primary 50%;
        padding: 0 1;
        margin-bottom: 1;
    }
    RuleRow > .rule-head {
        height: 1;
        margin-bottom: 1;
    }
    RuleRow .rule-title {
        width: 1fr;
        text-style: bold;
    }
    RuleRow .rule-head Button {
        width: auto;
        min-width: 0;
        margin-left: 2;
    }
    RuleRow .form-row {
        height: auto;
    }
    RuleRow .form-row > FormField {
        width: 1fr;
        margin-right: 1;
        margin-bottom: 0;
    }
    RuleRow .priority-field {
        max-width: 16;
    }
    """

    class Moved(Message):
        """Asks the editor to move this rule up (-1) or down (+1), or remove it (0)."""

        def __init__(self, row: RuleRow, step: int) -> None:
            super().__init__()
            self.row = row
            self.step = step

    def __init__(self, rule: JsonObject, index: int, *, read_only: bool = False) -> None:
        super().__init__()
        self.rule = rule
        self.index = index
        self.read_only = read_only

    def compose(self) -> ComposeResult:
        rule = self.rule
        at = f"rules[{self.index}]"
        with Horizontal(classes="rule-head"):
            yield Static(f"Rule {self.index + 1}", classes="rule-title")
            if not self.read_only:
                yield Button("▲ Up", classes="rule-up", compact=True, tooltip="Higher precedence")
                yield Button(
                    "▼ Down", classes="rule-down", compact=True, tooltip="Lower precedence"
                )
                yield Button("✕ Remove", classes="rule-remove", compact=True, variant="error")
        with Horizontal(classes="form-row"):
            yield FormField(
                "Description",
                Input(rule.get("description") or "", classes="rule-description"),
                path=f"{at}.description",
                classes="rule-field",
            )
            priority = rule.get("priority")
            yield FormField(
                "Priority",
                Input(
                    "" if priority is None else str(priority),
                    type="integer",
                    classes="rule-priority",
                ),
                path=f"{at}.priority",
                classes="rule-field priority-field",
            )
        with Horizontal(classes="form-row"):
            yield FormField(
                "Container",
                Input(
                    rule.get("container") or "",
                    placeholder="e.g. /pci/high/ (not for management applications)",
                    classes="rule-container",
                ),
                path=f"{at}.container",
                classes="rule-field",
            )
            yield FormField(
                "Transform",
                Select(
                    _transform_options(rule.get("transform")),
                    value=rule.get("transform") or "redact",
                    allow_blank=False,
                    classes="rule-transform",
                ),
                path=f"{at}.transform",
                classes="rule-field",
            )
        yield FormField(
            "Permissions granted by the rule",
            PermissionChecklist(rule.get("permissions") or [], compact=True),
            path=f"{at}.permissions",
            classes="rule-field",
        )

    def set_index(self, index: int) -> None:
        """Renumbers the rule, and the JSON paths its fields answer to."""
        self.index = index
        self.query_one(".rule-title", Static).update(f"Rule {index + 1}")
        for field in self.query(".rule-field").results(FormField):
            field.path = f"rules[{index}].{field.path.rsplit('.', 1)[1]}"

    @property
    def checklist(self) -> PermissionChecklist:
        return self.query_one(PermissionChecklist)

    @property
    def priority_text(self) -> str:
        return self.query_one(".rule-priority", Input).value

    @priority_text.setter
    def priority_text(self, value: str) -> None:
        self.query_one(".rule-priority", Input).value = value

    def value(self) -> JsonObject:
        """The rule as the API wants it; the priority stays text if it is not a number."""
        priority_text = self.priority_text.strip()
        try:
            priority: int | str | None = int(priority_text)
        except ValueError:
            priority = priority_text or None
        container = self.query_one(".rule-container", Input).value.strip()
        transform = self.query_one(".rule-transform", Select).value
        return {
            "description": self.query_one(".rule-description", Input).value,
            "priority": priority,
            "container": container or None,
            "transform": None if transform is Select.NULL else transform,
            "permissions": self.checklist.selected,
        }

    @on(Button.Pressed, ".rule-up")
    def _up(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Moved(self, -1))

    @on(Button.Pressed, ".rule-down")
    def _down(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Moved(self, 1))

    @on(Button.Pressed, ".rule-remove")
    def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.Moved(self, 0))


class RulesEditor(Vertical):
    """All rules of an application, in precedence order; moving a rule swaps priorities."""

    DEFAULT_CSS = """
    RulesEditor {
        height: auto;
    }
    RulesEditor > #rule-rows {
        height: auto;
    }
    RulesEditor > .rules-empty {
        color: $text-muted;
        margin-bottom: 1;
    }
    RulesEditor > #add-rule {
        margin-bottom: 1;
    }
    """

    class Changed(Message):
        """Rules were added, removed or reordered."""

    def __init__(self, rules: list[JsonObject], *, read_only: bool = False) -> None:
        super().__init__(id="rules-editor")
        self._initial = sorted(rules, key=lambda r: r.get("priority") or 0)
        self.read_only = read_only
        self.permission_options: list[Permission] | None = None
        self.permission_note: str | None = None
        self.application_type = ""

    def compose(self) -> ComposeResult:
        yield Static("No access rules.", classes="rules-empty")
        with Vertical(id="rule-rows"):
            for index, rule in enumerate(self._initial):
                yield RuleRow(rule, index, read_only=self.read_only)
        if not self.read_only:
            yield Button("+ Add rule", id="add-rule")

    def on_mount(self) -> None:
        self._show_empty()

    @property
    def rows(self) -> list[RuleRow]:
        return list(self.query_one("#rule-rows").query_children(RuleRow))

    def value(self) -> list[JsonObject]:
        return [row.value() for row in self.rows]

    def set_permission_options(
        self,
        permissions: list[Permission],
        note: str | None = None,
        application_type: str = "",
        held: Collection[str] = (),
    ) -> list[str]:
        """Offers these permissions in every rule; returns ticked ones not among them (and
        not already `held` by the application: those are kept as they are)."""
        self.permission_options = permissions
        self.permission_note = note
        self.application_type = application_type
        extras: list[str] = []
        for row in self.rows:
            extras += row.checklist.set_permissions(
                permissions, note=note, application_type=application_type, held=held
            )
        return extras

    def show_options_loading(self) -> None:
        self.permission_options = None
        for row in self.rows:
            row.checklist.show_loading()

    def _show_empty(self) -> None:
        self.query_one(".rules-empty", Static).display = not self.rows

    async def add_rule(self) -> RuleRow:
        rows = self.rows
        priorities = [r.value()["priority"] for r in rows]
        numbers = [p for p in priorities if isinstance(p, int)]
        rule = {"priority": max(numbers, default=0) + 1, "transform": "redact"}
        row = RuleRow(rule, len(rows))
        await self.query_one("#rule-rows").mount(row)
        if self.permission_options is not None:
            row.checklist.set_permissions(
                self.permission_options,
                note=self.permission_note,
                application_type=self.application_type,
            )
        self._show_empty()
        row.query_one(".rule-description", Input).focus()
        self.post_message(self.Changed())
        return row

    @on(Button.Pressed, "#add-rule")
    async def _add_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        await self.add_rule()

    @on(RuleRow.Moved)
    async def _moved(self, event: RuleRow.Moved) -> None:
        event.stop()
        if event.step == 0:
            await self.remove_rule(event.row)
        else:
            self.move_rule(event.row, event.step)

    async def remove_rule(self, row: RuleRow) -> None:
        await row.remove()
        self._renumber()
        self._show_empty()
        self.post_message(self.Changed())

    def move_rule(self, row: RuleRow, step: int) -> None:
        rows = self.rows
        index = rows.index(row)
        other_index = index + step
        if not 0 <= other_index < len(rows):
            return
        other = rows[other_index]
        # Precedence follows the list: the two rules swap their priorities too.
        mine, theirs = row.priority_text, other.priority_text
        row.priority_text, other.priority_text = theirs, mine
        container = self.query_one("#rule-rows")
        if step < 0:
            container.move_child(row, before=other)
        else:
            container.move_child(row, after=other)
        self._renumber()
        self.post_message(self.Changed())

    def _renumber(self) -> None:
        for index, row in enumerate(self.rows):
            row.set_index(index)
