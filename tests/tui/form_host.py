"""A tiny app that hosts one form or flow against a real client, for the form, modal and
action tests. It owns its client (made on mount, closed on unmount), so the same host
works under Pilot and under snap_compare's own event loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, TypeVar

from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.screen import Screen
from textual.signal import Signal
from textual.widgets import Static

import console.tui
from console.client import AdminClient
from console.tui.base.connection import ProfileSource, SavedProfiles
from console.tui.base.session import Session

if TYPE_CHECKING:
    from datetime import datetime

    from textual.screen import ScreenResultCallbackType
    from textual.widget import AwaitMount

    from console.tui.base.shell import Chrome, Connecting, FlowHost, KeyPrompts

ResultT = TypeVar("ResultT")

SIZE = (120, 40)
CONSOLE_CSS: list[str | PurePath] = [
    Path(console.tui.__file__).with_name(name) for name in ("console.tcss", "later.tcss")
]


class FormHost(App[None]):
    """Pushes `make_screen(client)` on mount and keeps what it dismissed with in `result`.

    A stand-in for the console's app, in the roles (console.tui.base.shell) of what it hosts:
    the flows' (FlowHost: a session with the client, connection, read-only mode and what the
    service lacks, the profiles; notices; the router; workers), the key prompt's (Connecting,
    KeyPrompts) and the chrome of a detail (Chrome), without the console screen. What of
    those roles the hosted screens never reach is there for the type checker and fails if
    one does."""

    CSS_PATH = CONSOLE_CSS  # the console's stylesheet: forms and dialogs are laid out there

    def __init__(
        self,
        make_screen: Callable[[Any], Screen[Any]] | None = None,
        *,
        base_url: str | None = None,
        key: str | None = None,
        read_only: bool = False,
        connection: Any = None,
        profiles: ProfileSource | None = None,
    ) -> None:
        super().__init__()
        self.make_screen = make_screen
        self.base_url = base_url
        self.key = key
        self.session_signal: Signal[Session] = Signal(self, "session")
        self.clock_signal: Signal[datetime] = Signal(self, "clock")
        self.session = Session(connection, read_only=read_only, changed=self.session_signal)
        self.profiles: ProfileSource = profiles if profiles is not None else SavedProfiles()
        self.console_screen = None
        self.form: Any = None
        self.result: Any = None
        self.dismissed = False
        self.notes: list[str] = []
        self.client_factory: Any = AdminClient

    # ---- the session's, as the app has them --------------------------------------------------

    @property
    def client(self) -> Any:
        return self.session.client

    @client.setter
    def client(self, client: Any) -> None:
        self.session.client = client

    @property
    def connection(self) -> Any:
        return self.session.connection

    @connection.setter
    def connection(self, connection: Any) -> None:
        self.session.connection = connection

    @property
    def read_only(self) -> bool:
        return self.session.read_only

    @property
    def unavailable(self) -> set[str]:
        return self.session.unavailable

    @property
    def key_rejected(self) -> bool:
        return self.session.key_rejected

    @property
    def usage_line(self) -> str:
        return self.session.usage_line

    def compose(self) -> ComposeResult:
        yield Static("Host app behind the form.", id="host")

    async def on_mount(self) -> None:
        if self.base_url is not None:
            self.client = AdminClient(self.base_url, self.key or "")
        if self.make_screen is not None:
            self.form = self.make_screen(self.client)
            await self.push_screen(self.form, self._done)

    async def on_unmount(self) -> None:
        if self.client is not None:
            await self.client.aclose()

    def connected_client(self) -> Any:
        return self.client

    def refresh_header_info(self) -> None:
        """No header here."""

    def mark_unavailable(self, feature: str) -> None:
        self.session.mark_unavailable(feature)

    # ---- the rest of the roles: not reached by the forms and flows hosted here ------------

    def switch_profile(self, name: str) -> None:
        raise NotImplementedError("the form host has no profiles to switch")

    async def connect(self, connection: Any, *, first_page: Any = None) -> None:
        raise NotImplementedError("the form host has no console to connect")

    async def check_new_key(self, connection: Any, key: str, *, session_only: bool = False) -> Any:
        raise NotImplementedError("the form host checks no key")

    async def start_demo_service(self) -> Any:
        raise NotImplementedError("the form host starts no service")

    def prompt_new_key(self, connection: Any = None, reason: str = "") -> None:
        raise NotImplementedError("the form host asks for no key")

    def report_problem(self, problem: Any) -> None:
        self.notify(problem.message, title=problem.title, severity="error")

    def load_later_styles(self) -> None:
        """The console's stylesheets are both loaded (CSS_PATH)."""

    def copy_id(self, value: str) -> None:
        self.copy_to_clipboard(value)

    def open_detail(self, kind: Any, item: Any) -> None:
        raise NotImplementedError("the form host opens no detail")

    def open_detail_by_id(self, kind: Any, item_id: str, *, over: object | None = None) -> None:
        from console.tui.screens.detail import DetailScreen

        self.push_screen(DetailScreen(kind, item_id=item_id))

    def highlighted_permission(self) -> str | None:
        return None

    def open_test_run(self, target: Any) -> None:
        from console.tui.screens.test_run import TestRunScreen

        self.push_screen(TestRunScreen(target))

    def open_react(self, target: Any) -> None:
        from console.tui.screens.react import ReactScreen

        self.push_screen(ReactScreen(target))

    def react_with(self, kind: Any, obj: Any) -> None:
        from console.tui.actions.declarations import REACT, Target, start

        start(REACT, self, Target(kind, obj))

    def open_access_review(self, flag: str | None = None) -> None:
        raise NotImplementedError("the form host opens no review")

    def open_who_holds(self, permission: str) -> None:
        raise NotImplementedError("the form host opens no review")

    def open_history(self) -> None:
        raise NotImplementedError("the form host opens no history")

    def open_logs(self, entity_type: str, entity_id: str) -> None:
        raise NotImplementedError("the form host has no Logs section")

    # ---- dialogs and the screens the flows open: above the hosted one -------------------

    def ask(self, dialog: Screen[ResultT]) -> asyncio.Future[ResultT]:
        return self.push_screen(dialog, wait_for_dismiss=True)

    def show(
        self, dialog: Screen[ResultT], callback: ScreenResultCallbackType[ResultT] | None = None
    ) -> AwaitMount:
        return self.push_screen(dialog, callback)

    def open_rotation(self, rotation: Any, *, consequences: str = "") -> asyncio.Future[Any]:
        from console.tui.screens.rotation import RotationScreen

        return self.push_screen(
            RotationScreen(rotation, consequences=consequences), wait_for_dismiss=True
        )

    def open_promotion(self, title: str) -> tuple[Any, asyncio.Future[bool]]:
        from console.tui.screens.estate import PlanScreen

        screen = PlanScreen(title)
        return screen, self.push_screen(screen, wait_for_dismiss=True)

    async def open_estate_diff(self, target: str) -> Any:
        from console.tui.screens.estate import TenantDiffScreen

        screen = TenantDiffScreen(target)
        await self.push_screen(screen)
        return screen

    def _done(self, result: Any) -> None:
        self.result = result
        self.dismissed = True

    def notify(self, message: str, **kwargs: Any) -> None:
        self.notes.append(message)
        super().notify(message, **kwargs)


