"""Create or edit a Proxy: destination, authentication, application, configuration, and the
request and response transform pipelines (console.tui.forms.pipeline).

A proxy read from a service that has only the specification's single transforms (no
`request_transforms` / `response_transforms` in what it answers) is edited as before: one code
editor per side, saved as the single transform that service reads."""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Input, Select, Static, Switch

from console.models import Application, Proxy, ProxyCreate
from console.models.as_request import proxy_request
from console.models.as_request import transform_request as transform_payload
from console.tui.base.app_access import router
from console.tui.base.pipeline_steps import has_pipelines, pipeline_of
from console.tui.base.shown import JsonObject
from console.tui.browse.kinds import PROXIES
from console.tui.forms.base import FieldErrors, ResourceForm
from console.tui.forms.diff import code_diff
from console.tui.forms.editors import KeyValueEditor
from console.tui.forms.fields import FormField
from console.tui.forms.pipeline import PipelineEditor
from console.tui.widgets.code_editor import CodeEditor
from console.tui.widgets.toggles import TextSwitch

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models import TransformView

log = logging.getLogger(__name__)

APPLICATION_CAP = 500
"""Applications offered in the picker: a proxy's application is chosen among the first
ones; a larger tenant still sees (and keeps) the current one, fetched by id."""

PROXY_APPLICATION_TYPES = ("public", "private")


class ApplicationPicker(Select[str]):
    """The tenant's public and private applications, or none. Holds its value while loading."""

    def __init__(self, application_id: str | None, *, id: str | None = None) -> None:
        super().__init__([], prompt="No application", allow_blank=True, id=id)
        self._pending = application_id
        self.loaded = False

    @property
    def application_id(self) -> str | None:
        if not self.loaded:
            return self._pending
        return None if self.value is Select.NULL else str(self.value)

    def set_applications(self, applications: list[Application]) -> None:
        options = [(_label(a), str(a.id)) for a in applications]
        known = {value for _, value in options}
        if self._pending and self._pending not in known:
            options.append((f"(unknown application {self._pending})", self._pending))
        self.set_options(options)
        if self._pending:
            self.value = self._pending
        self.loaded = True

    async def load(self, client: AdminClient) -> None:
        """Fills the picker with the first APPLICATION_CAP public and private applications
        (and the current one, fetched by id if it is not among them); says so if it cannot.
        Run it from a worker: it walks pages."""
        self.loading = True
        found: list[Application] = []
        try:
            seen = 0
            async for application in client.applications.iterate():
                seen += 1
                if application.type in PROXY_APPLICATION_TYPES:
                    found.append(application)
                if seen >= APPLICATION_CAP:
                    break
            current = self.application_id
            if current and all(str(a.id) != current for a in found):
                page = await client.applications.list(ids=[current])
                found += [a for a in page.data if a.type in PROXY_APPLICATION_TYPES]
        except Exception as error:
            log.warning("The applications could not be loaded", exc_info=True)
            self.notify(
                f"Could not load the applications: {error}", title="Applications", severity="error"
            )
        self.set_applications(found)
        self.loading = False


def _label(application: Application) -> str:
    return f"{application.name} ({application.type}) {str(application.id)[:8]}"


def _transform_of(proxy: Proxy | None, field: str) -> TransformView | None:
    """The proxy's request or response transform (`field`), None without a proxy."""
    if proxy is None:
        return None
    return proxy.request_transform if field == "request_transform" else proxy.response_transform


SIDES = (
    ("request", "Request transforms", "Run in order on each request before it is sent."),
    ("response", "Response transforms", "Run in order on the destination's response."),
)


def _configuration(proxy: Proxy | None) -> dict[str, str] | None:
    """The configuration to edit; a value the service sent as null is edited as empty."""
    if proxy is None or proxy.configuration is None:
        return None
    return {name: value or "" for name, value in proxy.configuration.items()}


