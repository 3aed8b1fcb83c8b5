"""What every resource form shares: validation before sending, errors at their fields,
saving in a worker, dirty tracking, and the lost-update guard.

A form is a modal screen that dismisses with the saved object, or None when closed unsaved.
Nothing typed is ever lost on a failure: the form stays open and says what went wrong.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar, Generic, Protocol, TypeVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Select, SelectionList, Static, Switch, TextArea

from console.models import PayloadInvalid
from console.tui.base.dialog_host import dialog_host
from console.tui.base.formatting import local_time
from console.tui.base.notices import notify_once
from console.tui.base.shown import JsonObject
from console.tui.forms.code import CheckedCode, code_problem_sentences
from console.tui.forms.diff import code_changes, describe_changes
from console.tui.forms.fields import FormField, nearest_field
from console.tui.modals import CodeWarningModal, DiscardChangesModal, LostUpdateModal
from console.tui.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models.common import RequestModel
    from console.tui.base.shown import Editable, Shown

log = logging.getLogger(__name__)

ResultT = TypeVar("ResultT", bound="Editable")
"""The object the form edits and the service answers with (console.models.Proxy...)."""
RequestT = TypeVar("RequestT", bound="RequestModel")
"""The request model `validate` makes of the form's payload (console.models.ProxyCreate...)."""
FieldErrors = dict[str, list[str]]

READ_ONLY_REFUSAL = "Read-only mode: saving is refused."


class FormKind(Protocol):
    """What a form reads of its kind (console.tui.browse.kinds.Kind): its noun, and which objects
    are read-only. A protocol, so that this base does not import the kinds that name it."""

    @property
    def singular(self) -> str: ...

    def is_read_only(self, obj: Shown | None) -> bool: ...


def _top_key(path: str) -> str:
    """`rules[0].container` -> `rules`: the payload key a field's path is under."""
    return re.split(r"[.\[]", path, maxsplit=1)[0]


