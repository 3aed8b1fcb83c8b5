"""A proxy's transform pipeline in its form: the steps of one side (request or response) as a
list, each with its type and a one-line summary, and the selected step's own fields below.

On the list: `n` adds a step (its type chosen first), `d` removes the selected one (after a
confirmation), shift+up / shift+down move it, enter goes to its fields. A step's fields
carry the JSON path the model reports its errors at (`request_transforms[1].expression`),
kept right when steps move, so an error lands at its field and its step is marked in the
list with that path. A step of a type the console does not know is shown as it came and
written back unchanged.
"""

from __future__ import annotations

import json
import logging
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import ContentSwitcher, Input, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from console.models.proxies import MASK_MATCHERS, SIDE_TYPES, TRANSFORM_TYPES, TRANSFORMS_MAX
from console.terminal_text import printable
from console.tui.base.dialog_host import dialog_host
from console.tui.base.pipeline_steps import step_summary
from console.tui.base.shown import JsonObject
from console.tui.forms.fields import FormField
from console.tui.widgets.code_editor import CodeEditor
from console.tui.widgets.pick_list import LIST_MOVES

log = logging.getLogger(__name__)

FieldErrors = dict[str, list[str]]

TYPE_DESCRIPTIONS: dict[str, str] = {
    "code": "JavaScript run on the message (as a transform's code)",
    "mask": "hides what a regular expression captures in the body",
    "tokenize": "makes a token of part of the message (the service's)",
    "append_json": "sets a value at a JSON path of the body",
    "append_text": "adds text at the end of the body",
    "append_header": "sets a header",
}
"""What each step type does, as the type picker says it."""


class StepField(FormField):
    """A field of a step: `name` is its path under the step (`options.value`)."""

    def __init__(self, name: str, label: str, *widgets: Any, hint: str | None = None) -> None:
        super().__init__(label, *widgets, path=name, hint=hint, classes=f"-{name.split('.')[-1]}")
        self.name_in_step = name