class ProxyForm(ResourceForm[Proxy, ProxyCreate]):
    kind = PROXIES
    code_fields = ("request_transform", "response_transform")
    BINDINGS = [Binding("ctrl+r", "test_run", "Test-run")]
    field_labels: ClassVar[dict[str, str]] = {
        "name": "Name",
        "destination_url": "Destination URL",
        "require_auth": "Require authentication",
        "application": "Application",
        "configuration": "Configuration",
        "request_transform": "Request transform",
        "response_transform": "Response transform",
        "request_transforms": "Request transforms",
        "response_transforms": "Response transforms",
    }

    stand_ins: ClassVar[dict[str, object]] = {
        "name": "a name",
        "request_transforms": [],
        "response_transforms": [],
    }
    """A step's own error (a code step with no code) would hide the rules of the other
    side's steps (checked once every field is valid): looked for again without it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pipelines = has_pipelines(self.obj)

    def compose_fields(self) -> ComposeResult:
        proxy = self.obj
        yield FormField(
            "Name",
            Input(proxy.name if proxy else "", placeholder="e.g. Card collection", id="name"),
            path="name",
        )
        yield FormField(
            "Destination URL",
            Input(
                proxy.destination_url if proxy else "",
                placeholder="https://api.example.com/v1",
                id="destination-url",
            ),
            path="destination_url",
            hint="An absolute https:// URL the proxy forwards requests to.",
        )
        yield FormField(
            "Require authentication",
            Horizontal(
                TextSwitch(proxy.require_auth if proxy else True, id="require-auth"),
                Static("Callers must send an API key header to use the proxy."),
                classes="auth-row",
            ),
            path="require_auth",
        )
        yield FormField(
            "Application",
            ApplicationPicker(
                str(proxy.application_id) if proxy and proxy.application_id else None,
                id="application",
            ),
            path="application",
            hint="Its key is given to the transform code as `bt`. Public or private only.",
        )
        yield FormField(
            "Configuration",
            KeyValueEditor(_configuration(proxy), id="configuration"),
            path="configuration",
            hint="Name/value pairs the transform code reads.",
        )
        if self.pipelines:
            for side, label, hint in SIDES:
                yield FormField(
                    label,
                    PipelineEditor(
                        side,
                        pipeline_of(proxy, side),
                        read_only=self.read_only,
                        id=f"{side}-transforms",
                    ),
                    path=f"{side}_transforms",
                    hint=f"{hint} On the list: n add · d remove · shift+↑↓ move · "
                    "enter edit · ctrl+r test-run.",
                )
            return
        for field, label, hint in (
            ("request_transform", "Request transform", "Runs on each request before it is sent"),
            ("response_transform", "Response transform", "Runs on the destination's response"),
        ):
            transform = _transform_of(proxy, field)
            if transform is not None and not transform.is_code:
                # Not code (a mask, say): shown, and sent back exactly as it came.
                yield FormField(
                    label,
                    Static(
                        f"A {transform.kind} transform, which this console cannot edit; "
                        f"saving keeps it as it is:\n{json.dumps(transform_payload(transform))}",
                        classes="readonly-value",
                        markup=False,
                        id=field.replace("_", "-"),
                    ),
                    path=field,
                )
                continue
            yield FormField(
                "",
                CodeEditor(
                    (transform.code or "") if transform is not None else "",
                    label=f"{label} (optional)",
                    id=field.replace("_", "-"),
                ),
                path=field,
                hint=f"{hint}; empty means none.",
            )

    # ----- applications -------------------------------------------------------------------

    def start_loading(self) -> None:
        self._load_applications()

    @work(exclusive=True, group="applications", exit_on_error=False)
    async def _load_applications(self) -> None:
        await self.query_one("#application", ApplicationPicker).load(self.client)

    @on(KeyValueEditor.Changed)
    @on(PipelineEditor.Changed)
    def _rows_changed(self) -> None:
        self.refresh_dirty()

    def pipeline(self, side: str) -> PipelineEditor:
        return self.query_one(f"#{side}-transforms", PipelineEditor)

    def refresh_dirty(self) -> None:
        super().refresh_dirty()
        if self.pipelines and self.is_mounted:
            for side, _, _ in SIDES:
                self.pipeline(side).refresh_rows()

    def show_errors(self, errors: FieldErrors, *, headline: str | None = None) -> None:
        """As every form, and each pipeline shows its first step with an error."""
        if self.pipelines:
            for side, _, _ in SIDES:
                self.pipeline(side).show_first_step_of(list(errors))
        super().show_errors(errors, headline=headline)
        if self.pipelines:
            for side, _, _ in SIDES:
                self.pipeline(side).refresh_rows()

    # ----- payload --------------------------------------------------------------------------

    def _transform(self, field: str) -> JsonObject | None:
        """The transform as edited; one that is not code, as it was read."""
        original = _transform_of(self.obj, field)
        if original is not None and not original.is_code:
            return transform_payload(original)
        text = self.query_one(f"#{field.replace('_', '-')}", CodeEditor).text
        return {"code": text} if text.strip() else None

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        errors: FieldErrors = {}
        configuration, problems = self.query_one(KeyValueEditor).value()
        if problems:
            errors["configuration"] = problems
        application_id = self.query_one("#application", ApplicationPicker).application_id
        payload = {
            "name": self.query_one("#name", Input).value,
            "destination_url": self.query_one("#destination-url", Input).value.strip(),
            "require_auth": self.query_one("#require-auth", Switch).value,
            "application": {"id": application_id} if application_id else None,
            "configuration": configuration,
        }
        if not self.pipelines:
            payload["request_transform"] = self._transform("request_transform")
            payload["response_transform"] = self._transform("response_transform")
            return payload, errors
        for side, _, _ in SIDES:
            steps, unreadable = self.pipeline(side).steps_payload()
            payload[f"{side}_transforms"] = steps
            for path, sentences in unreadable.items():
                errors.setdefault(path, []).extend(sentences)
        return payload, errors

    def form_state(self) -> JsonObject:
        payload, _ = self.build_payload()
        payload["configuration"] = self.query_one(KeyValueEditor).pairs()
        return payload

    def wire_body(self, model: ProxyCreate) -> JsonObject:
        """A new proxy's side of at most one step goes as the single transform, which every
        service reads (one with only the specification's would drop an array unseen); an
        edit of a proxy read with pipelines sends them as they are."""
        body = super().wire_body(model)
        if self.pipelines and self.obj is None:
            for side, _, _ in SIDES:
                steps = body.get(f"{side}_transforms")
                if isinstance(steps, list) and len(steps) <= 1:
                    body[f"{side}_transform"] = steps[0] if steps else None
                    del body[f"{side}_transforms"]
        return body

    def validate(self, payload: JsonObject) -> ProxyCreate:
        kept = self.obj.destination_url if self.obj is not None else None
        return ProxyCreate.parse(payload, kept_destination_url=kept)

    def payload_of(self, obj: Proxy) -> JsonObject:
        payload = proxy_request(obj)
        if not self.pipelines:
            return payload
        del payload["request_transform"], payload["response_transform"]
        for side, _, _ in SIDES:
            payload[f"{side}_transforms"] = pipeline_of(obj, side)
        return payload

    def _code_changes(self, payload: JsonObject) -> list[tuple[str, list[str]]]:
        """Each code step's diff against the saved step at its place."""
        if not self.pipelines:
            return super()._code_changes(payload)
        if self.obj is None:
            return []
        saved = self.payload_of(self.obj)
        found = []
        for side, label, _ in SIDES:
            theirs, yours = saved.get(f"{side}_transforms") or [], payload[f"{side}_transforms"]
            for index, step in enumerate(yours):
                old = theirs[index] if index < len(theirs) else None
                what = f"{label}, step {index + 1}"
                diff = code_diff(what, old, step, "saved", "this form")
                if diff:
                    found.append((what, diff))
        return found

    def code_editors(self) -> list[tuple[str, CodeEditor]]:
        editors: list[tuple[str, CodeEditor]] = []
        if self.pipelines:
            for side, _, _ in SIDES:
                pipeline = self.pipeline(side)
                for index, step in enumerate(pipeline.editors):
                    if step.code_editor is not None:
                        editors.append((f"{side} transforms step {index + 1}", step.code_editor))
            return editors
        for field in ("request_transform", "response_transform"):
            original = _transform_of(self.obj, field)
            if original is None or original.is_code:  # others have no editor
                editor = self.query_one(f"#{field.replace('_', '-')}", CodeEditor)
                editors.append((field.replace("_", " "), editor))
        return editors

    def action_test_run(self) -> None:
        """Runs the focused transform (else the first with code) on a sample request; with
        pipelines, the focused side's steps in order (else the first side with steps)."""
        from console.tui.forms.run_targets import transform_run_target

        if self.pipelines:
            self._test_run_pipeline()
            return

        editors = [
            (label.replace(" ", "_"), editor)
            for label, editor in self.code_editors()
            if isinstance(editor, CodeEditor)
        ]
        focused = [e for e in editors if e[1].has_focus_within]
        with_code = [e for e in editors if e[1].text.strip()]
        candidates = focused or with_code or editors
        if not candidates:
            self.notify("This proxy has no transform code to run.", severity="warning")
            return
        field_name, editor = candidates[0]

        def configuration() -> dict[str, str] | None:
            return self.query_one(KeyValueEditor).value()[0]

        def with_bt() -> bool:
            return self.query_one("#application", ApplicationPicker).application_id is not None

        target = transform_run_target(
            self.query_one("#name", Input).value,
            self.obj.id if self.obj else None,
            field_name,
            lambda: editor.text,
            configuration,
            with_bt,
            editor,
        )
        router(self).open_test_run(target)

    def _test_run_pipeline(self) -> None:
        """The focused side's steps (else the first side with steps), in order."""
        from console.tui.forms.run_targets import pipeline_run_target

        pipelines = [self.pipeline(side) for side, _, _ in SIDES]
        focused = [p for p in pipelines if p.has_focus_within]
        with_steps = [p for p in pipelines if p.editors]
        if not (focused or with_steps):
            self.notify("This proxy has no transform steps to run.", severity="warning")
            return
        chosen = (focused or with_steps)[0]
        router(self).open_test_run(
            pipeline_run_target(
                self.query_one("#name", Input).value,
                self.obj.id if self.obj else None,
                chosen.side,
                lambda: chosen.steps_payload()[0],
                lambda: self.query_one(KeyValueEditor).value()[0],
                lambda: (
                    self.query_one("#application", ApplicationPicker).application_id is not None
                ),
                chosen.code_editor_at,
            )
        )

    async def send(self, body: JsonObject) -> Proxy:
        if self.obj is None:
            return await self.client.proxies.create(body)
        return await self.client.proxies.update(self.obj.id, body)

    async def fetch_current(self) -> Proxy:
        assert self.obj is not None, "only an edit re-reads its object"
        return await self.client.proxies.get(self.obj.id)
