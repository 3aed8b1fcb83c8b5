"""The usage history (issue 28): every usage report the console reads is kept, per service,
and the header's forecast warning follows from it."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from console.models import UsageReport
    from console.tui.base.shell import SessionHost, Work
    from console.usage_history.forecast import Forecast
    from console.usage_history.store import HistoryStore

    class UsageHost(SessionHost, Work, Protocol):
        """The app, as what the usage history reads (the session) and runs work in."""


log = logging.getLogger(__name__)


class UsageKeeper:
    """Keeps reports in the usage history of their service, in the app's workers."""

    def __init__(self, app: UsageHost) -> None:
        self._app = app
        self._history: HistoryStore | None = None

    def history_for(self, base_url: str) -> HistoryStore:
        """Where reports from `base_url` are kept: a demo service's own history (its month
        of demo data) for a demo this process started, else the user data directory's."""
        from console.usage_history.store import HistoryStore

        demo = sys.modules.get("console.tui.start.demo")
        path = demo.history_path_for(base_url) if demo is not None else None
        if path is not None:
            return HistoryStore(path, demo=True)
        if self._history is None:
            self._history = HistoryStore()
        return self._history

    def record(
        self,
        base_url: str,
        report: UsageReport | None,
        *,
        reader: str,
        done: Callable[[list[Any], Forecast], None] | None = None,
    ) -> None:
        """Keeps the report in the usage history (in a thread), then updates the header's
        forecast warning and hands the history to `done` (the dashboard)."""
        self._app.run_worker(
            self._record(base_url, report, reader, done),
            group="usage-history",
            exit_on_error=False,
        )

    async def _record(
        self,
        base_url: str,
        report: UsageReport | None,
        reader: str,
        done: Callable[[list[Any], Forecast], None] | None,
    ) -> None:
        from console.usage_history.recorder import record_and_forecast

        app = self._app
        session = app.session
        connection, tenant_id = session.connection, session.tenant_id
        if tenant_id is None and app.connected_client() is not None:
            try:  # the dashboard may read the usage before the header read the tenant
                tenant_id = (await app.client.tenant.get()).id
            except Exception:
                log.info("No tenant id for the usage history", exc_info=True)
        if connection is not app.connection:
            return  # another tenant now: its own reads will be kept
        snapshots, forecast = await asyncio.to_thread(
            record_and_forecast,
            base_url,
            tenant_id,
            report,
            reader=reader,
            store=self.history_for(base_url),
        )
        if connection is not app.connection:
            return
        session.usage_warning = forecast.header_warning()
        if done is not None:
            done(snapshots, forecast)
