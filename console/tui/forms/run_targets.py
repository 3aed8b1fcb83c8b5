"""What a test-run runs: a formula's or a proxy transform's code, or a proxy's pipeline of
steps, its sample and contract, as a form or a detail describes it to the test-run screen
(console.tui.screens.test_run). Here, below the screen, so that the forms describe a run
without importing the screen: the app opens it (Router.open_test_run in
console.tui.base.shell)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from uuid import UUID

    from console.tui.base.shown import JsonObject
    from console.tui.widgets.code_editor import CodeEditor


@dataclass
class RunTarget:
    """What to run and how: everything the screen needs from a form or a detail."""

    kind: str
    """"formula" or "transform"."""
    title: str
    code: Callable[[], str]
    """The code as it is now (a form's editor may change between runs)."""
    sample_key: str
    """Whose sample this is, for console.runner.samples."""
    default_sample: Callable[[], JsonObject]
    """The prefilled sample from the object's declared contract, as it is now."""
    contract: Callable[[], object] = lambda: None
    """The formula's request_parameters and configuration, as they are now (a model, or
    anything with those attributes: see console.runner.run_code)."""
    with_bt: Callable[[], bool] = lambda: False
    editor: CodeEditor | None = None
    """The editor to mark a thrown error in (none from a detail)."""
    extra_notes: list[str] = field(default_factory=list)
    from_service: Callable[[], bool] = lambda: True
    """Whether the code came from the service (an existing object's) rather than being
    typed in this session: where no OS sandbox can be had, such code runs only once the
    user has agreed."""
    steps: Callable[[], list[JsonObject]] | None = None
    """A pipeline's steps as they are now (a proxy's request or response transforms): run
    in order by console.runner.pipeline instead of `code` alone."""
    step_editor: Callable[[int], CodeEditor | None] = lambda index: None
    """The editor of a pipeline's code step, to mark the error it threw in."""


def formula_run_target(
    name: str,
    object_id: UUID | None,
    code: Callable[[], str],
    contract: Callable[[], object],
    editor: CodeEditor | None = None,
) -> RunTarget:
    """A formula's run: its sample prefilled from its request parameters and configuration."""

    def default_sample() -> JsonObject:
        from console.runner.contract import formula_sample

        return formula_sample(contract())

    return RunTarget(
        kind="formula",
        title=f'Test-run of the formula "{name}"' if name else "Test-run of the new formula",
        code=code,
        sample_key=f"formula-{object_id or 'new'}",
        default_sample=default_sample,
        contract=contract,
        editor=editor,
        from_service=lambda: object_id is not None,
    )


def transform_run_target(
    name: str,
    object_id: UUID | None,
    field_name: str,
    code: Callable[[], str],
    configuration: Callable[[], dict[str, str] | None],
    with_bt: Callable[[], bool],
    editor: CodeEditor | None = None,
) -> RunTarget:
    """A proxy transform's run: body, headers and the proxy's configuration; `bt` when the
    proxy has an application."""

    def default_sample() -> JsonObject:
        from console.runner.contract import transform_sample

        return transform_sample(configuration())

    what = field_name.replace("_", " ")
    return RunTarget(
        kind="transform",
        title=f'Test-run of the {what} of the proxy "{name}"'
        if name
        else f"Test-run of the {what} of the new proxy",
        code=code,
        sample_key=f"proxy-{object_id or 'new'}-{field_name}",
        default_sample=default_sample,
        with_bt=with_bt,
        editor=editor,
        from_service=lambda: object_id is not None,
    )


def pipeline_run_target(
    name: str,
    object_id: UUID | None,
    side: str,
    steps: Callable[[], list[JsonObject]],
    configuration: Callable[[], dict[str, str] | None],
    with_bt: Callable[[], bool],
    step_editor: Callable[[int], CodeEditor | None] = lambda index: None,
) -> RunTarget:
    """A proxy pipeline's run: each step in order on the sample request (as a transform's);
    `code` is every code step's, for the question asked before running the service's code
    without a sandbox."""

    def default_sample() -> JsonObject:
        from console.runner.contract import transform_sample

        return transform_sample(configuration())

    def code() -> str:
        return "\n".join(
            str(s.get("code") or "") for s in steps() if (s.get("type") or "code") == "code"
        )

    what = f"{side} transforms"
    return RunTarget(
        kind="transform",
        title=f'Test-run of the {what} of the proxy "{name}"'
        if name
        else f"Test-run of the {what} of the new proxy",
        code=code,
        sample_key=f"proxy-{object_id or 'new'}-{side}_transforms",
        default_sample=default_sample,
        with_bt=with_bt,
        from_service=lambda: object_id is not None,
        steps=steps,
        step_editor=step_editor,
    )
