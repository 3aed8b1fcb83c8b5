"""The console's shell: what screens, widgets, flows, policies and palette providers may use of
the app (console.tui.app.TenantConsoleApp), as a few small protocols by role.

- `SessionHost`: the session, its connection and client, what the service lacks;
- `Connecting`: another connection (a profile, the demo's service);
- `KeyPrompts`: asking for a new key and checking it;
- `Chrome`: the clock, the styles read after start, the clipboard;
- `Usage`: the header's usage line, the usage history and its forecast;
- `PreferenceHost`: what is remembered for the next start (theme, usage auto-refresh);
- `Notices`: saying what happened or went wrong;
- `Router`: the screens and dialogs the app opens (only the app pushes a screen);
- `Work`: Textual's workers.

`FlowHost` is what the actions' flows use; `ConsoleShell` is all of them, the whole app. A
module reaches the app through console.tui.base.app_access (one accessor per role), typed as
the role it uses, so none of them imports the app module (not even under TYPE_CHECKING): the
app imports the screens, never the other way round. The app satisfies ConsoleShell (checked in
console/tui/app.py), and the tests' stand-ins the roles they host (tests/tui/form_host.py). It
imports no module of console.tui that imports a screen, a widget or the app: only Textual, the
client, the models and the small types below the TUI.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from console.tui.base.dialog_host import DialogHost

if TYPE_CHECKING:
    from datetime import datetime

    from textual.await_complete import AwaitComplete
    from textual.notifications import SeverityLevel
    from textual.screen import Screen
    from textual.signal import Signal
    from textual.worker import Worker, WorkType

    from console.client.client import AdminClient
    from console.estate.plan import Plan
    from console.keys.rotation import Rotation
    from console.models import UsageReport
    from console.profiles.preferences import Preferences
    from console.tui.base.connection import Connection, ProfileSource
    from console.tui.base.problems import ConsoleProblem
    from console.tui.base.session import Session
    from console.tui.base.shown import Shown
    from console.tui.browse.first_page import FirstPage
    from console.tui.browse.kinds import ResourceKind
    from console.tui.forms.run_targets import ReactTarget, RunTarget
    from console.tui.widgets.section_loader import SectionLoader
    from console.usage_history.forecast import Forecast
    from console.usage_history.store import HistoryStore

ResultT = TypeVar("ResultT")

__all__ = [
    "Chrome",
    "Connecting",
    "ConsoleShell",
    "ConsoleView",
    "DiffView",
    "FlowHost",
    "KeyPrompts",
    "ListView",
    "Notices",
    "PlanView",
    "PreferenceHost",
    "Router",
    "SessionHost",
    "Usage",
    "Work",
]


class ListView(Protocol):
    """A list section as others read it (console.tui.widgets.resource_list.ResourceList)."""

    @property
    def current_row(self) -> Shown | None: ...


class ConsoleView(Protocol):
    """The console screen as others read it (console.tui.screens.console.ConsoleScreen): which
    section shows, and its widgets, to refresh after a change."""

    @property
    def current(self) -> str: ...

    @property
    def current_list(self) -> ListView | None: ...

    def find_section(self, key: str) -> SectionLoader | None: ...

    def section_widget(self, key: str | None = None) -> SectionLoader: ...

    def show_section(self, key: str) -> None: ...

    def call_after_refresh(self, callback: Any, *args: Any, **kwargs: Any) -> bool: ...

    def action_refresh(self) -> None: ...


class PlanView(Protocol):
    """A promotion's plan on screen (console.tui.screens.estate.PlanScreen), as the flow that
    computes the plan fills it in."""

    @property
    def is_mounted(self) -> bool: ...

    def show_plan(
        self, plan: Plan, *, refusal: str | None = None, warning: str | None = None
    ) -> None: ...

    def show_problem(self, message: str) -> None: ...


class DiffView(Protocol):
    """The whole-tenant diff on screen (console.tui.screens.estate.TenantDiffScreen), as the
    flow that reads both tenants fills it in."""

    @property
    def is_mounted(self) -> bool: ...

    def show_plan(self, plan: Plan) -> None: ...

    def show_problem(self, message: str) -> None: ...


class SessionHost(Protocol):
    """The app as the holder of the session: the connection, its client, read-only mode and
    what the service in use lacks (console.tui.base.session)."""

    @property
    def session(self) -> Session:
        """The current connection's session (console.tui.base.session): a new one on every
        connect, so nothing learnt over one connection is used for the next."""
        ...

    session_signal: Signal[Session]
    """Publishes the session when it is replaced or what the header shows of it changes."""

    @property
    def connection(self) -> Connection | None:
        """The session's connection."""
        ...

    @connection.setter
    def connection(self, connection: Connection | None) -> None:
        """The same tenant with another key (regenerated): the session stays."""
        ...

    profiles: ProfileSource

    @property
    def read_only(self) -> bool:
        """Read-only mode: nothing that changes data is offered or done (the session's)."""
        ...

    @property
    def unavailable(self) -> set[str]:
        """What the service in use does not offer (the session's; see mark_unavailable)."""
        ...

    @property
    def key_rejected(self) -> bool:
        """The service rejected the session's key (401)."""
        ...

    @property
    def usage_line(self) -> str:
        """The session's usage summary, as the header shows it."""
        ...

    client_factory: Callable[..., AdminClient]
    """Makes a client for a connection (another profile's, for promotion)."""

    @property
    def client(self) -> AdminClient:
        """The connection's client (raises without a connection with a key)."""
        ...

    def connected_client(self) -> AdminClient | None:
        """As `client`, but None when there is no connection with a key."""
        ...

    def mark_unavailable(self, feature: str) -> None:
        """The service lacks `feature`: said in the header, refused until the profile changes."""
        ...

    def refresh_header_info(self) -> None:
        """The session's tenant name and usage line read again, for the header."""
        ...