if TYPE_CHECKING:  # the form host plays the roles of the app that what it hosts uses
    _flows: type[FlowHost] = FormHost
    _connecting: type[Connecting] = FormHost
    _key_prompts: type[KeyPrompts] = FormHost
    _chrome: type[Chrome] = FormHost


def steady_cursors(screen: Screen[Any]) -> None:
    """Cursors drawn as they are when still, for a picture that does not depend on the moment
    it is taken. A TextArea keys its line cache on the cursor only while it blinks, so a line
    cached in the blink's off phase would be reused with no cursor: the cache is cleared."""
    from textual.widgets import Input, TextArea

    for widget in screen.query(Input):
        widget.cursor_blink = False
    for area in screen.query(TextArea):
        area.cursor_blink = False
        area._line_cache.clear()
        area.refresh()


async def wait_until(
    pilot: Pilot[Any], predicate: Callable[[], Any], *, timeout: float = 15.0, what: str = ""
) -> None:
    """Lets the app run until `predicate()` holds, then one more refresh (so a screen that
    just appeared is laid out before it is clicked); fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        await pilot.pause(0.05)
    await pilot.pause()


def screen_is(app: App[Any], kind: type) -> Callable[[], bool]:
    """The top screen is a `kind`, mounted and laid out."""
    return lambda: bool(
        isinstance(app.screen, kind) and app.screen.is_mounted and app.screen.size.area
    )
