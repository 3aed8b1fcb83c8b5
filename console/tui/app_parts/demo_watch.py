"""The local services the console runs on (the demo's): watched while the console runs, so
that it says once when one stopped, and those it started stopped on exit."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from console.tui.base.problems import ConsoleProblem

if TYPE_CHECKING:
    from console.tui.base.connection import Connection
    from console.tui.base.shell import Notices

log = logging.getLogger(__name__)

SERVICE_WATCH_SECONDS = 2.0
"""How often the demo's local service is checked (a poll of its process: no request)."""


class LocalService(Protocol):
    """A local service this console runs on (the demo's, console.tui.start.demo.DemoService)."""

    @property
    def base_url(self) -> str: ...

    key: str | None
    reported_dead: bool
    """Set by the console once it said the service stopped (it says so once)."""

    @property
    def running(self) -> bool:
        """Whether its process is still there."""
        ...

    @property
    def exit_code(self) -> int | None:
        """Its process's exit code once it ended."""
        ...

    def stop(self) -> None: ...

    def connections(self) -> list[Connection]:
        """The in-memory profiles of its tenants, the first the one to open."""
        ...


class DemoWatch:
    """The services watched: the one the console was opened on, and those it started (from
    the welcome screen), which it stops on exit."""

    def __init__(
        self,
        notices: Notices,
        failed: Callable[[ConsoleProblem], None],
        watched: LocalService | None = None,
    ) -> None:
        """`notices`: where a stopped service is said; `failed`: the app's reaction to a
        service that does not answer (the header says so, the lists are marked stale)."""
        self._notices = notices
        self._failed = failed
        self._watched: list[LocalService] = [watched] if watched is not None else []
        self.started: list[LocalService] = []
        """Local services this app started (from the welcome screen): stopped on exit."""
        self._stopping = False

    def watch(self) -> None:
        """Notices when a local service this console runs on has stopped (said once)."""
        if self._stopping:
            return
        for service in [*self._watched, *self.started]:
            if service.running or service.reported_dead:
                continue
            service.reported_dead = True
            code = service.exit_code
            how = f" (exit code {code})" if code is not None else ""
            message = (
                f"The demo's local service stopped{how}. What is on screen is as last loaded; "
                "quit (q) and run `tenant-console demo` again."
            )
            self._notices.notify(
                message, title="Demo service stopped", severity="error", timeout=30
            )
            self._failed(ConsoleProblem("The demo's service stopped", message))

    async def start(self, start_demo: Callable[[], LocalService] | None) -> LocalService:
        """A local service with demo data for this session (`start_demo`'s, else the
        staging demo's), stopped on exit."""
        if start_demo is not None:
            service = await asyncio.to_thread(start_demo)
        else:
            from console.tui.start.demo import DemoService

            service = await asyncio.to_thread(DemoService(staging=True).start)
        self.started.append(service)
        return service

    def stop_watching(self) -> None:
        """The console ends: nothing is said of a service from now on."""
        self._stopping = True

    async def stop_started(self) -> None:
        """The services this console started are stopped (on exit)."""
        for service in self.started:
            try:
                await asyncio.to_thread(service.stop)
            except Exception:
                log.warning("Could not stop a local service", exc_info=True)