class Connecting(Protocol):
    """The app as what changes the connection: another profile, the demo's service."""

    def switch_profile(self, name: str) -> None: ...

    async def connect(self, connection: Connection, *, first_page: FirstPage | None = None) -> None:
        """Connects to `connection` (a new console screen for it)."""
        ...

    async def start_demo_service(self) -> Connection: ...


class KeyPrompts(Protocol):
    """The app as what asks for a new key and checks one before it is kept."""

    def prompt_new_key(self, connection: Connection | None = None, reason: str = "") -> None: ...

    async def check_new_key(
        self, connection: Connection, key: str, *, session_only: bool = False
    ) -> Connection | str: ...


class Chrome(Protocol):
    """The app as what every screen's chrome uses: the clock, the styles read after start,
    the clipboard."""

    clock_signal: Signal[datetime]
    """Publishes the time on every tick of the clock (console.tui.base.clock_ticks)."""

    def load_later_styles(self) -> None: ...

    def copy_id(self, value: str) -> None: ...


class Usage(Protocol):
    """The app as what keeps the usage: the header's usage line, the usage history (issue
    28) and its forecast."""

    def after_first_rows(self) -> None: ...

    def set_usage(self, report: UsageReport) -> None: ...

    def usage_history_for(self, base_url: str) -> HistoryStore: ...

    def record_usage(
        self,
        base_url: str,
        report: UsageReport | None,
        *,
        reader: str,
        done: Callable[[list[Any], Forecast], None] | None = None,
    ) -> None: ...


@runtime_checkable
class PreferenceHost(Protocol):
    """The app as what remembers preferences for the next start (the theme, the usage
    auto-refresh). Runtime-checkable: a reusable widget (the usage dashboard) may be hosted
    by an app other than the console's, which has none."""

    @property
    def preferences(self) -> Preferences | None:
        """Once loaded (None: the defaults)."""
        ...

    def set_preference(self, **values: str | int | None) -> None: ...


class Notices(Protocol):
    """The app as what tells the user: a notification, a problem a section also shows."""

    def report_problem(self, problem: ConsoleProblem) -> None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...


class Router(DialogHost, Protocol):
    """The app as the one router: it opens every screen (dialogs with DialogHost's ask and
    show), so that a palette provider, a form or a policy does not import one."""

    @property
    def console_screen(self) -> ConsoleView | None: ...

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    def open_detail(self, kind: ResourceKind, item: Shown) -> None:
        """The detail of `item` (a model, or a list's row), over the console screen."""
        ...

    def open_detail_by_id(
        self, kind: ResourceKind, item_id: str, *, over: object | None = None
    ) -> None:
        """The detail of an object known by id only (read afresh), as open_detail opens one:
        over the console screen, or over `over` (a review's screen: escape comes back)."""
        ...

    def highlighted_permission(self) -> str | None:
        """The permission under the cursor in the Permissions section, if on screen."""
        ...

    def open_test_run(self, target: RunTarget) -> None:
        """The test-run screen for `target` (a form's or a detail's code), above."""
        ...

    def open_react(self, target: ReactTarget) -> None:
        """The React screen for a reactor (the declared React action's flow), above."""
        ...

    def react_with(self, kind: ResourceKind, obj: Shown) -> None:
        """The declared React action on `obj` (its guard, then its flow): for a form, which
        cannot import the actions."""
        ...

    def open_access_review(self, flag: str | None = None) -> None: ...

    def open_who_holds(self, permission: str) -> None: ...

    def open_history(self) -> None: ...

    def open_logs(self, entity_type: str, entity_id: str) -> None:
        """The Logs section filtered to one object's entries (`L`), over whatever is on
        screen: what is above the console screen closes."""
        ...

    def open_rotation(
        self, rotation: Rotation, *, consequences: str = ""
    ) -> asyncio.Future[str | None]:
        """The rotation's last step (console.tui.screens.rotation), above; the future is the
        choice: "revoke", "cancel", or None (later). Awaited in a worker."""
        ...

    def open_promotion(self, title: str) -> tuple[PlanView, asyncio.Future[bool]]:
        """The promotion's plan dialog, open at once with a loading line; the flow fills the
        view in, and the future is the answer (True: apply). Awaited in a worker."""
        ...

    async def open_estate_diff(self, target: str) -> DiffView:
        """The whole-tenant diff with profile `target`, above, once mounted; the flow fills
        it in."""
        ...

    def pop_screen(self) -> AwaitComplete: ...


class Work(Protocol):
    """The app as what runs work (Textual's workers)."""

    def run_worker(
        self,
        work: WorkType[ResultT],
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[ResultT]: ...


class FlowHost(SessionHost, Notices, Router, Work, Protocol):
    """What the actions' flows use of the app (console.tui.actions): the session and its
    client, notices, the screens and dialogs they ask for, workers."""


class ConsoleShell(FlowHost, Connecting, KeyPrompts, Chrome, Usage, PreferenceHost, Protocol):
    """The whole app, every role: what the app satisfies (checked in console/tui/app.py)."""
