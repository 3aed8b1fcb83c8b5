"""The session's client, made on first use and fitted to its profile: the profile's request
budget (its waits said), the journal's recording, changes a stopped console left pending
checked, the profile's local index opened off the UI thread."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from console.models.contract import DEFAULT_KEY_HEADER
from console.tui.base.logs import hide_secret
from console.tui.base.recording import record_changes

if TYPE_CHECKING:
    from textual.app import App

    from console.client.client import AdminClient
    from console.tui.base.connection import Connection
    from console.tui.base.session import Session

log = logging.getLogger(__name__)

ClientFactory = Callable[..., "AdminClient"]
"""(base_url, key) -> a client; also given `key_header=` when a profile names another."""


class ClientSetup:
    """Makes clients for the app's sessions, and fits each to its profile."""

    def __init__(self, app: App[Any], current: Callable[[], Session]) -> None:
        """`app`: runs the background work and says what happened; `current`: the app's
        session now (an index opened for a replaced session's client is closed)."""
        self._app = app
        self._current = current
        self._rate_limit_said_until = 0.0

    def make(self, factory: ClientFactory, connection: Connection, key: str) -> AdminClient:
        """A client for `connection` with its `key`, made by `factory` (the app's), fitted
        to its profile."""
        # A factory is asked for another header only when the profile names one.
        header = connection.key_header
        options = {} if header == DEFAULT_KEY_HEADER else {"key_header": header}
        hide_secret(key)
        client = factory(connection.base_url, key, **options)
        self._fit(client, connection)
        record_changes(client, connection.profile, "console")
        self._app.run_worker(
            self._settle(client, connection.profile), group="journal-settle", exit_on_error=False
        )
        return client

    async def _settle(self, client: AdminClient, profile: str | None) -> None:
        """Changes a console that stopped left pending are checked against the service in
        the background (console.journal.settle), what was decided said in a notification."""
        from console.journal.settle import settle_pending
        from console.journal.store import JournalError, open_journal
        from console.terminal_text import printable

        app = self._app
        try:
            settled = await settle_pending(client, open_journal(), profile=profile)
        except JournalError as problem:  # a change would be refused: say why now
            log.warning("Pending changes could not be checked: %s", problem)
            app.notify(printable(str(problem)), title="History", severity="error", markup=False)
            return
        except Exception:
            log.warning("Pending changes in the journal could not be checked", exc_info=True)
            return
        if settled.lines:
            shown = [printable(line) for line in settled.lines[:5]]
            if len(settled.lines) > len(shown):
                shown.append(f"… and {len(settled.lines) - len(shown)} more (History, H).")
            app.notify(
                "\n".join(shown),
                title="Changes left pending when the console stopped",
                severity="warning" if settled.undecided else "information",
                timeout=20,
                markup=False,
            )

    def _fit(self, client: AdminClient, connection: Connection) -> None:
        """The profile's request budget on a new client (unless it came with one), its
        waits said; and the profile's local index, opened off the UI thread (it is a file)."""
        budget = client.budget
        if budget.per_minute is None:
            from console.client.budget import DEFAULT_PER_MINUTE

            budget.per_minute = connection.rate_limit or DEFAULT_PER_MINUTE
        budget.watch(self._rate_limit_wait)
        if connection.profile is not None:
            client.hold_pages_for_index()
            self._app.run_worker(
                self._open_index(client, connection), group="local-index", exit_on_error=False
            )

    async def _open_index(self, client: AdminClient, connection: Connection) -> None:
        from console.client.index import LocalIndex

        app = self._app

        def said(text: str) -> None:  # from the thread that opens it
            app.call_from_thread(
                app.notify, text, title="Local index", severity="warning", markup=False
            )

        index = await asyncio.to_thread(
            LocalIndex.open_quietly, connection.profile, connection.base_url, said
        )
        if self._current().client is client:
            client.index = index  # None (no index file): the pages held are dropped
        elif index is not None:
            index.close()

    def _rate_limit_wait(self, seconds: float) -> None:
        """A request waits for the profile's budget or a 429: said once per wait that
        lasts (not for every request queued behind it)."""
        if seconds < 1:
            return
        moment = time.monotonic()
        if moment + seconds <= self._rate_limit_said_until + 2:
            return
        self._rate_limit_said_until = moment + seconds
        from console.client.budget import waiting_text

        self._app.notify(
            f"{waiting_text(seconds).capitalize()}: the service allows this key only so many "
            "requests a minute. Nothing fails; it goes on by itself.",
            title="Rate limit",
            timeout=min(max(seconds, 3.0), 10.0),
        )
