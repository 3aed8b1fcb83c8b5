"""Create or edit a private Reactor Formula; official ones open read-only."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Static, TabbedContent, TabPane

from console.models import ReactorFormula, ReactorFormulaCreate
from console.models.as_request import formula_request
from console.models.formulas import CODE_MAX
from console.models.round_trip import keep_item_fields
from console.tui.base.app_access import router
from console.tui.base.shown import JsonObject
from console.tui.browse.kinds import REACTOR_FORMULAS
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.editors import ContractEditor, ListEditor
from console.tui.forms.fields import FormField
from console.tui.forms.icon import IconError, describe_icon, read_icon
from console.tui.forms.parts import FormParts, part_bindings
from console.tui.widgets.code_editor import CodeEditor

if TYPE_CHECKING:
    from console.client.client import AdminClient

CODE_TEMPLATE = """module.exports = async function (req) {
  const { args, configuration } = req;
  return { raw: args };
};
"""

TYPE_TEXT = {
    "private": "private: available only to this tenant",
    "official": "official: maintained by the service operator (read-only)",
}


FormulaParts = FormParts
"""The formula form's tabs (console.tui.forms.parts)."""


class FormulaForm(ResourceForm[ReactorFormula, ReactorFormulaCreate]):
    kind = REACTOR_FORMULAS
    code_fields = ("code",)
    field_labels: ClassVar[dict[str, str]] = {
        "name": "Name",
        "description": "Description",
        "icon": "Icon",
        "code": "Code",
        "configuration": "Configuration",
        "request_parameters": "Request parameters",
    }

    BINDINGS = [
        Binding("ctrl+r", "test_run", "Test-run"),
        *part_bindings("Code", "Configuration", "Request parameters"),
    ]

    def __init__(
        self,
        client: AdminClient,
        obj: ReactorFormula | None = None,
        *,
        read_only: bool = False,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(client, obj, read_only=read_only, name=name, id=id)
        self.icon: str | None = obj.icon if obj else None
        self._loading_icon = False

    @property
    def formula_type(self) -> str:
        return self.obj.type if self.obj is not None else "private"

    def compose_fields(self) -> ComposeResult:
        formula = self.obj
        # Under the fields, three tabs (FormulaForm.PARTS): the code, the configuration
        # contract, the request parameters, each a key away, their counts in the tab titles,
        # so nothing sits out of sight below the code at 80x24 or at 200x60.
        with Vertical(id="formula-main"):
            yield FormField(
                "Name",
                Input(
                    formula.name if formula else "",
                    placeholder="e.g. Card fingerprint",
                    id="name",
                ),
                path="name",
            )
            yield FormField(
                "Description (optional)",
                Input(formula.description or "" if formula else "", id="description"),
                path="description",
            )
            yield FormField(
                "Type",
                Static(TYPE_TEXT[self.formula_type], classes="readonly-value"),
                path="type",
            )
            path_input = Input(
                placeholder="path to a .png or .jpg file, then Enter", id="icon-path"
            )
            status = Static(describe_icon(self.icon), id="icon-status", markup=False)
            if self.read_only:
                path_input.display = False
                yield FormField("Icon", path_input, status, path="icon")
            else:
                yield FormField(
                    "Icon (optional)",
                    Horizontal(
                        path_input,
                        Button("Load", id="icon-load"),
                        Button("Remove", id="icon-remove"),
                        classes="icon-row",
                    ),
                    status,
                    path="icon",
                )
            with FormulaParts(id="formula-parts", initial="part-code"):
                with TabPane("Code", id="part-code"):
                    yield FormField(
                        "",
                        CodeEditor(
                            (formula.code or "") if formula else CODE_TEMPLATE,
                            label="Code",
                            read_only=self.read_only,
                            max_length=CODE_MAX,
                            id="code",
                        ),
                        path="code",
                        hint="JavaScript for Node.js 16: module.exports = function (req) { ... }",
                    )
                with TabPane(self._part_title("configuration"), id="part-configuration"):
                    yield FormField(
                        "Configuration contract",
                        ContractEditor(
                            "configuration",
                            [c.model_dump() for c in formula.configuration] if formula else [],
                            read_only=self.read_only,
                            id="configuration",
                        ),
                        path="configuration",
                        hint="Values set once per reactor. Names cannot contain '.'.",
                    )
                with TabPane(self._part_title("request_parameters"), id="part-parameters"):
                    yield FormField(
                        "Request parameters",
                        ContractEditor(
                            "request_parameters",
                            [p.model_dump() for p in formula.request_parameters] if formula else [],
                            read_only=self.read_only,
                            id="request-parameters",
                        ),
                        path="request_parameters",
                        hint=(
                            "Arguments of each invocation."
                            " Dotted names (parent.child) denote nesting."
                        ),
                    )

    # ----- icon ------------------------------------------------------------------------------

    @on(Input.Submitted, "#icon-path")
    @on(Button.Pressed, "#icon-load")
    def _load_icon_requested(self, event: Input.Submitted | Button.Pressed) -> None:
        event.stop()
        path = self.query_one("#icon-path", Input).value
        if not path.strip():
            self._icon_error("Type the path of a .png or .jpg file first.")
            return
        self.load_icon(path)

    @work(exclusive=True, group="icon", exit_on_error=False)
    async def load_icon(self, path: str) -> None:
        """Reads the file in a thread: a slow disk never freezes the screen."""
        status = self.query_one("#icon-status", Static)
        status.update("Reading the icon…")
        self._loading_icon = True
        try:
            data_url, description = await asyncio.to_thread(read_icon, path)
        except IconError as error:
            status.update(describe_icon(self.icon))
            self._icon_error(str(error))
            return
        finally:
            self._loading_icon = False
        self.icon = data_url
        self._icon_field().show_errors([])
        status.update(f"New icon: {description}")
        self.query_one("#icon-path", Input).value = ""
        self.refresh_dirty()

    @on(Button.Pressed, "#icon-remove")
    def _remove_icon(self, event: Button.Pressed) -> None:
        event.stop()
        self.icon = None
        self.query_one("#icon-path", Input).value = ""
        self.query_one("#icon-status", Static).update("No icon.")
        self.refresh_dirty()

    def _icon_field(self) -> FormField:
        return self.fields_by_path()["icon"]

    def _icon_error(self, sentence: str) -> None:
        self._icon_field().show_errors([sentence])
        self.notify(sentence, title="Icon", severity="error")

    @on(ListEditor.Changed)
    def _rows_changed(self) -> None:
        self.refresh_dirty()
        self._update_outline()

    def _part_title(self, noun: str) -> str:
        """ "Configuration (2)": a tab's title says how many items wait behind it."""
        if self.is_mounted:
            editor_id = "configuration" if noun == "configuration" else "request-parameters"
            count = len(self.query_one(f"#{editor_id}", ContractEditor).value())
        elif self.obj is None:
            count = 0
        elif noun == "configuration":
            count = len(self.obj.configuration or [])
        else:
            count = len(self.obj.request_parameters or [])
        label = "Configuration" if noun == "configuration" else "Request parameters"
        return f"{label} ({count})"

    def _update_outline(self) -> None:
        """The tab titles' counts, after a row is added or removed; a tab whose field has
        problems says so in its title (its content is out of sight)."""
        parts = self.query("#formula-parts").results(TabbedContent)
        fields = self.fields_by_path()
        for tabs in parts:
            for pane, path, title in (
                ("part-code", "code", "Code"),
                ("part-configuration", "configuration", self._part_title("configuration")),
                ("part-parameters", "request_parameters", self._part_title("request_parameters")),
            ):
                field = fields.get(path)
                flagged = field is not None and field.invalid
                tabs.get_tab(pane).label = f"{title} ✗ problems" if flagged else title

    def show_errors(self, errors: FieldErrors, *, headline: str | None = None) -> None:
        """As every form's, and the tabs holding problems say so in their titles."""
        super().show_errors(errors, headline=headline)
        self._update_outline()

    def _reveal_field(self, field: FormField) -> None:
        """A field in a tab out of sight: that tab first, then the field."""
        pane = next((a for a in field.ancestors if isinstance(a, TabPane)), None)
        parts = self.query("#formula-parts").results(TabbedContent)
        tabs = next(iter(parts), None)
        if pane is not None and pane.id and tabs is not None and tabs.active != pane.id:
            tabs.active = pane.id
            self.call_after_refresh(super()._reveal_field, field)
            return
        super()._reveal_field(field)

    PARTS = ("part-code", "part-configuration", "part-parameters")

    def action_show_part(self, number: int) -> None:
        """F5, F6, F7 (or alt+1..3): the code, the configuration contract, the request
        parameters, whichever has the focus."""
        pane = self.PARTS[number - 1]
        self.query_one("#formula-parts", TabbedContent).active = pane
        self.call_after_refresh(self._focus_part, pane)

    def _focus_part(self, pane: str) -> None:
        target = {"part-code": "#code", "part-configuration": "#configuration"}.get(
            pane, "#request-parameters"
        )
        widget = self.query_one(target)
        focusable = (
            widget
            if widget.focusable
            else next((w for w in widget.query("*") if w.focusable), None)
        )
        if focusable is not None:
            focusable.focus()

    # ----- payload ---------------------------------------------------------------------------

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        errors: FieldErrors = {}
        if self.query_one("#icon-path", Input).value.strip() or self._loading_icon:
            errors["icon"] = ["Load the icon first (Enter in the path field), or clear the path."]
        description = self.query_one("#description", Input).value
        payload = {
            "name": self.query_one("#name", Input).value,
            "description": description or None,
            "type": self.formula_type,
            "icon": self.icon,
            "code": self.query_one("#code", CodeEditor).text,
            "configuration": self.query_one("#configuration", ContractEditor).value(),
            "request_parameters": self.query_one("#request-parameters", ContractEditor).value(),
        }
        return payload, errors

    def form_state(self) -> JsonObject:
        payload, _ = self.build_payload()
        payload["icon-path"] = self.query_one("#icon-path", Input).value
        return payload

    def validate(self, payload: JsonObject) -> ReactorFormulaCreate:
        held: set[str] = set()
        if self.obj is not None:  # a value type of the service's own, sent back as it was
            items = (*self.obj.configuration, *self.obj.request_parameters)
            held = {i.type for i in items if i.type is not None}
        return ReactorFormulaCreate.parse(payload, held_value_types=held)

    def wire_body(self, model: ReactorFormulaCreate) -> JsonObject:
        """As every form's, and the unknown fields of each contract item, matched by name."""
        body = super().wire_body(model)
        if self.obj is not None:
            for field, originals in (
                ("configuration", self.obj.configuration),
                ("request_parameters", self.obj.request_parameters),
            ):
                body[field] = keep_item_fields(body.get(field) or [], originals, "name")
        return body

    def payload_of(self, obj: ReactorFormula) -> JsonObject:
        return formula_request(obj)

    def code_editors(self) -> list[tuple[str, CodeEditor]]:
        return [("code", self.query_one("#code", CodeEditor))]

    def action_test_run(self) -> None:
        """Runs the code as it is now on a sample (console.tui.screens.test_run)."""
        from types import SimpleNamespace

        from console.tui.forms.run_targets import formula_run_target

        editor = self.query_one("#code", CodeEditor)

        def contract() -> SimpleNamespace:
            return SimpleNamespace(
                request_parameters=self.query_one("#request-parameters", ContractEditor).value(),
                configuration=self.query_one("#configuration", ContractEditor).value(),
            )

        name = self.query_one("#name", Input).value
        target = formula_run_target(
            name, self.obj.id if self.obj else None, lambda: editor.text, contract, editor
        )
        router(self).open_test_run(target)

    async def send(self, body: JsonObject) -> ReactorFormula:
        if self.obj is None:
            return await self.client.reactor_formulas.create(body)
        return await self.client.reactor_formulas.update(self.obj.id, body)

    async def fetch_current(self) -> ReactorFormula:
        assert self.obj is not None, "only an edit re-reads its object"
        return await self.client.reactor_formulas.get(self.obj.id)
