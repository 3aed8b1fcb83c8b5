"""React: a reactor run on the service with a request you edit, its answer shown beside a
test-run of the same request here.

The request (`{"args": ...}`, JSON) is kept per reactor like a test-run's sample
(console.runner.samples). ctrl+l sends it: `POST /reactors/{id}/react`, or with Async on
`react-async`, then its result asked for at most once a second until it is done or the
deadline passes. The same args run here too (console.tui.screens.test_run's runner, sandboxed)
on the reactor's saved code and configuration, so the two answers can be compared. What the
service answered is data: shown with every control character escaped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from rich.console import Group
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea

from console.terminal_text import printable, printable_json
from console.tui.base.app_access import session_host
from console.tui.browse.kinds import REACT_KEY
from console.tui.forms.run_targets import ReactTarget
from console.tui.screens import test_run
from console.tui.screens.test_run import agree_to_run_unisolated, result_renderable, run_locally
from console.tui.widgets.key_bar import KeyBar
from console.tui.widgets.toggles import TextSwitch

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.runner import RunResult

log = logging.getLogger(__name__)

__all__ = ["ReactScreen", "service_answer"]

NARROW = 120
"""Narrower than this, the request sits above the two answers instead of beside them."""
SHORT = 32
"""Lower than this (a narrow screen), the hint and the buttons go: the key bar has the keys."""

POLL_INTERVAL = 1.0
"""Seconds between two asks for an async result: never more than one request a second."""
POLL_MARGIN = 30.0
"""Seconds an async result is waited for beyond the runtime's timeout (queueing, start-up)."""
DEFAULT_TIMEOUT = 10
"""The runtime's timeout when the reactor sets none (docs/reactors.md)."""

ANSWER_PARTS = ("raw", "body", "headers", "tokens")


def default_request() -> str:
    return json.dumps({"args": {}}, indent=2)


def _as_sent(value: Any) -> dict[str, Any]:
    """A client's answer as the service sent it (a lenient model keeps that), or as is."""
    if isinstance(value, dict):
        return value
    sent = getattr(value, "as_sent", None)
    if isinstance(sent, dict):
        return sent
    dump = getattr(value, "model_dump", None)
    dumped = dump(by_alias=True, exclude_none=True) if callable(dump) else None
    return dumped if isinstance(dumped, dict) else {}


def service_answer(value: Any, head: str) -> Group:
    """What the service answered a react: each of raw, body, headers, tokens it sent, as
    JSON (escaped), under `head`."""
    parts: list[Text] = [Text.assemble(("✓ ", "bold green"), (printable(head), "bold"))]
    sent = _as_sent(value)
    shown = [k for k in ANSWER_PARTS if k in sent]
    for key in shown:
        parts.append(Text(f"\n{key}", style="bold"))
        parts.append(Text(printable_json(sent[key], indent=2), style="cyan"))
    others = {k: v for k, v in sent.items() if k not in ANSWER_PARTS}
    if others:
        parts.append(Text("\nother fields", style="bold"))
        parts.append(Text(printable_json(others, indent=2), style="dim"))
    if not shown and not others:
        parts.append(Text("\nThe service answered with nothing.", style="dim"))
    return Group(*parts)


def service_error(error: BaseException) -> Group:
    """The service's refusal or the code's failure, as the problem it sent: its status,
    title, detail and errors (escaped)."""
    status = getattr(error, "status", None)
    title = getattr(error, "title", "") or type(error).__name__
    head = f"{status} {title}" if status else str(title)
    parts = [Text.assemble(("✗ ", "bold red"), (printable(head), "bold"))]
    detail = getattr(error, "detail", None) or ("" if status else str(error))
    if detail:
        parts.append(Text(printable(str(detail), lines=True), style="red"))
    errors = getattr(error, "errors", None) or {}
    for path, sentences in errors.items():
        for sentence in sentences:
            where = f"{path}: " if path else ""
            parts.append(Text(f"  · {printable(where + str(sentence))}", style="red"))
    return Group(*parts)


