"""The test-run screen: a sample request (JSON, editable), run on the code in a worker,
and what came back — the returned object and its shape check, the logs, the `bt` calls, the
engine, and a thrown error, which is also marked in the code editor it came from.

Opened with ctrl+r from a formula, reactor or proxy form and from their details. A proxy's
pipeline (its request or response transforms) runs step by step (console.runner.pipeline):
each step's outcome is shown in order, then the request the pipeline ends with. The engine
(console.runner) loads only when the first run starts.
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
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static, TextArea

from console.terminal_text import printable, printable_json
from console.tui.base.app_access import router
from console.tui.forms.run_targets import RunTarget, formula_run_target, transform_run_target
from console.tui.widgets.key_bar import KeyBar

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from console.code_files.problems import CodeProblem
    from console.runner import RunResult
    from console.runner.pipeline import PipelineRun
    from console.tui.widgets.code_editor import CodeEditor

log = logging.getLogger(__name__)

__all__ = ["RunTarget", "TestRunScreen", "formula_run_target", "transform_run_target"]

SHOW_TIMINGS = True
"""Off in snapshot tests only: a picture must not depend on how fast the machine is, nor on
which sandbox it has (the protections line goes with the timings)."""

NARROW = 120
"""Narrower than this, the sample sits above the result instead of beside it."""
SHORT = 32
"""Lower than this (a narrow screen), the hint and the buttons go: the key bar has the keys,
and the result keeps its room."""


def _json(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


SHOWN_CHARS = 20_000
"""At most this much of a returned value, and of the logs, is drawn: a result may be five
million characters, which would hold the screen for minutes. The rest is counted."""
SHOWN_LINES = 400
SHOWN_LINE_CHARS = 2_000
"""At most this much of one log line or one bt call is drawn."""
WHOLE = "`tenant-console run` prints them all"


def _clipped(text: str, chars: int = SHOWN_CHARS, lines: int = SHOWN_LINES) -> tuple[str, str]:
    """The start of `text` that is drawn, and a note of what is left out ("" if nothing)."""
    shown = text[:chars]
    if shown.count("\n") >= lines:
        shown = "\n".join(shown.split("\n", lines)[:lines])
    if len(shown) == len(text):
        return text, ""
    rest = text[len(shown) :]
    more_lines = rest.count("\n") + (0 if rest.startswith("\n") else 1)
    return shown, f"… {len(rest):,} more characters ({more_lines:,} lines) not shown; {WHOLE}"


def _line(text: str) -> str:
    if len(text) <= SHOWN_LINE_CHARS:
        return text
    return f"{text[:SHOWN_LINE_CHARS]}… ({len(text) - SHOWN_LINE_CHARS:,} more characters)"


def result_renderable(result: RunResult) -> Group:
    """Everything a run found, as one scrollable block of text (no markup: code's text).

    What the code returned, logged, threw or passed to `bt` is data, never terminal input:
    every control character in it is shown escaped (console.terminal_text). A large result
    or many logs are drawn in part, saying what is left out. Build it off the UI thread."""
    parts: list[Text] = []
    head = Text()
    head.append("✓ " if result.ok else "✗ ", style="bold green" if result.ok else "bold red")
    head.append(printable(result.message), style="bold")
    parts.append(head)
    timing = printable(result.engine_name)
    if result.engine_ms is not None and SHOW_TIMINGS:
        timing += f" · ran in {result.engine_ms:.1f} ms ({result.total_ms:.0f} ms with start-up)"
    parts.append(Text(timing, style="dim"))
    if not result.isolated:
        parts.append(
            Text("⚠ Ran without an operating-system sandbox (none can be had here).", style="red")
        )
    if result.protections and SHOW_TIMINGS:
        parts.append(Text("Sandbox: " + "; ".join(result.protections), style="dim"))
    for note in result.notes:
        parts.append(Text(f"· {printable(note)}", style="dim italic"))
    if result.request_problems:
        parts.append(Text("\nThe sample request", style="bold"))
        parts += [Text(f"  ✗ {printable(p)}", style="red") for p in result.request_problems]
    if result.error is not None:
        parts.append(Text("\nError", style="bold"))
        parts.append(Text(f"  {printable(_line(result.error.summary))}", style="red"))
        parts += [
            Text(f"    {printable(_line(frame))}", style="dim") for frame in result.error.frames[:8]
        ]
    if result.status in ("ok", "bad_shape"):
        parts.append(Text(f"\nReturned ({printable(result.result_kind or '')})", style="bold"))
        shown, left_out = _clipped(printable_json(result.value, indent=2))
        parts.append(Text(shown, style="cyan"))
        if left_out:
            parts.append(Text(left_out, style="dim"))
        parts += [Text(f"  ✗ {printable(p)}", style="red") for p in result.shape_problems]
        parts += [Text(f"  · {printable(n)}", style="yellow") for n in result.shape_notes]
    if result.calls or result.calls_dropped:
        parts.append(
            Text(f"\nbt calls ({len(result.calls)}), made (nothing real reached)", style="bold")
        )
        for call in result.calls:
            arguments = ", ".join(printable_json(a) for a in call.args)
            parts.append(Text(_line(f"  bt.{printable(call.method)}({arguments})")))
        if result.calls_dropped:
            parts.append(Text(f"  … {result.calls_dropped} more not kept", style="dim"))
    parts.append(Text(f"\nLogs ({len(result.logs)})", style="bold"))
    if not result.logs:
        parts.append(Text("  Nothing logged.", style="dim"))
    styles = {"warn": "yellow", "error": "red", "debug": "dim"}
    budget = SHOWN_CHARS
    for index, line in enumerate(result.logs):
        if budget <= 0:
            left = len(result.logs) - index
            parts.append(Text(f"  … {left:,} more log lines not shown; {WHOLE}", style="dim"))
            break
        text = printable(_line(line.text), lines=True).replace("\n", "\n    ")
        budget -= len(text)
        parts.append(Text(f"  [{printable(line.level)}] {text}", style=styles.get(line.level, "")))
    if result.logs_dropped:
        parts.append(Text(f"  … {result.logs_dropped} more not kept", style="dim"))
    return Group(*parts)


_STEP_MARKS = {
    "ok": ("✓", "green"),
    "error": ("✗", "bold red"),
    "not_run_here": ("·", "yellow"),
    "skipped": ("○", "dim"),
}


def pipeline_renderable(run: PipelineRun) -> Group:
    """A pipeline's run: each step's outcome (a failed code step's whole run, as a single
    run shows it), then the request it ends with. Build it off the UI thread."""
    parts: list[Text | Group] = []
    head = Text()
    head.append("✓ " if run.ok else "✗ ", style="bold green" if run.ok else "bold red")
    head.append(printable(run.message), style="bold")
    parts.append(head)
    parts.append(Text(f"\nSteps ({len(run.steps)})", style="bold"))
    for step in run.steps:
        mark, style = _STEP_MARKS[step.status]
        line = Text(f"  {mark} {step.index + 1}. {printable(step.type)}: ", style=style)
        failed_run = step.run if step.status == "error" else None
        said = "failed; its run follows." if failed_run is not None else _line(step.message)
        line.append(printable(said), style="" if step.status == "ok" else style)
        parts.append(line)
        if failed_run is not None:
            parts.append(result_renderable(failed_run))
        elif step.run is not None and step.run.logs:
            count = len(step.run.logs)
            parts.append(Text(f"      {count} log line{'s' if count != 1 else ''}", style="dim"))
    if run.final is not None:
        parts.append(Text("\nThe request after the pipeline", style="bold"))
        shown, left_out = _clipped(printable_json(run.final, indent=2))
        parts.append(Text(shown, style="cyan"))
        if left_out:
            parts.append(Text(left_out, style="dim"))
    return Group(*parts)


async def run_locally(
    target: RunTarget,
    request: object,
    agreed: set[str],
    agree: Callable[[str], Awaitable[bool]],
    say: Callable[[str], None],
) -> RunResult | PipelineRun | str:
    """Runs the target's code on `request` here, sandboxed (in a thread); the result, or
    the sentence saying why it did not run. Where no OS sandbox can be had, code from the
    service runs only once `agree` said yes (remembered in `agreed` for the screen's life).
    Shared by the test-run and React (console.tui.screens.react)."""
    from console.runner import run_code
    from console.runner.engines import EngineUnavailable
    from console.runner.pipeline import run_pipeline
    from console.runner.sandbox import NoBoundary

    code = target.code()
    steps = target.steps() if target.steps is not None else None

    async def attempt(allow_unisolated: bool) -> RunResult | PipelineRun:
        if steps is not None:
            return await asyncio.to_thread(
                run_pipeline,
                steps,
                request,
                with_bt=target.with_bt(),
                allow_unisolated=allow_unisolated,
            )
        return await asyncio.to_thread(
            run_code,
            code,
            request,
            target.kind,
            formula=target.contract(),
            with_bt=target.with_bt(),
            allow_unisolated=allow_unisolated,
        )

    try:
        try:
            return await attempt(not target.from_service() or code in agreed)
        except NoBoundary as refusal:
            if not await agree(str(refusal)):
                return "Not run: there is no sandbox here and the code is the service's."
            agreed.add(code)
            say("Running without a sandbox…")
            return await attempt(True)
    except EngineUnavailable as error:
        return str(error)
    except Exception as error:
        log.warning("The test-run failed", exc_info=True)
        return f"The test-run failed: {error}"


async def agree_to_run_unisolated(screen: Screen[Any], target: RunTarget, why: str) -> bool:
    """Asks before code from the service runs where no OS sandbox can be had."""
    from console.tui.modals.confirm import ConfirmModal

    question = ConfirmModal(
        "Run this code without a sandbox?",
        f"{why}\n\nThis code came from the service: anyone who can update this "
        f"{target.owner} in the tenant could "
        "have written it. Outside a sandbox it could read your files, reach the network "
        "and other programs, and use the keys this console holds.",
        confirm_label="Run without a sandbox",
        cancel_label="Don't run",
        danger=True,
        warning="Only run it if you have read it and trust it.",
    )
    answer: bool = await router(screen).ask(question)
    return answer


class TestRunScreen(ModalScreen[None]):
    """Run code on a sample request, locally and sandboxed; see the module's docstring."""

    __test__ = False  # not a test class, whatever its name says to pytest

    DEFAULT_CSS = """
    TestRunScreen {
        align: center middle;
    }
    TestRunScreen > #run-frame {
        width: 100%;
        height: 1fr;
        border: thick $primary 60%;
        background: $surface;
        padding: 0 1;
    }
    TestRunScreen #run-title {
        text-style: bold;
        height: 1;
    }
    TestRunScreen #run-hint {
        color: $text-muted;
        height: auto;
    }
    TestRunScreen #run-panes {
        height: 1fr;
    }
    TestRunScreen #run-sample-pane, TestRunScreen #run-result {
        width: 1fr;
        height: 1fr;
    }
    TestRunScreen #run-sample-pane {
        margin-right: 1;
    }
    TestRunScreen #run-sample {
        height: 1fr;
    }
    TestRunScreen #run-result {
        border: round $panel;
        padding: 0 1;
    }
    TestRunScreen.-narrow #run-panes {
        layout: vertical;
    }
    TestRunScreen.-narrow #run-sample-pane {
        height: 8;
        margin-right: 0;
    }
    TestRunScreen.-short #run-hint {
        display: none;
    }
    TestRunScreen.-short #run-actions Button {
        display: none;
    }
    TestRunScreen.-short #run-status {
        height: 1;
    }
    TestRunScreen #run-actions {
        height: auto;
        align-horizontal: right;
    }
    TestRunScreen #run-status {
        width: 1fr;
        height: 3;
        content-align-vertical: middle;
        color: $text-muted;
    }
    TestRunScreen #run-actions Button {
        margin-left: 1;
    }
    """

    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+r", "run", "Run", priority=True),
        Binding("f8", "go_to_error", "Go to error", priority=True),
        Binding("ctrl+t", "prefill", "Prefill sample", priority=True),
    ]

    def __init__(self, target: RunTarget) -> None:
        super().__init__()
        self.target = target
        self.result: RunResult | None = None
        self.run_started: float | None = None
        self.result_shown_ms: float | None = None
        """From pressing run to the result on screen, for the benchmark."""
        self.result_shown_at: float | None = None
        """perf_counter() once the frame with the result has been drawn."""
        self.agreed_unisolated: set[str] = set()
        """Code from the service the user agreed to run without an OS sandbox (this screen)."""
        self.pipeline_run: PipelineRun | None = None
        """The last run of a pipeline (a target with steps)."""
        self.error_editor: CodeEditor | None = target.editor
        """Where the last run's error is marked: the code's editor, a failed step's."""

    def compose(self) -> ComposeResult:
        from console.runner.samples import load_sample

        sample = load_sample(self.target.sample_key) or _json(self.target.default_sample())
        what = self.target.sample_parts
        with Vertical(id="run-frame"):
            yield Static(self.target.title, id="run-title", markup=False)
            yield Static(
                f"The sample request ({what}) is JSON; it stays on this computer. "
                "The code runs here, sandboxed: no files, network or processes; "
                "5 s and 128 MB at most.",
                id="run-hint",
                markup=False,
            )
            with Horizontal(id="run-panes"):
                with Vertical(id="run-sample-pane"):
                    yield TextArea.code_editor(
                        sample,
                        language="json",
                        soft_wrap=False,
                        tab_behavior="focus",
                        show_line_numbers=False,
                        id="run-sample",
                    )
                with VerticalScroll(id="run-result"):
                    yield Static(
                        Text("Press ctrl+r to run the code on the sample.", style="dim"),
                        id="run-output",
                    )
            with Horizontal(id="run-actions"):
                yield Static("", id="run-status", markup=False)
                yield Button("Run  ctrl+r", id="run-run", variant="primary")
                yield Button("Prefill  ctrl+t", id="run-prefill")
                yield Button("Close  esc", id="run-close")
        yield KeyBar()

    def on_mount(self) -> None:
        self._prepare()
        self.query_one("#run-result").border_title = "Result"
        self.query_one("#run-sample", TextArea).border_title = "Sample request"
        self.query_one("#run-sample", TextArea).focus()

    @work(thread=True, group="test-run-prepare", exit_on_error=False)
    def _prepare(self) -> None:
        """While the sample is read or edited: the engine found, the sandbox probed, an
        engine process started ahead, so that ctrl+r waits for the code alone."""
        from console.runner import prepare_runs
        from console.runner.engines import EngineUnavailable
        from console.runner.sandbox import boundary

        try:
            prepare_runs()
        except EngineUnavailable:
            log.info("No engine to prepare: a run will say why", exc_info=True)
            return
        if not boundary().isolated:
            self.app.call_from_thread(self._say_unisolated)

    def _say_unisolated(self) -> None:
        if self.is_mounted:
            self.query_one("#run-hint", Static).update(
                "The sample request is JSON; it stays on this computer. No operating-system "
                "sandbox can be had here: code from the service runs only after you agree."
            )

    def on_resize(self) -> None:
        narrow = self.size.width < NARROW
        self.set_class(narrow, "-narrow")
        self.set_class(narrow and self.size.height < SHORT, "-short")

    # ----- actions --------------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def action_prefill(self) -> None:
        """The sample from the declared contract as it is now (the kept one is replaced)."""
        self.query_one("#run-sample", TextArea).load_text(_json(self.target.default_sample()))
        self._status("Prefilled from the contract.")

    def action_go_to_error(self) -> None:
        result = self.result
        editor = self.error_editor
        if result is None or result.error is None or result.error.line is None:
            self.notify("No error with a place in the code.", timeout=3)
            return
        if editor is None:
            self.notify(f"The error is at {result.error.place}.", timeout=4)
            return
        problem = self._problem(result)
        self.dismiss(None)
        editor.jump_to(problem)

    @on(Button.Pressed, "#run-run")
    def _run_pressed(self) -> None:
        self.action_run()

    @on(Button.Pressed, "#run-prefill")
    def _prefill_pressed(self) -> None:
        self.action_prefill()

    @on(Button.Pressed, "#run-close")
    def _close_pressed(self) -> None:
        self.dismiss(None)

    def action_run(self) -> None:
        text = self.query_one("#run-sample", TextArea).text
        try:
            request = json.loads(text)
        except json.JSONDecodeError as error:
            self._status(f"The sample is not JSON: {error.msg} (line {error.lineno}).")
            self.query_one("#run-sample", TextArea).move_cursor((error.lineno - 1, error.colno - 1))
            return
        except RecursionError:
            self._status("The sample is nested too deeply to read.")
            return
        self.run_started = time.perf_counter()
        self._status("Running…")
        self.query_one("#run-run", Button).disabled = True
        self._run(text, request)

    @work(exclusive=True, group="test-run", exit_on_error=False)
    async def _run(self, text: str, request: object) -> None:
        """The engine runs in a thread: a slow or stopped run never freezes the screen."""
        from console.runner.pipeline import PipelineRun
        from console.runner.samples import save_sample

        try:
            outcome = await run_locally(
                self.target, request, self.agreed_unisolated, self._agree, self._status
            )
        finally:
            if self.is_mounted:  # closed while running: nothing left to update
                self.query_one("#run-run", Button).disabled = False
        if isinstance(outcome, str):
            self._status(outcome)
            return
        # Built in a thread: a large result takes a moment to lay out as text.
        if isinstance(outcome, PipelineRun):
            self._show_pipeline(outcome, await asyncio.to_thread(pipeline_renderable, outcome))
        else:
            self._show(outcome, await asyncio.to_thread(result_renderable, outcome))
        # Kept after the result is on screen: the file is written (and synced) meanwhile.
        await asyncio.to_thread(save_sample, self.target.sample_key, text)

    async def _agree(self, why: str) -> bool:
        return await agree_to_run_unisolated(self, self.target, why)

    def _show(self, result: RunResult, renderable: Group, *, where: str = "") -> None:
        """A run's result on screen; `where` names the pipeline step it is of."""
        self.result = result
        self.query_one("#run-output", Static).update(renderable)
        self.query_one("#run-result", VerticalScroll).scroll_home(animate=False)
        status = "Done." if result.ok else printable(result.message)
        if result.error is not None and result.error.line is not None:
            summary = where + printable(result.error.summary)
            if self.error_editor is not None:
                self.error_editor.show_run_error(self._problem(result))
                status = f"{summary} — marked in the code; F8 goes there."
            else:
                status = summary
        self._status(status)
        self.call_after_refresh(self._shown)

    def _show_pipeline(self, run: PipelineRun, renderable: Group) -> None:
        """A pipeline's run: a failed code step's error is the run's error (marked in that
        step's editor, F8 goes there); otherwise the pipeline's own sentence."""
        self.pipeline_run = run
        failed = run.failed
        if failed is not None and failed.run is not None:
            self.error_editor = self.target.step_editor(failed.index)
            self._show(failed.run, renderable, where=f"Step {failed.index + 1}: ")
            return
        self.result = None
        self.error_editor = None
        self.query_one("#run-output", Static).update(renderable)
        self.query_one("#run-result", VerticalScroll).scroll_home(animate=False)
        self._status("Done." if run.ok else printable(run.message))
        self.call_after_refresh(self._shown)

    def _shown(self) -> None:
        self.result_shown_at = time.perf_counter()
        if self.run_started is not None:
            self.result_shown_ms = (time.perf_counter() - self.run_started) * 1000

    def _problem(self, result: RunResult) -> CodeProblem:
        from console.code_files.problems import CodeProblem

        error = result.error
        assert error is not None and error.line is not None
        column = error.column or 1
        what = f"{printable(error.name)}: {printable(error.message)}"
        title = f"Test-run: {what}"
        return CodeProblem(
            line=error.line,
            column=column,
            message=f"{what} at line {error.line}, column {column}",
            severity="error",
            title=title,
        )

    def _status(self, sentence: str) -> None:
        self.query_one("#run-status", Static).update(printable(sentence))
