"""What a test-run runs: a formula's, a reactor's or a proxy transform's code, its sample and
contract, as a form or a detail describes it to the test-run screen
(console.tui.screens.test_run); and what React sends a reactor (console.tui.screens.react).
Here, below the screens, so that the forms describe a run without importing a screen: the
app opens them (Router.open_test_run, Router.open_react in console.tui.base.shell)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from uuid import UUID

    from console.models.reactors import Reactor
    from console.runner.result import Kind as RunKind
    from console.tui.base.shown import JsonObject
    from console.tui.widgets.code_editor import CodeEditor


@dataclass
class RunTarget:
    """What to run and how: everything the screen needs from a form or a detail."""

    kind: RunKind
    """"formula", "reactor" or "transform" (console.runner's kinds)."""
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

    @property
    def sample_parts(self) -> str:
        """What the sample holds, in the screen's hint."""
        if self.kind == "transform":
            return "args.body, args.headers and configuration"
        return "args and configuration"

    @property
    def owner(self) -> str:
        """Who could have written code from the service: anyone who can update this."""
        return {"formula": "formula", "reactor": "reactor"}.get(self.kind, "proxy")


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


def reactor_run_target(
    name: str,
    object_id: UUID | None,
    code: Callable[[], str],
    configuration: Callable[[], Mapping[str, str | None] | None],
    editor: CodeEditor | None = None,
) -> RunTarget:
    """A reactor's run: `{args, configuration}` with the reactor's configuration as it is
    now; called as a formula is, its result checked as the service checks a react's."""

    def default_sample() -> JsonObject:
        return reactor_sample(configuration())

    return RunTarget(
        kind="reactor",
        title=f'Test-run of the reactor "{name}"' if name else "Test-run of the new reactor",
        code=code,
        sample_key=f"reactor-{object_id or 'new'}",
        default_sample=default_sample,
        editor=editor,
        from_service=lambda: object_id is not None,
    )


def reactor_sample(configuration: Mapping[str, str | None] | None) -> JsonObject:
    """`{args, configuration}`: empty args, the reactor's configuration (a null as "")."""
    return {
        "args": {},
        "configuration": {k: v if v is not None else "" for k, v in (configuration or {}).items()},
    }


@dataclass
class ReactTarget:
    """What React sends a reactor, and what runs here beside it: the reactor's saved code
    (the service runs its active version) with its configuration, on the same args."""

    reactor_id: str
    name: str
    code: str
    """The code as read from the service, run here for comparison."""
    configuration: dict[str, str]
    timeout: int | None = None
    """The runtime's timeout (seconds), if set: the service's deadline for the code."""
    notes: list[str] = field(default_factory=list)
    """Said above the request (the form's unsaved code is not what the service runs)."""

    @property
    def sample_key(self) -> str:
        """Whose kept request this is, for console.runner.samples (one per reactor)."""
        return f"react-{self.reactor_id}"

    @property
    def run_target(self) -> RunTarget:
        """The local run of the same request (console.tui.screens.test_run's runner)."""
        code = self.code
        configuration = dict(self.configuration)
        return RunTarget(
            kind="reactor",
            title=f'Test-run of the reactor "{self.name}"',
            code=lambda: code,
            sample_key=f"reactor-{self.reactor_id}",
            default_sample=lambda: reactor_sample(configuration),
        )


def react_target(reactor: Reactor) -> ReactTarget:
    """React on a reactor as read: its saved code and configuration (null values as "")."""
    configuration = {k: v or "" for k, v in (reactor.configuration or {}).items()}
    timeout = reactor.runtime.timeout if reactor.runtime is not None else None
    return ReactTarget(str(reactor.id), reactor.name, reactor.code or "", configuration, timeout)