class ReactScreen(ModalScreen[None]):
    """React on a reactor, see the module's docstring. Escape closes it."""

    DEFAULT_CSS = """
    ReactScreen {
        align: center middle;
    }
    ReactScreen > #react-frame {
        width: 100%;
        height: 1fr;
        border: thick $primary 60%;
        background: $surface;
        padding: 0 1;
    }
    ReactScreen #react-title {
        text-style: bold;
        height: 1;
    }
    ReactScreen #react-hint {
        color: $text-muted;
        height: auto;
    }
    ReactScreen #react-options {
        height: 1;
        margin: 1 0 0 0;
    }
    ReactScreen #react-options TextSwitch {
        border: none;
        height: 1;
        padding: 0;
        margin: 0 1 0 0;
        min-width: 5;
        width: 5;
    }
    ReactScreen #react-options Static {
        width: 1fr;
        color: $text-muted;
    }
    ReactScreen #react-panes {
        height: 1fr;
    }
    ReactScreen #react-request {
        width: 1fr;
        height: 1fr;
        margin-right: 1;
    }
    ReactScreen #react-answers {
        width: 2fr;
        height: 1fr;
    }
    ReactScreen #react-service, ReactScreen #react-local {
        width: 1fr;
        height: 1fr;
        border: round $panel;
        padding: 0 1;
    }
    ReactScreen #react-service {
        margin-right: 1;
    }
    ReactScreen.-narrow #react-panes {
        layout: vertical;
    }
    ReactScreen.-narrow #react-request {
        width: 100%;
        height: 7;
        margin-right: 0;
    }
    ReactScreen.-narrow #react-answers {
        width: 100%;
    }
    ReactScreen.-short #react-hint {
        display: none;
    }
    ReactScreen.-short #react-options {
        margin: 0;
    }
    ReactScreen.-short #react-actions Button {
        display: none;
    }
    ReactScreen.-short #react-status {
        height: 1;
    }
    ReactScreen #react-actions {
        height: auto;
        align-horizontal: right;
    }
    ReactScreen #react-status {
        width: 1fr;
        height: 3;
        content-align-vertical: middle;
        color: $text-muted;
    }
    ReactScreen #react-actions Button {
        margin-left: 1;
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding(REACT_KEY, "react", "Send", priority=True),
        Binding("ctrl+r", "test_run", "Test-run only", priority=True),
    ]

    def __init__(self, target: ReactTarget) -> None:
        super().__init__()
        self.target = target
        self.answer: Any = None
        """What the service answered last (its response, or the error)."""
        self.local: RunResult | None = None
        self.sending = False
        self.service_shown: Group | None = None
        """What the service pane shows (the answer, the problem, or still running)."""
        self.agreed_unisolated: set[str] = set()

    def compose(self) -> ComposeResult:
        from console.runner.samples import load_sample

        request = load_sample(self.target.sample_key) or default_request()
        notes = " ".join(self.target.notes)
        with Vertical(id="react-frame"):
            yield Static(f'React with the reactor "{self.target.name}"', id="react-title")
            yield Static(
                "The request goes to the service, which runs the reactor's active version; "
                "the same args run here too (a test-run, sandboxed) on its saved code and "
                f"configuration, for comparison. {notes}".strip(),
                id="react-hint",
                markup=False,
            )
            with Horizontal(id="react-options"):
                yield TextSwitch(False, id="react-async")
                yield Static(
                    "Async: react-async, then its result asked for once a second",
                    markup=False,
                )
            with Horizontal(id="react-panes"):
                yield TextArea.code_editor(
                    request,
                    language="json",
                    soft_wrap=False,
                    tab_behavior="focus",
                    show_line_numbers=False,
                    id="react-request",
                )
                with Horizontal(id="react-answers"):
                    with VerticalScroll(id="react-service"):
                        yield Static(
                            Text("Press ctrl+l to send the request.", style="dim"),
                            id="react-service-output",
                        )
                    with VerticalScroll(id="react-local"):
                        yield Static(
                            Text("The test-run's result shows here.", style="dim"),
                            id="react-local-output",
                        )
            with Horizontal(id="react-actions"):
                yield Static("", id="react-status", markup=False)
                yield Button("Send  ctrl+l", id="react-send", variant="primary")
                yield Button("Close  esc", id="react-close")
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#react-service").border_title = "On the service"
        self.query_one("#react-local").border_title = "Here (test-run)"
        self.query_one("#react-request", TextArea).border_title = "Request"
        self.query_one("#react-request", TextArea).focus()

    def on_resize(self) -> None:
        narrow = self.size.width < NARROW
        self.set_class(narrow, "-narrow")
        self.set_class(narrow and self.size.height < SHORT, "-short")

    # ----- actions --------------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#react-close")
    def _close_pressed(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#react-send")
    def _send_pressed(self) -> None:
        self.action_react()

    @property
    def use_async(self) -> bool:
        return self.query_one("#react-async", TextSwitch).value

    def _request(self) -> tuple[str, dict[str, Any]] | None:
        """The request typed, as text and object; None (having said why) if it is not one."""
        editor = self.query_one("#react-request", TextArea)
        text = editor.text
        try:
            request = json.loads(text)
        except json.JSONDecodeError as error:
            self._status(f"The request is not JSON: {error.msg} (line {error.lineno}).")
            editor.move_cursor((error.lineno - 1, error.colno - 1))
            return None
        except RecursionError:
            self._status("The request is nested too deeply to read.")
            return None
        if not isinstance(request, dict):
            self._status('The request must be an object: {"args": ...}.')
            return None
        return text, request

    def action_react(self) -> None:
        """Sends the request to the service and runs it here; both answers side by side."""
        if self.sending:
            self._status("Already sent: wait for the answer.")
            return
        typed = self._request()
        if typed is None:
            return
        text, request = typed
        self.sending = True
        self.query_one("#react-send", Button).disabled = True
        self._run_here(request)
        self._send(text, request, self.use_async)

    def action_test_run(self) -> None:
        """Runs the request here only (nothing is sent)."""
        typed = self._request()
        if typed is not None:
            self._run_here(typed[1])

    # ----- on the service -------------------------------------------------------------------

    @work(exclusive=True, group="react-send", exit_on_error=False)
    async def _send(self, text: str, request: dict[str, Any], use_async: bool) -> None:
        from console.runner.samples import save_sample

        pane = self.query_one("#react-service", VerticalScroll)
        pane.loading = True
        started = time.perf_counter()
        try:
            client = session_host(self).client
            args = request.get("args")
            if use_async:
                answer = await self._react_async(client, args, started)
            else:
                self._status("Sent; the service is running the reactor…")
                response = await client.reactors.react(self.target.reactor_id, args)
                answer = ("200 OK", response)
        except Exception as error:  # the service's refusal or the code's failure: shown
            log.info("React failed", exc_info=True)
            self.answer = error
            self._show_service(service_error(error))
            self._status(f"The service answered: {printable(str(error))}")
        else:
            if answer is None:  # the deadline passed: said already
                return
            head, response = answer
            self.answer = response
            took = time.perf_counter() - started
            when = f" in {took * 1000:.0f} ms" if test_run.SHOW_TIMINGS else ""
            self._show_service(service_answer(response, f"{head}{when}"))
            self._status("Done: the service's answer and the test-run's, side by side.")
        finally:
            self.sending = False
            if self.is_mounted:
                pane.loading = False
                self.query_one("#react-send", Button).disabled = False
        await asyncio.to_thread(save_sample, self.target.sample_key, text)

    async def _react_async(
        self, client: AdminClient, args: Any, started: float
    ) -> tuple[str, Any] | None:
        """react-async, then its result asked for once a second until done or the deadline
        (the runtime's timeout and a margin); None when the deadline passed. A run that
        failed raises its error, as a react's would."""
        reactors = client.reactors
        request_id = await reactors.react_async(self.target.reactor_id, args)
        timeout = self.target.timeout or DEFAULT_TIMEOUT
        deadline = started + timeout + POLL_MARGIN
        while True:
            waited = time.perf_counter() - started
            self._status(
                f"Accepted (request {request_id}); waiting for its result ({waited:.0f} s)…"
            )
            if time.perf_counter() + POLL_INTERVAL > deadline:
                self._show_service(
                    Group(
                        Text.assemble(("… ", "bold yellow"), ("Still running", "bold")),
                        Text(
                            f"No result after {waited:.0f} s. The service keeps it for a "
                            f"day: request {printable(request_id)}.",
                            style="dim",
                        ),
                    )
                )
                self._status("Gave up waiting: the request may still finish on the service.")
                return None
            await asyncio.sleep(POLL_INTERVAL)
            result = await reactors.result(self.target.reactor_id, request_id)
            if result.error is not None:
                raise result.error
            if not result.pending:
                return f"completed (async request {request_id})", result.response

    def _show_service(self, renderable: Group) -> None:
        self.service_shown = renderable
        if self.is_mounted:
            self.query_one("#react-service-output", Static).update(renderable)
            self.query_one("#react-service", VerticalScroll).scroll_home(animate=False)

    # ----- here -----------------------------------------------------------------------------

    @work(exclusive=True, group="react-local", exit_on_error=False)
    async def _run_here(self, request: dict[str, Any]) -> None:
        """The same args on the saved code, with the reactor's configuration, sandboxed."""
        sample = {"args": request.get("args"), "configuration": dict(self.target.configuration)}
        output = self.query_one("#react-local-output", Static)
        output.update(Text("Running here…", style="dim"))
        outcome = await run_locally(
            self.target.run_target, sample, self.agreed_unisolated, self._agree, self._status
        )
        if not self.is_mounted:
            return
        if isinstance(outcome, str):
            output.update(Text(printable(outcome), style="yellow"))
            return
        from console.runner.result import RunResult

        assert isinstance(outcome, RunResult)  # a reactor's run target has no steps
        self.local = outcome
        output.update(await asyncio.to_thread(result_renderable, outcome))
        self.query_one("#react-local", VerticalScroll).scroll_home(animate=False)

    async def _agree(self, why: str) -> bool:
        return await agree_to_run_unisolated(self, self.target.run_target, why)

    def _status(self, sentence: str) -> None:
        if self.is_mounted:
            self.query_one("#react-status", Static).update(printable(sentence))