class ResourceForm(ModalScreen[ResultT | None], Generic[ResultT, RequestT]):
    """Base of the application, proxy, formula and tenant forms.

    Subclasses provide `compose_fields`, `build_payload` (widgets -> request dict, plus errors
    no model can see, such as an unparseable date), `validate` (the shared request model's
    `.parse`), `send`, and for editing `fetch_current` and `payload_of` (object -> request dict).
    """

    kind: ClassVar[FormKind]
    """What the form edits: its noun, and which objects are read-only (console.tui.browse.kinds)."""
    field_labels: ClassVar[dict[str, str]] = {"name": "Name"}
    code_fields: ClassVar[tuple[str, ...]] = ()
    """Payload keys holding code: the dialogs show their changes as a line diff."""

    stand_ins: ClassVar[dict[str, object]] = {"name": "a name"}
    """A valid value for each payload key whose own error would hide the cross-field ones
    (a model checks `rule_errors` only once every field is valid): errors are looked for
    again with these in place, so that every problem is reported at once."""
    trimmed_inputs: ClassVar[tuple[str, ...]] = ("name",)
    """Ids of the inputs whose surrounding spaces are taken off on save (saying so)."""

    BINDINGS = [Binding("escape", "cancel", "Close")]

    ALLOW_IN_MAXIMIZED_VIEW = "KeyBar"
    """A code editor in full screen keeps the form's keys line."""

    def __init__(
        self,
        client: AdminClient,
        obj: ResultT | None = None,
        *,
        read_only: bool = False,
        name: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id)
        self.client = client
        self.obj = obj
        self.read_only = read_only or self.forced_read_only(obj)
        self.saving = False
        self.saved: ResultT | None = None
        self._baseline: JsonObject | None = None
        self._send_count = 0
        self._refused: tuple[JsonObject, set[str]] | None = None
        """The payload the service refused (400), and the fields its errors went to."""
        self._banner_has_more = False
        # In read-only mode ctrl+s stays bound (hidden) so that pressing it says why not.
        self._bindings.bind("ctrl+s", "save", "Save", show=not self.read_only, priority=True)

    # ----- what subclasses provide ---------------------------------------------------------

    @property
    def noun(self) -> str:
        return self.kind.singular

    @classmethod
    def forced_read_only(cls, obj: ResultT | None) -> bool:
        """Whether this object may never be edited (an official formula): the kind says."""
        return cls.kind.is_read_only(obj)

    def compose_fields(self) -> ComposeResult:
        raise NotImplementedError
        yield  # pragma: no cover

    def build_payload(self) -> tuple[JsonObject, FieldErrors]:
        """The request body from the widgets, and errors found while reading them."""
        raise NotImplementedError

    def validate(self, payload: JsonObject) -> RequestT:
        """The parsed request model; raises PayloadInvalid like the service would answer 400."""
        raise NotImplementedError

    async def send(self, body: JsonObject) -> ResultT:
        """Creates or updates the object with this JSON body (see wire_body)."""
        raise NotImplementedError

    async def fetch_current(self) -> ResultT:
        """The object as the service holds it now (edit only)."""
        raise NotImplementedError

    def payload_of(self, obj: ResultT) -> JsonObject:
        """An object in the shape of `build_payload`'s dict, to compare versions."""
        raise NotImplementedError

    def code_editors(self) -> Iterable[tuple[str, CheckedCode]]:
        """(label, editor) for each code field to check before saving."""
        return ()

    def form_state(self) -> JsonObject:
        """Everything typed, to tell whether anything changed since the form opened."""
        return self.build_payload()[0]

    def object_name(self) -> str:
        return str(self.obj.name or "") if self.obj is not None else ""

    def start_loading(self) -> None:
        """Starts fetching what the fields need (permission lists, applications)."""

    async def after_saved(self, result: ResultT) -> bool | None:
        """Runs in the save worker once the service accepted the change. True keeps the form
        open (a reactor whose provisioning failed, to be fixed and saved again): it then
        edits the saved object (`self.obj`), so a second ctrl+s cannot create it twice, and
        closing it gives the saved object to whoever opened it. It may replace `self.saved`
        with the object read again (a reactor once provisioned): the form closes with that."""
        return None

    async def confirm_send(self, model: RequestT) -> bool:
        """Asks, if the change needs it, just before sending; False keeps the form open."""
        return True

    # ----- layout --------------------------------------------------------------------------

    @property
    def editing(self) -> bool:
        return self.obj is not None

    @property
    def title_text(self) -> str:
        if self.obj is None:
            return f"New {self.noun}"
        name = self.object_name()
        if self.read_only:
            return f'{self.noun.capitalize()} "{name}" (read-only)'
        return f'Edit {self.noun} "{name}"'

    def compose(self) -> ComposeResult:
        with Vertical(id="form-frame"):
            yield Static(self.title_text, id="form-title", markup=False)
            yield Static("", id="form-banner", markup=False)
            with VerticalScroll(id="form-body"):
                yield from self.compose_fields()
            with Horizontal(id="form-actions"):
                yield Static(self._idle_status(), id="form-status", markup=False)
                if not self.read_only:
                    yield Button("Save  ctrl+s", id="form-save", variant="primary")
                yield Button("Close  esc" if self.read_only else "Cancel  esc", id="form-cancel")
        yield KeyBar()

    def _idle_status(self) -> str:
        if self.read_only:
            return "Read-only: nothing here can be changed."
        if self.obj is not None and self.obj.modified_at is not None:
            return f"Last modified {local_time(self.obj.modified_at, missing='never')}"
        return ""

    def on_resize(self, event: events.Resize) -> None:
        """112 columns up to 130, then most of a wide terminal (code needs the room)."""
        frame = self.query_one("#form-frame")
        frame.styles.width = max(112, min(170, event.size.width * 85 // 100))

    def on_mount(self) -> None:
        if self.read_only:
            for widget in self.query_one("#form-body").query("Input, Select, SelectionList"):
                widget.disabled = True
            for widget in self.query_one("#form-body").query("Switch, Button"):
                widget.disabled = True
            for widget in self.query_one("#form-body").query(TextArea):
                widget.read_only = True
        self.start_loading()
        self.call_after_refresh(self._take_baseline)
        self.call_after_refresh(self._focus_first)

    def _focus_first(self) -> None:
        if self.read_only:  # nothing to type in: keep the top of the form in view
            self.query_one("#form-cancel", Button).focus(scroll_visible=False)
            return
        for widget in self.query_one("#form-body").query("Input, Select, TextArea, Switch"):
            if widget.focusable:
                widget.focus()
                return
        self.query_one("#form-cancel", Button).focus()

    def _take_baseline(self) -> None:
        self._baseline = self._safe_state()

    def _safe_state(self) -> JsonObject | None:
        try:
            return self.form_state()
        except Exception:  # a half-built form has no state yet
            log.info("The form's state could not be read yet", exc_info=True)
            return None

    # ----- dirty tracking --------------------------------------------------------------------

    @property
    def dirty(self) -> bool:
        if self.read_only or self._baseline is None:
            return False
        return self._safe_state() != self._baseline

    def refresh_dirty(self) -> None:
        if not self.is_mounted:
            return
        self._clear_mended_errors()
        title = self.query_one("#form-title", Static)
        dirty = self.dirty
        title.update(self.title_text + ("  • unsaved changes" if dirty else ""))
        title.set_class(dirty, "-dirty")

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Switch.Changed)
    @on(SelectionList.SelectedChanged)
    @on(TextArea.Changed)
    def _something_changed(self) -> None:
        if self._baseline is not None:
            self.refresh_dirty()

    # ----- errors ----------------------------------------------------------------------------

    def local_errors(self) -> FieldErrors:
        """What saving now would refuse before sending (reading the widgets, the model)."""
        payload, errors = self.build_payload()
        self._checked(payload, errors)
        return errors

    def _checked(self, payload: JsonObject, errors: FieldErrors) -> RequestT | None:
        """The request model of `payload`, or None with every problem added to `errors`:
        those of the fields, and the cross-field ones their errors would hide (looked for
        with `stand_ins` in place of the faulty fields)."""
        try:
            return self.validate(payload)
        except PayloadInvalid as invalid:
            found = invalid.errors
        for path, sentences in found.items():
            errors.setdefault(path, []).extend(sentences)
        faulty = {_top_key(path) for path in found}
        if not faulty or not faulty <= set(self.stand_ins):
            return None
        try:
            self.validate({**payload, **{key: self.stand_ins[key] for key in faulty}})
        except PayloadInvalid as more:
            for path, sentences in more.errors.items():
                if _top_key(path) not in faulty:  # never an error about a stand-in
                    errors.setdefault(path, []).extend(sentences)
        return None

    def trim_inputs(self) -> list[str]:
        """Takes the spaces around a name (and other `trimmed_inputs`) off; the labels of
        the fields trimmed."""
        trimmed = []
        for input_id in self.trimmed_inputs:
            for widget in self.query(f"#{input_id}").results(Input):
                if widget.value != widget.value.strip():
                    widget.value = widget.value.strip()
                    trimmed.append(self.field_labels.get(input_id, input_id).lower())
        return trimmed

    def _clear_mended_errors(self) -> None:
        """A field marked in red turns back as soon as its value is valid: each change
        checks again (only while something is marked). An error the service gave stays
        while the part of the payload it is about is what the service refused."""
        fields = [f for f in self.query(FormField) if f.invalid]
        if not fields:
            return
        try:
            payload = self.build_payload()[0]
            errors = self.local_errors()
        except Exception:  # a half-built form: check again on the next change
            log.info("The form could not be checked yet", exc_info=True)
            return
        by_path = self.fields_by_path()
        still = {f.path for p in errors if (f := nearest_field(p, by_path)) is not None}
        refused_payload, refused_paths = self._refused or ({}, set())
        for field in fields:
            top = _top_key(field.path)
            if field.path in refused_paths and payload.get(top) == refused_payload.get(top):
                continue
            if field.path not in still:
                field.show_errors([])
        if not any(f.invalid for f in self.query(FormField)) and not self._banner_has_more:
            self.hide_banner()

    def fields_by_path(self) -> dict[str, FormField]:
        return {field.path: field for field in self.query(FormField)}

    def clear_errors(self) -> None:
        for field in self.query(FormField):
            field.show_errors([])
        self.hide_banner()

    def show_banner(self, text: str) -> None:
        banner = self.query_one("#form-banner", Static)
        banner.update(text)
        banner.add_class("-shown")

    def hide_banner(self) -> None:
        banner = self.query_one("#form-banner", Static)
        banner.update("")
        banner.remove_class("-shown")

    @property
    def banner_text(self) -> str:
        banner = self.query_one("#form-banner", Static)
        return str(banner.content) if banner.has_class("-shown") else ""

    def show_errors(self, errors: FieldErrors, *, headline: str | None = None) -> None:
        """Puts each error at its field (nearest JSON path), the rest in the banner."""
        fields = self.fields_by_path()
        for field in fields.values():
            field.show_errors([])
        at_field: dict[str, list[str]] = {}
        unplaced: list[str] = []
        for path, sentences in errors.items():
            nearest = nearest_field(path, fields)
            if nearest is None:
                unplaced.extend(f"{path}: {s}" if path else s for s in sentences)
            else:
                at_field.setdefault(nearest.path, []).extend(sentences)
        for path, sentences in at_field.items():
            fields[path].show_errors(list(dict.fromkeys(sentences)))
        self._banner_has_more = bool(unplaced)
        count = sum(len(s) for s in errors.values())
        problems = "1 problem" if count == 1 else f"{count} problems"
        lines = [headline or f"Not saved: {problems}. See the fields marked in red."]
        lines += unplaced
        self.show_banner("\n".join(lines))
        notify_once(self.app, "form-errors", lines[0], title="Not saved", severity="error")
        first = next((fields[p] for p in fields if p in at_field), None)
        if first is not None:
            self.call_after_refresh(self._reveal_field, first)

    def _reveal_field(self, field: FormField) -> None:
        self.query_one("#form-body", VerticalScroll).scroll_to_widget(field, animate=False)
        focusable = [
            w for w in field.query("Input, Select, SelectionList, TextArea, Switch") if w.focusable
        ]
        if focusable:
            focusable[0].focus(scroll_visible=False)

    def show_failure(self, error: BaseException) -> None:
        """Any failure but field errors: banner and notification, the form stays open."""
        text = f"Not saved: {error}"
        self.show_banner(text + "\nEverything you typed is still here; try again with ctrl+s.")
        self.notify(str(error), title="Not saved", severity="error")

    # ----- actions ---------------------------------------------------------------------------

    def action_save(self) -> None:
        if not self.is_mounted:
            return
        if self.read_only:
            self.notify(READ_ONLY_REFUSAL, severity="warning")
            return
        if self.saving:
            self.notify("Already saving: wait for the answer.")
            return
        self.clear_errors()
        self._refused = None
        trimmed = self.trim_inputs()
        if trimmed:
            notify_once(
                self.app,
                "form-trim",
                f"Took the spaces around the {' and the '.join(trimmed)} off.",
                title="Trimmed",
            )
        payload, errors = self.build_payload()
        model = self._checked(payload, errors)
        if errors or model is None:
            self.show_errors(errors)
            return
        warnings: list[str] = []
        for label, editor in self.code_editors():
            warnings += code_problem_sentences(label, editor)
        self._set_saving(True)
        self._save(model, payload, warnings)

    def wire_body(self, model: RequestT) -> JsonObject:
        """What is sent (the model's JSON, as the client would send the model itself); on an
        update, plus every field of the object as read that the console does not know, so
        saving never resets them (see round_trip)."""
        if self.obj is None:
            return model.to_json()
        from console.models.round_trip import update_body

        return update_body(self.obj, model)

    def _set_saving(self, saving: bool) -> None:
        self.saving = saving
        if not self.is_mounted:
            return
        status = self.query_one("#form-status", Static)
        status.update("Saving…" if saving else self._idle_status())
        status.set_class(saving, "-saving")
        for button in self.query("#form-save"):
            button.disabled = saving

    @work(exclusive=True, group="form-save", exit_on_error=False)
    async def _save(self, model: RequestT, payload: JsonObject, warnings: list[str]) -> None:
        from console.client import ApiError, NotFound, ValidationFailed

        try:
            if warnings and not await dialog_host(self).ask(
                CodeWarningModal(warnings, self._code_changes(payload))
            ):
                self.notify("Not saved: fix the code, or save anyway.")
                return
            if not await self.confirm_send(model):
                return
            if self.editing and not await self._confirm_no_lost_update(payload):
                return
            self._send_count += 1
            result = await self.send(self.wire_body(model))
        except ValidationFailed as error:
            self.show_errors(error.errors, headline=f"The service refused it: {error}")
            by_path = self.fields_by_path()
            paths = {f.path for p in error.errors if (f := nearest_field(p, by_path)) is not None}
            self._refused = (payload, paths)
        except NotFound as error:
            self.show_failure(error)
        except ApiError as error:
            self.show_failure(error)
        except Exception as error:  # a bug must not eat what was typed
            log.warning("The save failed", exc_info=True)
            self.show_failure(error)
        else:
            # Saved: whatever happens next, the form closes, so a second ctrl+s cannot
            # create the object twice.
            self.saved = result
            self._baseline = self._safe_state()
            keep_open = False
            try:
                keep_open = bool(await self.after_saved(result))
            except Exception as error:  # e.g. the key reveal failed to show
                log.warning("After saving, the follow-up failed", exc_info=True)
                self.notify(f"Saved, but: {error}", severity="error")
            self.notify(f'Saved {self.noun} "{result.name}".', title="Saved")
            if keep_open:
                self._baseline = self._safe_state()
                self.refresh_dirty()
            else:
                self.dismiss(self.saved)  # after_saved may have read it again
        finally:
            self._set_saving(False)

    def _code_changes(self, payload: JsonObject) -> list[tuple[str, list[str]]]:
        """The line diffs of the code about to replace the saved code (none for a new one)."""
        if self.obj is None or not self.code_fields:
            return []
        saved = self.payload_of(self.obj)
        return code_changes(self.field_labels, self.code_fields, saved, payload)

    async def _confirm_no_lost_update(self, payload: JsonObject) -> bool:
        """Reads the object again; if someone changed it since it was opened, asks first."""
        from console.client.guard import changed_since, modified_at

        opened = self.obj
        if opened is None:  # a new object: nobody else can have changed it
            return True
        current = await self.fetch_current()
        if not changed_since(opened, current, self.payload_of):
            return True
        now_at = modified_at(current)
        theirs = self.payload_of(current)
        original = self.payload_of(opened)
        changes = describe_changes(
            self.field_labels, original, theirs, payload, code_fields=self.code_fields
        )
        when = f"modified {local_time(now_at)}" if now_at else None
        what = f'The {self.noun} "{self.object_name()}"'
        overwrite = await dialog_host(self).ask(LostUpdateModal(what, changes, changed_when=when))
        if not overwrite:
            self.show_banner(
                f"Not saved: the {self.noun} was changed by someone else. Close this form and "
                "open it again to see their version, or save again to overwrite it."
            )
            # Their version is the new reference: a second save asks no more.
            self.obj = current
            return False
        return True

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # escape gives the form back to a full-screen editor first
        return not (action == "cancel" and self.maximized is not None)

    def watch_maximized(self) -> None:
        self.refresh_bindings()

    def action_cancel(self) -> None:
        if self.saving:
            self.notify("Saving: wait for the answer before closing.")
            return
        if self.dirty:
            dialog_host(self).show(DiscardChangesModal(f"this {self.noun}"), self._discard_answered)
        else:
            self.dismiss(self.saved)  # None unless saved and kept open (see after_saved)

    def _discard_answered(self, discard: bool | None) -> None:
        if discard:
            self.dismiss(self.saved)

    @on(Button.Pressed, "#form-save")
    def _save_pressed(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#form-cancel")
    def _cancel_pressed(self) -> None:
        self.action_cancel()
