"""The Textual application: one connection (profile) at a time, browsed section by section.

Its dependencies come in through the constructor, so tests and the demo drive it with a
connection held in memory, and the real console with the saved profiles and the keyring.

Screens other than the console's own (detail, help, profiles, welcome) are imported when
first opened, and the client (httpx, pydantic) once the first rows are on screen: the first
page comes through console.client.plain_get, so the rows reach the screen sooner.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.signal import Signal

from console.models.contract import DEFAULT_KEY_HEADER
from console.tui.app_parts.client_setup import ClientFactory, ClientSetup
from console.tui.app_parts.demo_watch import SERVICE_WATCH_SECONDS, DemoWatch, LocalService
from console.tui.app_parts.key_check import check_new_key
from console.tui.app_parts.preferences import PreferenceKeeper
from console.tui.app_parts.styles import LATER_CSS, load_later_styles, needs_later_styles
from console.tui.app_parts.usage_keeper import UsageKeeper
from console.tui.base.connection import (
    Connection,
    MemoryProfiles,
    ProfileSource,
    SavedProfiles,
    close_quietly,
)
from console.tui.base.formatting import clock_time
from console.tui.base.logs import hide_secret, log_file
from console.tui.base.problems import ConsoleProblem
from console.tui.base.problems import describe as describe_problem
from console.tui.base.session import Session
from console.tui.browse.first_page import EarlyStart, FirstPage, request_first_page
from console.tui.browse.kinds import ResourceKind
from console.tui.browse.sections import SECTIONS
from console.tui.palette.commands import ObjectProvider
from console.tui.screens.console import ConsoleScreen, highlighted_permission
from console.tui.widgets.resource_list import ResourceList

if TYPE_CHECKING:
    from datetime import datetime

    from textual.command import Provider
    from textual.notifications import Notify
    from textual.screen import ScreenResultCallbackType
    from textual.widget import AwaitMount

    from console.client.client import AdminClient
    from console.keys.rotation import Rotation
    from console.models import UsageReport
    from console.profiles.preferences import Preferences
    from console.tui.base.connection import ProfileSummary
    from console.tui.base.shell import ConsoleShell, DiffView, PlanView
    from console.tui.base.shown import Shown
    from console.tui.forms.run_targets import ReactTarget, RunTarget
    from console.usage_history.forecast import Forecast
    from console.usage_history.store import HistoryStore

__all__ = [
    "LATER_CSS",
    "ClientFactory",
    "LocalService",
    "NotConnected",
    "TenantConsoleApp",
    "default_client",
    "unexpected_error_message",
]

log = logging.getLogger(__name__)

ScreenResultT = TypeVar("ScreenResultT")

TIME_TICK_SECONDS = 30.0
"""How often relative times ("3 minutes ago") on screen are brought up to date."""
LATER_STYLES_DELAY = 1.0
"""Seconds after mount at which later.tcss is read if no screen has needed it yet: after
the first rows on a local service, and while the console idles for a remote one."""


UNEXPECTED_TITLE = "Unexpected error (the console carries on)"


class NotConnected(AttributeError):
    """The app has no client: no connection with a key yet (the welcome screen, a key
    prompt). An AttributeError, so `getattr(app, "client", None)` still reads None."""


def unexpected_error_message(error: BaseException) -> str:
    """What a bug's notification says: the error, and the log file with its traceback."""
    where = log_file()
    details = f" Details are in {where}." if where is not None else ""
    return f"{type(error).__name__}: {error}{details}"


def usage_commands() -> type[Provider]:
    """The usage dashboard's palette commands, imported when the palette first opens."""
    from console.tui.palette.usage_commands import UsageCommands

    return UsageCommands


def estate_commands() -> type[Provider]:
    """Copy to profile and the diff with another profile, imported when the palette opens."""
    from console.tui.palette.estate_commands import EstateCommands

    return EstateCommands


def showing_welcome(app: App[int]) -> bool:
    """Whether the welcome screen is on top (never imported, it was never shown)."""
    welcome = sys.modules.get("console.tui.screens.welcome")
    return welcome is not None and isinstance(app.screen, welcome.WelcomeScreen)