class StepEditor(Vertical):
    """The fields of one step, for its type; `payload()` is the step as a request sends it."""

    DEFAULT_CSS = """
    StepEditor {
        height: auto;
        padding: 0 1;
        border: round $panel;
    }
    StepEditor .step-row {
        height: auto;
    }
    StepEditor .step-json {
        height: 8;
    }
    StepEditor > StepField.-type {
        margin-bottom: 0;
    }
    """

    def __init__(self, side: str, step: JsonObject, uid: int, *, read_only: bool = False) -> None:
        super().__init__(id=f"{side}-step-{uid}")
        self.side = side
        self.original: JsonObject = dict(step)
        self.step_type = str(step.get("type") or "code")
        self.known = self.step_type in TRANSFORM_TYPES
        self.read_only = read_only
        self.index = 0

    def _options(self) -> dict[str, Any]:
        options = self.original.get("options")
        return dict(options) if isinstance(options, dict) else {}

    def _field(self, name: str, label: str, *widgets: Any, hint: str | None = None) -> StepField:
        return StepField(name, label, *widgets, hint=hint)

    def compose(self) -> ComposeResult:
        step, options = self.original, self._options()
        yield self._field("type", "")  # no widget: where an error about its type shows
        match self.step_type if self.known else "":
            case "code":
                yield self._field(
                    "code",
                    "",
                    CodeEditor(str(step.get("code") or ""), label="Code", id=f"{self.id}-code"),
                    hint="module.exports = async (req) => ({ body, headers }): "
                    "what it returns is the next step's req.args.",
                )
            case "mask":
                matcher = step.get("matcher")
                choices = [(m, m) for m in MASK_MATCHERS]
                if matcher and matcher not in MASK_MATCHERS:
                    choices.append((f"{matcher} (this service's own)", str(matcher)))
                yield self._field(
                    "matcher",
                    "Matcher",
                    Select(
                        choices,
                        value=str(matcher) if matcher else "regex",
                        allow_blank=False,
                        classes="step-matcher",
                    ),
                )
                yield self._field(
                    "expression",
                    "Expression",
                    Input(
                        str(step.get("expression") or ""),
                        placeholder=r'e.g. "accountNumber":\s*"(.*?)"',
                        classes="step-expression",
                    ),
                    hint="A regular expression with at least one capture group: each captured "
                    "value is masked (regex matcher only).",
                )
                yield self._field(
                    "replacement",
                    "Replacement",
                    Input(
                        str(step.get("replacement") or "*"),
                        max_length=1,
                        classes="step-replacement",
                    ),
                    hint="One character, repeated over each masked character.",
                )
            case "tokenize":
                token = options.get("token")
                template = json.dumps(token, indent=2) if token is not None else "{\n}"
                yield self._field(
                    "options.token",
                    "Token template (JSON)",
                    TextArea.code_editor(
                        template,
                        language="json",
                        soft_wrap=False,
                        tab_behavior="focus",
                        show_line_numbers=False,
                        classes="step-json step-token",
                    ),
                    hint='The token to create, e.g. {"type": "card_number", "data": "{{ … }}"}.',
                )
                yield self._field(
                    "options.identifier",
                    "Identifier",
                    Input(str(options.get("identifier") or ""), classes="step-identifier"),
                    hint="The name the token is known by to the next steps.",
                )
            case "append_json" | "append_text" | "append_header":
                where = {
                    "append_json": ("JSON path", "e.g. $.card.token", None),
                    "append_text": ("Location", "(optional)", "Optional."),
                    "append_header": ("Header name", "e.g. Authorization", None),
                }[self.step_type]
                value = options.get("value")
                yield self._field(
                    "options.value",
                    "Value",
                    Input(str(value) if value is not None else "", classes="step-value"),
                )
                yield self._field(
                    "options.location",
                    where[0],
                    Input(
                        str(options.get("location") or ""),
                        placeholder=where[1],
                        classes="step-location",
                    ),
                    hint=where[2],
                )
            case _:
                yield Static(
                    f"A {printable(self.step_type)} step, which this console cannot edit; "
                    f"saving keeps it as it is:\n{printable(json.dumps(step))}",
                    classes="readonly-value",
                    markup=False,
                )

    def on_mount(self) -> None:
        self.set_index(self.index)
        if self.read_only:
            for widget in self.query("Input, Select"):
                widget.disabled = True
            for area in self.query(TextArea):
                area.read_only = True

    def set_index(self, index: int) -> None:
        """Its place in the pipeline: the border title and the paths of its fields."""
        self.index = index
        self.border_title = f"Step {index + 1}: {printable(self.step_type)}"
        for field in self.query(StepField):
            field.path = f"{self.side}_transforms[{index}].{field.name_in_step}"

    @property
    def path(self) -> str:
        return f"{self.side}_transforms[{self.index}]"

    @property
    def code_editor(self) -> CodeEditor | None:
        found = self.query(CodeEditor)
        return found.first() if found else None

    def errors(self) -> list[str]:
        """`path: sentence` for each of its fields marked in red."""
        return [
            f"{field.path}: {field.errors.splitlines()[0] if field.errors else ''}"
            for field in self.query(StepField)
            if field.invalid
        ]

    def payload(self) -> tuple[JsonObject, FieldErrors]:
        """The step as a request sends it (every field it came with kept), and what cannot
        be read (a token template that is not JSON)."""
        step: JsonObject = dict(self.original)
        errors: FieldErrors = {}
        if not self.known:
            return step, errors
        step["type"] = self.step_type
        options = self._options()
        match self.step_type:
            case "code":
                editor = self.code_editor
                code = editor.text if editor is not None else ""
                step["code"] = code if code.strip() else None
            case "mask":
                step["matcher"] = self.query_one(".step-matcher", Select).value
                step["expression"] = self.query_one(".step-expression", Input).value or None
                step["replacement"] = self.query_one(".step-replacement", Input).value or None
            case "tokenize":
                text = self.query_one(".step-token", TextArea).text
                try:
                    options["token"] = json.loads(text) if text.strip() else None
                except json.JSONDecodeError as error:
                    options["token"] = None
                    errors[f"{self.path}.options.token"] = [
                        f"The token template is not JSON: {error.msg} (line {error.lineno})."
                    ]
                options["identifier"] = self.query_one(".step-identifier", Input).value or None
            case _:
                value = self.query_one(".step-value", Input).value
                options["value"] = value if value else None
                options["location"] = self.query_one(".step-location", Input).value or None
        if self.step_type != "code" or "options" in step:
            kept = {k: v for k, v in options.items() if v is not None}
            if kept or "options" in step:
                step["options"] = kept
        return {k: v for k, v in step.items() if v is not None}, errors

    def summary(self) -> str:
        try:
            return step_summary(self.payload()[0])
        except Exception:  # a half-built editor: its step as it came
            log.info("The step could not be read yet", exc_info=True)
            return step_summary(self.original)


