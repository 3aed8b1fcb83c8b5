"""Create or edit a Reactor: its name and application, then three parts in tabs (F5-F7): the
code, the configuration (values masked, as secrets are), and the runtime it is provisioned
with. After a save that the service provisions (`creating`, `updating`), the form waits for
`active`, saying how long it has waited, and shows a failed provisioning's error plainly."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import (
    Input,
    LoadingIndicator,
    Select,
    Static,
    TabbedContent,
    TabPane,
    TextArea,
)

from console.models.reactors import (
    CODE_MAX,
    IMAGES,
    RESOURCES,
    TIMEOUT_MAX,
    TIMEOUT_MIN,
    WARM_CONCURRENCY_MAX,
    Reactor,
    ReactorCreate,
)
from console.tui.base.app_access import router
from console.tui.base.shown import JsonObject
from console.tui.browse.kinds import REACT_KEY, REACT_LABEL, REACTORS
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.editors import KeyValueEditor
from console.tui.forms.fields import FormField
from console.tui.forms.parts import FormParts, part_bindings
from console.tui.forms.provisioning import provisioning_sentence, wait_provisioned
from console.tui.forms.proxy import ApplicationPicker
from console.tui.widgets.code_editor import CodeEditor

if TYPE_CHECKING:
    from console.client.client import AdminClient


CODE_TEMPLATE = """module.exports = async function (req) {
  const { args, configuration } = req;
  return { raw: args };
};
"""


IMAGE_TEXT = {
    "node-bt": "node-bt: the service's Node.js runtime, its own packages only",
    "node22": "node22: Node.js 22 with the reactor's own dependencies",
}

CARRIED_RUNTIME = ("resolutions", "async", "logs")
"""Runtime options the form does not edit: sent back as they were read."""


class SecretValuesEditor(KeyValueEditor):
    """A configuration whose values are secrets: typed and kept as they are, shown masked."""

    def make_row(self, value: tuple[str, str] | None, index: int) -> Vertical:
        row = super().make_row(value, index)
        for field in row.query(".kv-value").results(Input):
            field.password = True
        return row


def reactor_payload(reactor: Reactor) -> JsonObject:
    """The fields of `ReactorCreate`, as the reactor holds them (the active version's)."""
    runtime: JsonObject | None = None
    if reactor.runtime is not None:
        held = reactor.runtime.model_dump(by_alias=True, exclude_none=True)
        runtime = {k: v for k, v in held.items() if k in _RUNTIME_FIELDS}
    application = reactor.application
    return {
        "name": reactor.name,
        "code": reactor.code or "",
        "application": {"id": str(application.id)} if application and application.id else None,
        "configuration": {k: v or "" for k, v in (reactor.configuration or {}).items()},
        "runtime": runtime,
    }


_RUNTIME_FIELDS = (
    "image",
    "dependencies",
    "resolutions",
    "warm_concurrency",
    "timeout",
    "resources",
    "permissions",
    "async",
    "logs",
)


def parse_dependencies(text: str) -> tuple[dict[str, str] | None, list[str]]:
    """`name=version` lines (or `name@version`) as a map; sentences about the lines that
    are neither. The names and versions are then checked as the request model checks them."""
    found: dict[str, str] = {}
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = re.fullmatch(r"(@?[^=@\s]+(?:/[^=@\s]+)?)\s*[=@]\s*(\S.*)", line)
        if match is None:
            problems.append(f"Line {number}: write name=version (e.g. lodash=^4.17.21).")
            continue
        name, version = match.group(1), match.group(2).strip()
        if name in found:
            problems.append(f"Line {number}: {name} is given twice.")
        found[name] = version
    return (found or None), problems


def dependencies_text(dependencies: dict[str, str | None] | None) -> str:
    return "\n".join(f"{name}={version or ''}" for name, version in (dependencies or {}).items())


class ReactorForm(ResourceForm[Reactor, ReactorCreate]):
    kind = REACTORS
    code_fields = ("code",)
    field_labels: ClassVar[dict[str, str]] = {
        "name": "Name",
        "code": "Code",
        "application": "Application",
        "configuration": "Configuration",
        "runtime": "Runtime",
    }
    PARTS = ("part-code", "part-configuration", "part-runtime")

    BINDINGS = [
        Binding("ctrl+r", "test_run", "Test-run"),
        Binding(REACT_KEY, "react", REACT_LABEL),
        *part_bindings("Code", "Configuration", "Runtime"),
    ]

    def __init__(
        self,
        client: AdminClient,
        obj: Reactor | None = None,
        *,
        read_only: bool = False,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(client, obj, read_only=read_only, name=name, id=id)
        self.provisioning = False
        """A save is waiting for the reactor to be provisioned."""

    # ----- layout ----------------------------------------------------------------------------

    def compose_fields(self) -> ComposeResult:
        reactor = self.obj
        with Vertical(id="reactor-main"):
            yield FormField(
                "Name",
                Input(reactor.name if reactor else "", placeholder="e.g. Card lookup", id="name"),
                path="name",
            )
            yield FormField(
                "Application (optional)",
                ApplicationPicker(self._application_id(), id="application"),
                path="application",
                hint="Its key is given to the code as `bt`. Public or private only.",
            )
            yield Horizontal(
                LoadingIndicator(id="provision-loading"),
                Static("", id="provision-status", markup=False),
                id="provision-row",
            )
            with FormParts(id="reactor-parts", initial="part-code"):
                with TabPane("Code", id="part-code"):
                    yield FormField(
                        "",
                        CodeEditor(
                            (reactor.code or "") if reactor else CODE_TEMPLATE,
                            label="Code",
                            read_only=self.read_only,
                            max_length=CODE_MAX,
                            id="code",
                        ),
                        path="code",
                        hint="JavaScript: module.exports = async function (req) { ... }",
                    )
                with TabPane(self._configuration_title(), id="part-configuration"):
                    yield FormField(
                        "Configuration",
                        SecretValuesEditor(self._configuration(), id="configuration"),
                        path="configuration",
                        hint="Name/value pairs the code reads as req.configuration: "
                        "secrets, kept masked.",
                    )
                with TabPane("Runtime", id="part-runtime"):
                    yield from self._runtime_fields()

    def _runtime_fields(self) -> ComposeResult:
        runtime = self.obj.runtime if self.obj is not None else None
        image = (runtime.image if runtime else None) or "node-bt"
        options = [(IMAGE_TEXT.get(i, i), i) for i in IMAGES]
        if image not in IMAGES:  # an image of the service's own: kept
            options.append((f"{image} (the service's)", image))
        yield FormField(
            "Image",
            Select(options, value=image, allow_blank=False, id="image"),
            path="runtime.image",
        )
        timeout = runtime.timeout if runtime else None
        warm = runtime.warm_concurrency if runtime else None
        resources = (runtime.resources if runtime else None) or Select.NULL
        yield Horizontal(
            FormField(
                "Timeout (s)",
                Input(
                    "" if timeout is None else str(timeout),
                    placeholder=f"default; {TIMEOUT_MIN}-{TIMEOUT_MAX}",
                    id="timeout",
                ),
                path="runtime.timeout",
            ),
            FormField(
                "Resources",
                Select(
                    [(r, r) for r in RESOURCES],
                    value=resources if resources in RESOURCES else Select.NULL,
                    prompt="default",
                    allow_blank=True,
                    id="resources",
                ),
                path="runtime.resources",
            ),
            FormField(
                "Warm concurrency",
                Input(
                    "" if warm is None else str(warm),
                    placeholder=f"default; 0-{WARM_CONCURRENCY_MAX}",
                    id="warm-concurrency",
                ),
                path="runtime.warm_concurrency",
            ),
            classes="form-row",
        )
        permissions = ", ".join(runtime.permissions or ()) if runtime else ""
        yield FormField(
            "Permissions (optional)",
            Input(permissions, placeholder="e.g. token:read, token:create", id="permissions"),
            path="runtime.permissions",
            hint="What the runtime's own bt client may do, comma separated.",
        )
        yield FormField(
            "Dependencies (optional)",
            TextArea(
                dependencies_text(runtime.dependencies if runtime else None),
                soft_wrap=False,
                show_line_numbers=False,
                tab_behavior="focus",
                id="dependencies",
            ),
            path="runtime.dependencies",
            hint="npm packages, one name=version a line; node22 installs them.",
        )

    def _application_id(self) -> str | None:
        application = self.obj.application if self.obj is not None else None
        return str(application.id) if application and application.id else None

    def _configuration(self) -> dict[str, str] | None:
        if self.obj is None or self.obj.configuration is None:
            return None
        return {k: v or "" for k, v in self.obj.configuration.items()}

    def _configuration_title(self) -> str:
        if self.is_mounted:
            count = len(self.query_one(SecretValuesEditor).pairs())
        else:
            count = len(self._configuration() or {})
        return f"Configuration ({count})"

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#provision-row").display = False

    # ----- applications ----------------------------------------------------------------------

    def start_loading(self) -> None:
        self._load_applications()

    @work(exclusive=True, group="applications", exit_on_error=False)
    async def _load_applications(self) -> None:
        await self.query_one("#application", ApplicationPicker).load(self.client)

    @on(KeyValueEditor.Changed)
    def _rows_changed(self) -> None:
        self.refresh_dirty()
        self._update_outline()

    # ----- parts -----------------------------------------------------------------------------

    def _update_outline(self) -> None:
        """The configuration's count in its tab's title; a tab holding problems says so."""
        fields = self.fields_by_path()
        for tabs in self.query("#reactor-parts").results(TabbedContent):
            for pane, paths, title in (
                ("part-code", ("code",), "Code"),
                ("part-configuration", ("configuration",), self._configuration_title()),
                ("part-runtime", tuple(p for p in fields if p.startswith("runtime")), "Runtime"),
            ):
                flagged = any(fields[p].invalid for p in paths if p in fields)
                tabs.get_tab(pane).label = f"{title} ✗ problems" if flagged else title

    def show_errors(self, errors: FieldErrors, *, headline: str | None = None) -> None:
        super().show_errors(errors, headline=headline)
        self._update_outline()

    def _reveal_field(self, field: FormField) -> None:
        """A field in a tab out of sight: that tab first, then the field."""
        pane = next((a for a in field.ancestors if isinstance(a, TabPane)), None)
        tabs = next(iter(self.query("#reactor-parts").results(TabbedContent)), None)
        if pane is not None and pane.id and tabs is not None and tabs.active != pane.id:
            tabs.active = pane.id
            self.call_after_refresh(super()._reveal_field, field)
            return
        super()._reveal_field(field)

    def action_show_part(self, number: int) -> None:
        """F5, F6, F7 (or alt+1..3): the code, the configuration, the runtime."""
        pane = self.PARTS[number - 1]
        self.query_one("#reactor-parts", TabbedContent).active = pane
        self.call_after_refresh(self._focus_part, pane)

    def _focus_part(self, pane: str) -> None:
        widget: Widget = self.query_one(f"#{pane}")
        focusable = next((w for w in widget.query("*") if w.focusable), None)
        if focusable is not None:
            focusable.focus()

    # ----- payload ---------------------------------------------------------------------------

    def _runtime(self) -> tuple[JsonObject | None, FieldErrors]:
        """The runtime as typed; None for a reactor read without one whose runtime fields
        were left as they showed (it stays a reactor without a runtime)."""
        errors: FieldErrors = {}
        dependencies, problems = parse_dependencies(self.query_one("#dependencies", TextArea).text)
        if problems:
            errors["runtime.dependencies"] = problems
        image = self.query_one("#image", Select).value
        resources = self.query_one("#resources", Select).value
        permissions = re.split(r"[\s,]+", self.query_one("#permissions", Input).value.strip())
        runtime: JsonObject = {
            "image": image if image is not Select.NULL else "node-bt",
            "timeout": self.query_one("#timeout", Input).value.strip() or None,
            "resources": resources if resources is not Select.NULL else None,
            "warm_concurrency": self.query_one("#warm-concurrency", Input).value.strip() or None,
            "permissions": [p for p in permissions if p] or None,
            "dependencies": dependencies,
        }
        original = self.obj.runtime if self.obj is not None else None
        if original is not None:
            held = original.model_dump(by_alias=True, exclude_none=True)
            runtime.update({k: held[k] for k in CARRIED_RUNTIME if k in held})
        runtime = {k: v for k, v in runtime.items() if v is not None}
        if self.obj is not None and original is None and runtime == {"image": "node-bt"}:
            return None, errors
        return runtime, errors

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        configuration, problems = self.query_one(SecretValuesEditor).value()
        runtime, errors = self._runtime()
        if problems:
            errors["configuration"] = problems
        application_id = self.query_one("#application", ApplicationPicker).application_id
        payload = {
            "name": self.query_one("#name", Input).value,
            "code": self.query_one("#code", CodeEditor).text,
            "application": {"id": application_id} if application_id else None,
            "configuration": configuration or {},
            "runtime": runtime,
        }
        return payload, errors

    def form_state(self) -> JsonObject:
        payload, _ = self.build_payload()
        payload["configuration"] = self.query_one(SecretValuesEditor).pairs()
        payload["dependencies"] = self.query_one("#dependencies", TextArea).text
        return payload

    def validate(self, payload: JsonObject) -> ReactorCreate:
        return ReactorCreate.parse(payload)

    def payload_of(self, obj: Reactor) -> JsonObject:
        return reactor_payload(obj)

    def code_editors(self) -> list[tuple[str, CodeEditor]]:
        return [("code", self.query_one("#code", CodeEditor))]

    # ----- test-run and React ----------------------------------------------------------------

    def action_test_run(self) -> None:
        """Runs the code as it is now on `{args, configuration}` (console.tui.screens.test_run),
        the configuration as it is now in the form."""
        from console.tui.forms.run_targets import reactor_run_target

        editor = self.query_one("#code", CodeEditor)

        def configuration() -> dict[str, str] | None:
            return self.query_one(SecretValuesEditor).value()[0]

        target = reactor_run_target(
            self.query_one("#name", Input).value,
            self.obj.id if self.obj else None,
            lambda: editor.text,
            configuration,
            editor,
        )
        router(self).open_test_run(target)

    def action_react(self) -> None:
        """React: the saved reactor on the service (its active version), beside a test-run."""
        if self.obj is None:
            self.notify("Save the reactor first: React runs it on the service.", timeout=4)
            return
        if self.dirty:
            self.notify(
                "The service runs the saved version: unsaved changes are not part of React.",
                timeout=5,
            )
        router(self).react_with(REACTORS, self.obj)

    # ----- saving ----------------------------------------------------------------------------

    async def send(self, body: JsonObject) -> Reactor:
        if self.obj is None:
            return await self.client.reactors.create(body)
        return await self.client.reactors.update(self.obj.id, body)

    async def fetch_current(self) -> Reactor:
        assert self.obj is not None, "only an edit re-reads its object"
        return await self.client.reactors.get(self.obj.id)

    async def after_saved(self, result: Reactor) -> bool | None:
        """A reactor the service provisions: waits for `active` (the form stays as typed
        meanwhile); a failed provisioning keeps the form open on the saved reactor, its
        error in the banner, to be fixed and saved again."""
        self.obj = result
        if not result.provisioning:
            return self._failed(result)
        self.provisioning = True
        self._show_provisioning(result, 0.0)

        async def read() -> Reactor:
            return await self.client.reactors.get(result.id)

        try:
            final = await wait_provisioned(read, result, self._show_provisioning)
        finally:
            self.provisioning = False
            if self.is_mounted:
                self.query_one("#provision-row").display = False
        self.obj = self.saved = final
        if final.provisioning:
            self.notify(
                f"The reactor is still {final.state}: its list shows when it is active.",
                title="Still provisioning",
                timeout=8,
            )
            return None
        if self._failed(final):
            return True
        self.notify(f'The reactor "{final.name}" is active.', title="Provisioned")
        return None

    def _failed(self, reactor: Reactor) -> bool:
        """Shows a failed provisioning's error plainly; True if there was one."""
        if not reactor.failed:
            return False
        sentence = provisioning_sentence(reactor)
        self.show_banner(
            f"Saved, but: {sentence}\nFix it here and save again (ctrl+s), or close the form."
        )
        self.notify(sentence, title="Provisioning failed", severity="error", timeout=15)
        return True

    def _show_provisioning(self, reactor: Reactor, waited: float) -> None:
        if not self.is_mounted:
            return
        self.query_one("#provision-row").display = True
        state = reactor.state or "provisioning"
        self.query_one("#provision-status", Static).update(
            f"Saved; the service is provisioning it ({state}, {waited:.0f} s)… "
            "The previous version keeps serving meanwhile."
            if state == "updating"
            else f"Saved; the service is provisioning it ({state}, {waited:.0f} s)…"
        )
        status = self.query_one("#form-status", Static)
        status.update(f"Provisioning… ({state})")