def showing_overview(app: App[int]) -> bool:
    """Whether the overview (`P`) is on top: its footer has no `P` then."""
    overview = sys.modules.get("console.tui.screens.overview")
    return overview is not None and isinstance(app.screen, overview.OverviewScreen)


async def load_client_modules() -> None:
    """Imports the client (httpx, pydantic, the models) in a thread, so the screen stays
    responsive while they load after the first rows. Once they are in, nothing to do."""
    if "console.client.client" in sys.modules:
        return
    import console.client

    await asyncio.to_thread(getattr, console.client, "AdminClient")


def default_client(base_url: str, key: str, key_header: str = DEFAULT_KEY_HEADER) -> AdminClient:
    """A client that gives up quickly: a person is waiting, and `r` retries."""
    from console.client import AdminClient, RetryPolicy

    retry = RetryPolicy(max_attempts=3, max_total_wait=4.0)
    return AdminClient(base_url, key, retry=retry, key_header=key_header)


class TenantConsoleApp(App[int]):
    """k9s-like browser of one tenant's Applications, Proxies, Formulas, Permissions and more."""

    CSS_PATH = "console.tcss"
    TITLE = "tenant-console"
    COMMANDS = App.COMMANDS | {ObjectProvider, usage_commands, estate_commands}
    BINDINGS = [
        Binding("p", "switch_profile", "Profile"),
        Binding("P", "overview", "All profiles"),  # issue 17: screens/overview.py
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("q", "quit", "Quit"),
        # Before any widget's own ctrl+c (an input's copy): the selection is copied here,
        # and with none, ctrl+c quits (console.tui.base.quitting).
        Binding("ctrl+c", "copy_or_quit", "Copy or quit", show=False, priority=True, system=True),
    ]

    def on_notify(self, event: Notify) -> None:
        """Runs before App's own handler shows the toast: the new one replaces those it
        repeats (same title, or same untitled text), so repeated presses never stack."""
        from console.tui.base.notices import drop_repeats

        drop_repeats(self, event.notification)

    def __init__(
        self,
        *,
        connection: Connection | None = None,
        profiles: ProfileSource | None = None,
        profile_name: str | None = None,
        read_only: bool = False,
        client_factory: ClientFactory = default_client,
        start_demo: Callable[[], LocalService] | None = None,
        early_start: EarlyStart | None = None,
        exit_signals: tuple[int, ...] = (),
        demo_service: LocalService | None = None,
        persist_preferences: bool = False,
    ) -> None:
        """`early_start`: the profile's connection and first page, already on their way
        (see console.tui.browse.first_page); used if it is for `profile_name`. `exit_signals`:
        signals (a hang-up, a kill) that end the app as `q` does, through its event loop.
        `demo_service`: the local service `connection` runs on (the demo), watched so that
        the console says when it stops; it is stopped by whoever started it.
        `persist_preferences`: read and save the theme and usage auto-refresh in the config
        dir (the real console; tests and snapshots keep them in memory)."""
        super().__init__()
        if profiles is None:
            profiles = MemoryProfiles([connection]) if connection else SavedProfiles()
        self.profiles: ProfileSource = profiles
        self.initial_connection = connection
        self.profile_name = profile_name
        self._read_only = read_only
        self.client_factory = client_factory
        self._start_demo = start_demo
        self._early_start = early_start
        self._exit_signals = exit_signals
        self.session_signal: Signal[Session] = Signal(self, "session")
        """Publishes the session when it is replaced, or when what the header shows of it
        changes (the header subscribes)."""
        self.clock_signal: Signal[datetime] = Signal(self, "clock")
        """Publishes the time every TIME_TICK_SECONDS: what shows relative times ("3 minutes
        ago") subscribes (console.tui.base.clock_ticks.follow_clock)."""
        self._session = Session(read_only=read_only, changed=self.session_signal)
        self.profile_names: list[str] = []
        # What the app hands off: each collaborator has one job (console.tui.app_parts).
        self.client_setup = ClientSetup(self, lambda: self._session)
        self.usage = UsageKeeper(self)
        self.demo_watch = DemoWatch(self, self.service_failed, demo_service)
        self.preference_keeper = PreferenceKeeper(self, persist=persist_preferences)

    # ---- start and stop ----------------------------------------------------------------

    async def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        for signum in self._exit_signals:  # the loop runs the handler: a clean shutdown
            loop.add_signal_handler(signum, self.exit, None, 128 + signum)
        self.preference_keeper.load()
        self.set_interval(TIME_TICK_SECONDS, self.refresh_times)
        self.set_timer(LATER_STYLES_DELAY, self.load_later_styles)
        self.set_interval(SERVICE_WATCH_SECONDS, self.demo_watch.watch)
        if self.initial_connection is not None:
            await self.connect(self.initial_connection)
        else:
            self.run_worker(self._start_from_profiles(), exit_on_error=False)

    def load_later_styles(self) -> None:
        """Reads later.tcss (the Tenant and Usage sections, every screen but the console's)
        into the stylesheet, once. As part of console.tcss, parsing it and matching every
        widget against its rules cost about 10 ms of CPU before the first rows (issue 15).
        Read when the first of those opens (_load_screen_css, ConsoleScreen.show_section),
        or LATER_STYLES_DELAY after mount, whichever comes first."""
        load_later_styles(self)

    def _load_screen_css(self, screen: Screen[object]) -> None:
        """Textual internal (see the README's upgrade checklist): called before any screen is
        pushed, switched to or made a mode's, so later.tcss is there before it is styled;
        not for Textual's default screen or the console's, which console.tcss lays out."""
        if needs_later_styles(screen):
            self.load_later_styles()
        super()._load_screen_css(screen)

    async def _start_from_profiles(self) -> None:
        early, self._early_start = self._early_start, None
        if early is not None and early.profile_name != self.profile_name:
            early = None
        try:
            if early is not None:
                connection = await asyncio.wrap_future(early.connection)
            else:
                connection = await asyncio.to_thread(self.profiles.resolve, self.profile_name)
        except Exception as exc:
            log.warning("The profile could not be opened", exc_info=True)
            from console.tui.screens.welcome import WelcomeScreen

            names = await self._names()
            await self.push_screen(WelcomeScreen())
            if names or self.profile_name:
                self.notify(str(exc), title="Profile", severity="error")
            return
        await self.connect(connection, first_page=early.first_page if early else None)

    async def _names(self) -> list[str]:
        try:
            self.profile_names = await asyncio.to_thread(self.profiles.names)
        except Exception:
            log.warning("The profile names could not be read", exc_info=True)
            self.profile_names = []
        return self.profile_names

    async def on_unmount(self) -> None:
        self.demo_watch.stop_watching()
        await self._close_client()
        await self.demo_watch.stop_started()

    async def _close_client(self) -> None:
        client, self.session.client = self.session.client, None
        await close_quietly(client)

    @property
    def preferences(self) -> Preferences | None:
        """The preferences once loaded or set (None: the defaults)."""
        return self.preference_keeper.preferences

    def set_preference(self, **values: str | int | None) -> None:
        """Remembers a preference (theme=..., usage_auto_refresh=...) for the next start."""
        self.preference_keeper.set(**values)

    def refresh_times(self) -> None:
        """Relative times ("just now", "3 minutes ago") as of now, wherever they show: the
        clock signal reaches every screen and widget that follows it (follow_clock)."""
        from console.clock import now

        self.clock_signal.publish(now())

    def _handle_exception(self, error: Exception) -> None:
        """The last net: a bug becomes a notification, never a traceback on the admin's screen.

        Headless runs (tests, snapshots) keep Textual's behaviour, so bugs fail loudly there.
        """
        log.error("Unexpected error", exc_info=error)
        if self.is_headless or not isinstance(error, Exception) or not self.is_running:
            super()._handle_exception(error)
            return
        try:
            self.notify(unexpected_error_message(error), title=UNEXPECTED_TITLE, severity="error")
        except Exception:
            log.exception("Could not show the unexpected error")

    # ---- the session -------------------------------------------------------------------

    @property
    def session(self) -> Session:
        """The current connection's session (a new one on every connect)."""
        return self._session

    def _new_session(self, connection: Connection) -> Session:
        """Makes a fresh session for `connection` the current one; the header follows."""
        old = self._session
        self._session = Session(connection, read_only=self._read_only, changed=self.session_signal)
        self.session_signal.publish(self._session)
        return old

    @property
    def connection(self) -> Connection | None:
        return self._session.connection

    @connection.setter
    def connection(self, connection: Connection | None) -> None:
        """The same tenant with another key (regenerated): the session stays."""
        self._session.connection = connection

    @property
    def read_only(self) -> bool:
        """Read-only mode: nothing that changes data is offered or done."""
        return self._session.read_only

    @property
    def unavailable(self) -> set[str]:
        """What the service in use does not offer (see mark_unavailable)."""
        return self._session.unavailable

    @property
    def key_rejected(self) -> bool:
        return self._session.key_rejected

    @property
    def usage_line(self) -> str:
        return self._session.usage_line

    # ---- connection --------------------------------------------------------------------

    @property
    def console_screen(self) -> ConsoleScreen | None:
        for screen in self.screen_stack:
            if isinstance(screen, ConsoleScreen):
                return screen
        return None

    @property
    def client(self) -> AdminClient:
        """The connection's client, made on first use: until the first rows show, nothing
        needs it (see request_first_page), so httpx and pydantic load after them. Raises
        NotConnected without a connection with a key (see connected_client)."""
        client = self.connected_client()
        if client is None:
            raise NotConnected("No connection with a key to a service yet.")
        return client

    def connected_client(self) -> AdminClient | None:
        """As `client`, but None when there is no connection with a key."""
        session = self._session
        connection = session.connection
        if session.client is None and connection is not None and connection.key:
            session.client = self.client_setup.make(self.client_factory, connection, connection.key)
        return session.client

    async def connect(self, connection: Connection, *, first_page: FirstPage | None = None) -> None:
        """Talks to this tenant from now on: a new client, every section reloaded.

        `first_page`: a future of the first section's page 1 for this connection, if one was
        asked for already (see request_first_page)."""
        hide_secret(connection.key)
        if not connection.key:
            reason = connection.problem or f"No key is stored for profile {connection.label}."
            self.prompt_new_key(connection, reason)
            return
        # Before any await: `client` and everything learnt are this connection's from now.
        old = self._new_session(connection)
        await close_quietly(old.client)
        screen = self.console_screen
        if screen is None:  # the header and profile names wait for the first rows
            screen = ConsoleScreen(first_page=first_page or request_first_page(connection))
            if showing_welcome(self):
                await self.switch_screen(screen)
            else:
                await self.push_screen(screen)
            return
        while self.screen is not screen:
            await self.pop_screen()
        screen.reset()
        self.after_first_rows()

    def after_first_rows(self) -> None:
        """What the header and the profile palette need, once the first rows are on screen."""
        self.refresh_header_info()
        self.run_worker(self._names(), group="names", exit_on_error=False)
        self.run_worker(self._code_surfaces(), group="code-surfaces", exit_on_error=False)

    async def _code_surfaces(self) -> None:
        """The code sections the service does not offer, marked as such (issue 35)."""
        from console.tui.browse.code_surfaces import note_code_surfaces

        client = self.connected_client()
        if client is not None:
            await note_code_surfaces(self, client)

    def refresh_header_info(self) -> None:
        self.run_worker(self._header_info(), group="header", exclusive=True, exit_on_error=False)

    async def _header_info(self) -> None:
        """The tenant's name and a usage line for the header. Failures are reported where
        they happen, by the sections; here the header only stops claiming what it cannot
        confirm: no usage kept from before, a notice when the service does not answer."""
        await load_client_modules()
        client, session = self.connected_client(), self._session
        connection = session.connection
        if client is None:
            return
        try:
            tenant = await client.tenant.get()
        except Exception as exc:
            log.warning("The tenant could not be read for the header", exc_info=True)
            problem = describe_problem(exc)
            if problem.outage:  # not a refusal (401, 403): the service did not answer
                session.usage_line = ""
                session.tenant_name = session.tenant_name or "—"
                if session is self._session:
                    self.service_failed(problem)
                return
            session.tenant_name = "—"
        else:
            session.tenant_name, session.tenant_id = tenant.name, tenant.id
            session.header_notice = ""
            if connection is not None and connection.profile:
                self.run_worker(
                    self._remember_tenant(connection.profile, tenant.name), exit_on_error=False
                )
        try:
            report = await client.tenant.usage()
        except Exception:
            log.warning("The usage could not be read for the header", exc_info=True)
            session.usage_line = ""  # never the last tenant's, or an old one, as if current
            return
        if session is not self._session:
            return  # another tenant now: its own header info is on its way
        self.set_usage(report)
        if connection is not None:
            self.record_usage(connection.base_url, report, reader="header")

    # ---- usage history (issue 28) --------------------------------------------------------

    def usage_history_for(self, base_url: str) -> HistoryStore:
        """Where reports from `base_url` are kept (console.tui.app_parts.usage_keeper)."""
        return self.usage.history_for(base_url)

    def record_usage(
        self,
        base_url: str,
        report: UsageReport | None,
        *,
        reader: str,
        done: Callable[[list, Forecast], None] | None = None,
    ) -> None:
        """Keeps the report in the usage history, then updates the header's forecast
        warning and hands the history to `done` (the dashboard)."""
        self.usage.record(base_url, report, reader=reader, done=done)

    async def _remember_tenant(self, profile: str, tenant_name: str) -> None:
        """Keeps the tenant's name with the profile, for the profile picker."""
        try:
            await asyncio.to_thread(self.profiles.remember_tenant, profile, tenant_name)
        except Exception:
            log.warning("Could not remember the tenant of profile %s", profile, exc_info=True)

    def service_failed(self, problem: ConsoleProblem) -> None:
        """The service did not answer (unreachable, 5xx, the demo's service gone): the header
        says so, and what the sections show is marked as last loaded."""
        from console.clock import now

        at = clock_time(now())
        self._session.header_notice = f"{problem.title.rstrip('.')} ({at})"
        screen = self.console_screen
        if screen is None:
            return
        for section in screen.sections():
            if section.is_mounted:
                section.mark_stale(at)

    def set_usage(self, report: UsageReport) -> None:
        from console.tui.widgets.usage_math import usage_summary  # not the dashboard: -1.5 MiB

        try:
            self._session.usage_line = usage_summary(report)
        except Exception:
            log.warning("The usage summary could not be made", exc_info=True)
            self._session.usage_line = ""
        screen = self.console_screen
        tenant = screen.tenant_view() if screen is not None else None
        if tenant is not None:
            tenant.refresh_fields()

    def mark_unavailable(self, feature: str) -> None:
        """The service in use lacks `feature` (a section key, or "regenerate"): say so in the
        header and refuse it until the profile changes, instead of asking again."""
        self._session.mark_unavailable(feature)
        self.refresh_bindings()

    # ---- problems ----------------------------------------------------------------------

    def report_problem(self, problem: ConsoleProblem) -> None:
        """A notification for a failure that a section also shows in place."""
        self.notify(problem.message, title=problem.title, severity="error")
        if problem.unauthorized and not self._session.key_rejected:
            self._session.key_rejected = True
            self.screen.refresh_bindings()
        if problem.outage:
            self.service_failed(problem)

    def prompt_new_key(self, connection: Connection | None = None, reason: str = "") -> None:
        """Asks for a new key, checked before it is kept. With no console behind (a profile
        without a usable key at start), the welcome screen asks: never an empty terminal."""
        connection = connection or self.connection
        if connection is None:
            return
        reason = reason or f"The service rejected the key of {connection.label}."
        if self.console_screen is None:
            self.show_welcome(connection, reason)
            return
        from console.tui.screens.profiles import KeyPrompt

        self.push_screen(KeyPrompt(connection, reason))

    def show_welcome(self, connection: Connection | None = None, reason: str = "") -> None:
        """The welcome screen: add a profile, or give `connection` the key it lacks."""
        from console.tui.screens.welcome import WelcomeScreen

        screen = WelcomeScreen(connection, reason)
        if showing_welcome(self):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    async def check_new_key(
        self, connection: Connection, key: str, *, session_only: bool = False
    ) -> Connection | str:
        """The connection with this key once the service accepted it, stored for the profile
        unless `session_only` (console.tui.app_parts.key_check); else why not."""
        return await check_new_key(self.profiles, self, connection, key, session_only=session_only)

    # ---- actions -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("switch_profile", "overview"):
            return not showing_welcome(self) and not (
                action == "overview" and showing_overview(self)
            )
        return True

    def action_help(self) -> None:
        """The keys reference, opened at the group of the screen on show."""
        from console.tui.screens.help import HelpScreen, help_group_of

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(start_at=help_group_of(self.screen)))

    def action_copy_or_quit(self) -> None:
        """ctrl+c: copies the selection (an input's, an editor's, the mouse's) where there
        is one; otherwise quits, as in k9s and lazygit (see action_quit)."""
        from console.tui.base.quitting import selected_text

        text = selected_text(self)
        if text:
            self.copy_to_clipboard(text)
            return
        self._quit("ctrl+c")

    async def action_quit(self) -> None:
        """q and ctrl+q: refused by a dialog holding what quitting loses (a key shown once),
        asked first where a form holds unsaved changes; pressed again on that question,
        they quit."""
        self._quit("quit")

    def _quit(self, pressed: str) -> None:
        from console.tui.base.quitting import quit_refusal, unsaved
        from console.tui.modals import QuitUnsavedModal

        if isinstance(self.screen, QuitUnsavedModal):  # the same key again: yes
            self.exit()
            return
        refused = quit_refusal(self.screen_stack, pressed)
        if refused is not None:
            refusing, said = refused
            if refusing is not self.screen:  # a dialog above it (a file prompt) hides it
                self.notify(said, title="Not quit", severity="warning")
            return
        what = unsaved(self.screen_stack)
        if not what:
            self.exit()
            return

        def answered(quit_anyway: bool | None) -> None:
            if quit_anyway:
                self.exit()

        self.push_screen(QuitUnsavedModal(what), answered)

    def action_overview(self) -> None:
        """Every profile at once: key, tenant, usage and counts (console.estate.overview)."""
        from console.tui.screens.overview import OverviewScreen

        if not isinstance(self.screen, OverviewScreen):
            self.push_screen(OverviewScreen())

    def action_switch_profile(self) -> None:
        self.run_worker(self._pick_profile(), group="profiles", exclusive=True, exit_on_error=False)

    async def _pick_profile(self) -> None:
        from console.tui.screens.profiles import ProfilePicker

        names = await self._names()
        active = self.connection.profile if self.connection else None
        summaries: list[ProfileSummary] | list[str]
        try:
            summaries, default = await asyncio.to_thread(self._summaries)
        except Exception:  # a damaged file: the names are enough to switch
            log.warning("The profile summaries could not be read", exc_info=True)
            summaries, default = names, None

        def chosen(name: str | None) -> None:
            if name and name != active:
                self.switch_profile(name)
            elif name:
                self.notify(f"Already on profile {name}.")

        await self.push_screen(ProfilePicker(summaries, active, default), chosen)

    def _summaries(self) -> tuple[list[ProfileSummary], str | None]:
        return self.profiles.summaries(), self.profiles.active()

    def switch_profile(self, name: str) -> None:
        self.run_worker(self._switch(name), group="profiles", exclusive=True, exit_on_error=False)

    async def _switch(self, name: str) -> None:
        try:
            connection = await asyncio.to_thread(self.profiles.resolve, name)
        except Exception as exc:
            log.warning("The profile could not be opened", exc_info=True)
            self.notify(str(exc), title=f"Profile {name}", severity="error")
            return
        await self.connect(connection)
        self.notify(f"Switched to profile {name}.", title="Profile")

    async def go_to_section(self, key: str) -> None:
        screen = self.console_screen
        if screen is None:
            return
        while self.screen is not screen and len(self.screen_stack) > 1:
            await self.pop_screen()
        screen.show_section(key)

    def open_detail(self, kind: ResourceKind, item: Shown) -> None:
        """The detail screen of `item`: a model, or an object as sent (a list's row)."""
        self.run_worker(self._open_detail(kind, item), exit_on_error=False)

    def open_detail_by_id(
        self, kind: ResourceKind, item_id: str, *, over: object | None = None
    ) -> None:
        """The detail of an object known by id only (a palette hit, a review's row), read
        afresh as it may be gone. Opened as open_detail opens one (over the console screen,
        with its list's labels), or over `over` when that is still open (a review's row:
        escape comes back to the review)."""
        self.run_worker(self._open_detail(kind, item_id=item_id, over=over), exit_on_error=False)

    async def _open_detail(
        self,
        kind: ResourceKind,
        item: Shown | None = None,
        *,
        item_id: str | None = None,
        over: object | None = None,
    ) -> None:
        """The one way to a detail screen: with a console screen only (a detail needs its
        lists' labels and sections to refresh), over it or over `over`, never stacked on
        another detail or a form."""
        from console.tui.screens.detail import DetailScreen

        screen = self.console_screen
        if screen is None:
            return
        below: object = screen
        if isinstance(over, Screen) and over in self.screen_stack:
            below = over
        while self.screen is not below and len(self.screen_stack) > 1:
            await self.pop_screen()
        if item is not None:
            try:
                item = kind.model_of(item)
            except Exception as exc:  # an object that does not match the API: shown as sent
                log.warning("A %s does not match its model", kind.singular, exc_info=True)
                self.notify(
                    str(exc), title=f"This {kind.singular} is shown as sent", severity="warning"
                )
        section = screen.find_section(kind.key)
        labels = section.labels if isinstance(section, ResourceList) else {}
        loaded_at = section.loaded_at if isinstance(section, ResourceList) else None
        if item is None:  # read afresh: the list's time says nothing of it
            loaded_at = None
        await self.push_screen(
            DetailScreen(kind, item, item_id=item_id, labels=labels, loaded_at=loaded_at)
        )

    def open_test_run(self, target: RunTarget) -> None:
        """The test-run screen for a form's or a detail's code, above (escape comes back)."""
        from console.tui.screens.test_run import TestRunScreen

        self.push_screen(TestRunScreen(target))

    def open_react(self, target: ReactTarget) -> None:
        """React on a reactor (console.tui.screens.react), above (escape comes back)."""
        from console.tui.screens.react import ReactScreen

        self.push_screen(ReactScreen(target))

    def react_with(self, kind: ResourceKind, obj: Shown) -> None:
        """The declared React action on `obj` (a form asks: it cannot import the actions)."""
        from console.tui.actions.declarations import REACT, Target, start

        start(REACT, self, Target(kind, obj))

    def open_access_review(self, flag: str | None = None) -> None:
        """The access review, above whatever is on screen (escape comes back)."""
        from console.tui.screens.review import ReviewScreen

        self.push_screen(ReviewScreen(flag))

    def open_who_holds(self, permission: str) -> None:
        """The applications holding `permission`, above whatever is on screen."""
        from console.tui.screens.holders import HoldersScreen

        self.push_screen(HoldersScreen(permission))

    def open_history(self) -> None:
        """History above whatever is on screen (escape comes back)."""
        from console.tui.screens.history import HistoryScreen

        self.push_screen(HistoryScreen())

    def open_logs(self, entity_type: str, entity_id: str) -> None:
        """The Logs section filtered to one object's entries, what is above the console
        screen closed first (`L` on a row or a detail)."""
        self.run_worker(self._open_logs(entity_type, entity_id), exit_on_error=False)

    async def _open_logs(self, entity_type: str, entity_id: str) -> None:
        from console.tui.browse.logs_look import LOGS, object_filter

        screen = self.console_screen
        if screen is None:
            return
        while self.screen is not screen and len(self.screen_stack) > 1:
            await self.pop_screen()
        screen.show_filtered(LOGS.key, object_filter(entity_type, entity_id))

    def open_rotation(
        self, rotation: Rotation, *, consequences: str = ""
    ) -> asyncio.Future[str | None]:
        """The rotation's last step above; the future is the choice (revoke, cancel, later)."""
        from console.tui.screens.rotation import RotationScreen

        return self.push_screen(
            RotationScreen(rotation, consequences=consequences), wait_for_dismiss=True
        )

    def open_promotion(self, title: str) -> tuple[PlanView, asyncio.Future[bool]]:
        """The promotion's plan dialog, at once (loading); the future is the answer."""
        from console.tui.screens.estate import PlanScreen

        screen = PlanScreen(title)
        return screen, self.push_screen(screen, wait_for_dismiss=True)

    async def open_estate_diff(self, target: str) -> DiffView:
        """The whole-tenant diff with profile `target`, above whatever is on screen."""
        from console.tui.screens.estate import TenantDiffScreen

        screen = TenantDiffScreen(target)
        await self.push_screen(screen)
        return screen

    def ask(self, dialog: Screen[ScreenResultT]) -> asyncio.Future[ScreenResultT]:
        """Opens a dialog (or a form) now; the future is what it dismisses with."""
        return self.push_screen(dialog, wait_for_dismiss=True)

    def show(
        self,
        dialog: Screen[ScreenResultT],
        callback: ScreenResultCallbackType[ScreenResultT] | None = None,
    ) -> AwaitMount:
        """Opens a dialog; `callback` gets what it dismisses with."""
        return self.push_screen(dialog, callback)

    def highlighted_permission(self) -> str | None:
        """The permission under the cursor in the Permissions section, if that is on screen."""
        return highlighted_permission(self)

    def copy_id(self, value: str) -> None:
        """Copies an id and says what was actually done (see console.tui.base.clipboard)."""
        self.run_worker(self._copy_id(value), group="copy", exit_on_error=False)

    async def _copy_id(self, value: str) -> None:
        from console.tui.base.clipboard import copy_text

        copied = await copy_text(self, value)
        title = f"Copied {value}" if copied.confirmed else f"Id {value}"
        self.notify(copied.message, title=title)

    async def start_demo_service(self) -> Connection:
        """From the welcome screen: a local service with demo data for this session."""
        service = await self.demo_watch.start(self._start_demo)
        connections = service.connections()
        self.profiles = MemoryProfiles(connections)
        return connections[0]

    # ---- command palette ---------------------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        if self.console_screen is not None:
            for section in SECTIONS:
                yield SystemCommand(
                    f"Go to {section.title}",
                    f"Key {section.hotkey}" if section.hotkey else "No number key: from here",
                    lambda key=section.key: self.run_worker(self.go_to_section(key)),
                )
            yield SystemCommand(
                "Switch profile", "Pick another profile (tenant)", self.action_switch_profile
            )
            yield SystemCommand(
                "All profiles: overview", "Every profile's key, tenant, usage", self.action_overview
            )
            active = self.connection.profile if self.connection else None
            for name in self.profile_names:
                if name != active:
                    yield SystemCommand(
                        f"Switch to profile {name}",
                        "Reload everything for that tenant",
                        lambda name=name: self.switch_profile(name),
                    )
        yield SystemCommand("Change theme", "Pick a colour theme", self.action_change_theme)
        yield SystemCommand("Help", "Every key of the console", self.action_help)
        yield SystemCommand("Quit", "Leave the console", lambda: self._quit("quit"))


if TYPE_CHECKING:  # the app is the shell the other modules are typed against
    _shell: type[ConsoleShell] = TenantConsoleApp