class StepList(OptionList):
    """The steps of one pipeline; its keys add, remove and move them (see the module)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_MOVES,
        Binding("n", "new", "Add step"),
        Binding("d", "delete", "Remove step"),
        Binding("shift+up", "move_up", "Move", key_display="shift+↑↓"),
        Binding("shift+down", "move_down", "Move down", show=False),
    ]

    def _pipeline(self) -> PipelineEditor:
        pipeline = self.parent
        while pipeline is not None and not isinstance(pipeline, PipelineEditor):
            pipeline = pipeline.parent
        assert isinstance(pipeline, PipelineEditor)
        return pipeline

    def action_new(self) -> None:
        self._pipeline().ask_new_step()

    def action_delete(self) -> None:
        self._pipeline().ask_remove_step()

    def action_move_up(self) -> None:
        self._pipeline().move(-1)

    def action_move_down(self) -> None:
        self._pipeline().move(1)


class PipelineEditor(Vertical):
    """One side's pipeline: the step list, and the selected step's editor below it."""

    DEFAULT_CSS = """
    PipelineEditor {
        height: auto;
    }
    PipelineEditor > StepList {
        height: auto;
        max-height: 8;
    }
    PipelineEditor > ContentSwitcher {
        height: auto;
    }
    """

    class Changed(Message):
        """A step was added, removed or moved (the form's state changed)."""

    def __init__(
        self,
        side: str,
        steps: list[JsonObject],
        *,
        read_only: bool = False,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.side = side
        self.read_only = read_only
        self._uid = 0
        self.editors: list[StepEditor] = [self._new_editor(step) for step in steps]

    def _new_editor(self, step: JsonObject) -> StepEditor:
        self._uid += 1
        return StepEditor(self.side, step, self._uid, read_only=self.read_only)

    def compose(self) -> ComposeResult:
        yield StepList(id=f"{self.side}-steps")
        with ContentSwitcher(id=f"{self.side}-step-editors"):
            for index, editor in enumerate(self.editors):
                editor.index = index
                yield editor

    def on_mount(self) -> None:
        self.refresh_rows()
        if self.editors:
            self.select(0)

    # ----- reading ----------------------------------------------------------------------------

    @property
    def step_list(self) -> StepList:
        return self.query_one(StepList)

    @property
    def selected(self) -> int | None:
        highlighted = self.step_list.highlighted
        return highlighted if highlighted is not None and self.editors else None

    @property
    def selected_editor(self) -> StepEditor | None:
        index = self.selected
        return self.editors[index] if index is not None else None

    def code_editor_at(self, index: int) -> CodeEditor | None:
        return self.editors[index].code_editor if 0 <= index < len(self.editors) else None

    def steps_payload(self) -> tuple[list[JsonObject], FieldErrors]:
        steps: list[JsonObject] = []
        errors: FieldErrors = {}
        for editor in self.editors:
            step, found = editor.payload()
            steps.append(step)
            for path, sentences in found.items():
                errors.setdefault(path, []).extend(sentences)
        return steps, errors

    # ----- the list ---------------------------------------------------------------------------

    def _row(self, index: int, editor: StepEditor) -> Text:
        problems = editor.errors()
        text = Text()
        text.append("✗ " if problems else "  ", style="bold red")
        text.append(f"{index + 1:>2}  ")
        text.append(f"{printable(editor.step_type):<14}", style="bold")
        if problems:
            text.append(printable(problems[0]), style="red")
        else:
            text.append(editor.summary(), style="dim" if not editor.known else "")
        return text

    def refresh_rows(self) -> None:
        """The list again from the editors (labels, marks), the selection kept."""
        if not self.query(StepList):  # not composed yet
            return
        steps = self.step_list
        keep = steps.highlighted
        steps.clear_options()
        steps.add_options(Option(self._row(i, e)) for i, e in enumerate(self.editors))
        if not self.editors:  # the list stays, to be focused and given a step with n
            empty = "No steps: the message passes unchanged."
            steps.add_option(
                Option(
                    Text(empty + ("" if self.read_only else " n adds one."), "dim"), disabled=True
                )
            )
        self.query_one(ContentSwitcher).display = bool(self.editors)
        if self.editors:
            steps.highlighted = min(keep or 0, len(self.editors) - 1)

    def select(self, index: int) -> None:
        self.step_list.highlighted = index
        self._show(index)

    def _show(self, index: int) -> None:
        if 0 <= index < len(self.editors):
            self.query_one(ContentSwitcher).current = self.editors[index].id

    @on(OptionList.OptionHighlighted)
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if self.editors:
            self._show(event.option_index)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        """enter: to the step's first field."""
        event.stop()
        if not self.editors:
            return
        self._show(event.option_index)
        editor = self.editors[event.option_index]
        for widget in editor.query("Input, Select, TextArea"):
            if widget.focusable:
                widget.focus()
                return

    @on(Input.Changed)
    @on(Select.Changed)
    @on(TextArea.Changed)
    def _field_changed(self) -> None:
        self.refresh_rows()

    def show_first_step_of(self, paths: list[str]) -> None:
        """Selects the first step an error path is in (`request_transforms[2].code`)."""
        prefix = f"{self.side}_transforms["
        numbers = [p[len(prefix) :].split("]", 1)[0] for p in paths if p.startswith(prefix)]
        places = sorted(int(n) for n in numbers if n.isdigit() and int(n) < len(self.editors))
        if places:
            self.select(places[0])

    # ----- changes ----------------------------------------------------------------------------

    def _refuse_read_only(self) -> bool:
        if self.read_only:
            self.notify("Read-only: the steps cannot be changed.", severity="warning")
        return self.read_only

    def ask_new_step(self) -> None:
        from console.tui.modals.key_choice import KeyChoiceModal

        if self._refuse_read_only():
            return
        if len(self.editors) >= TRANSFORMS_MAX:
            self.notify(f"A pipeline holds at most {TRANSFORMS_MAX} steps.", severity="warning")
            return
        choices = [(t, f"{t:<14} {TYPE_DESCRIPTIONS[t]}") for t in SIDE_TYPES[self.side]]
        dialog_host(self).show(
            KeyChoiceModal(f"Add a {self.side} step of which type?", choices), self._add_chosen
        )

    def _add_chosen(self, step_type: str | None) -> None:
        if step_type is not None:
            self.add_step(step_type)

    def add_step(self, step_type: str) -> StepEditor:
        """A new step of this type after the selected one (at the end with none)."""
        step: JsonObject = {"type": step_type}
        if step_type == "mask":
            step.update(matcher="regex", replacement="*")
        editor = self._new_editor(step)
        at = (self.selected + 1) if self.selected is not None else len(self.editors)
        self.editors.insert(at, editor)
        self.query_one(ContentSwitcher).mount(editor)
        self._renumber()
        self.refresh_rows()
        self.call_after_refresh(self.select, at)
        self.post_message(self.Changed())
        return editor

    def ask_remove_step(self) -> None:
        from console.tui.modals.confirm import ConfirmModal

        if self._refuse_read_only():
            return
        index = self.selected
        if index is None:
            self.notify("No step to remove.", severity="warning")
            return
        editor = self.editors[index]
        question = ConfirmModal(
            f"Remove step {index + 1} ({printable(editor.step_type)})?",
            f"The {self.side} pipeline loses this step when the proxy is saved: {editor.summary()}",
            confirm_label="Remove",
            cancel_label="Keep it",
        )
        dialog_host(self).show(question, lambda yes: self._remove_answered(editor, yes))

    def _remove_answered(self, editor: StepEditor, yes: bool | None) -> None:
        if yes and editor in self.editors:
            self.remove_step(self.editors.index(editor))

    def remove_step(self, index: int) -> None:
        editor = self.editors.pop(index)
        editor.remove()
        self._renumber()
        self.refresh_rows()
        if self.editors:
            self.select(min(index, len(self.editors) - 1))
        self.step_list.focus()
        self.post_message(self.Changed())

    def move(self, by: int) -> None:
        if self._refuse_read_only():
            return
        index = self.selected
        if index is None or not 0 <= index + by < len(self.editors):
            return
        self.editors.insert(index + by, self.editors.pop(index))
        self._renumber()
        self.refresh_rows()
        self.select(index + by)
        self.post_message(self.Changed())

    def _renumber(self) -> None:
        for index, editor in enumerate(self.editors):
            editor.set_index(index)
