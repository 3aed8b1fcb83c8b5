"""What every reader of the usage report calls: the dashboard, the header, `status`, the
overview and `tenant-console usage --record`. Recording is a by-product of reading: a
failure is logged and never reaches the reader (its report is still shown)."""

from __future__ import annotations

import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

from console.usage_history.store import HistoryStore, Snapshot

if TYPE_CHECKING:
    from console.models.tenants import UsageReport
    from console.usage_history.forecast import Forecast

log = logging.getLogger(__name__)


def snapshot_of(report: UsageReport, at: datetime, *, reader: str, demo: bool = False) -> Snapshot:
    """The figures of a report, as the history keeps them."""
    tokens = report.token_report
    by_type = (
        {name: metrics.count or 0 for name, metrics in tokens.metrics.items()}
        if tokens.metrics_by_type is not None
        else None
    )
    return Snapshot(
        at=at,
        monthly_active=tokens.monthly_active_tokens,
        included=tokens.included_monthly_active_tokens,
        total=tokens.token_total,
        by_type=by_type,
        reader=reader,
        demo=demo,
    )


def record_report(
    base_url: str,
    tenant_id: Any,
    report: UsageReport,
    *,
    reader: str,
    at: datetime | None = None,
    store: HistoryStore | None = None,
) -> bool:
    """Keeps the report in the history (blocking: call it off the UI thread). True when a
    snapshot was stored; False when it repeated the last one or could not be stored."""
    from console.clock import now

    if tenant_id is None:
        return False
    try:
        snapshot = snapshot_of(report, at or now(), reader=reader)
        return (store or HistoryStore()).record(base_url, str(tenant_id), snapshot)
    except Exception:
        log.warning("The usage report could not be kept in the history", exc_info=True)
        return False


HISTORY_SHOWN_DAYS = 100
"""How far back the dashboard's history goes: this month and the previous ones it compares."""


def record_and_forecast(
    base_url: str,
    tenant_id: Any,
    report: UsageReport | None,
    *,
    reader: str,
    at: datetime | None = None,
    store: HistoryStore | None = None,
) -> tuple[list[Snapshot], Forecast]:
    """Keeps the report (when there is one), then reads the tenant's recent history and its
    forecast. Blocking; never raises (a history that cannot be read is an empty one, logged)."""
    from datetime import timedelta

    from console.clock import now
    from console.usage_history.forecast import forecast, month_start

    moment = at or now()
    store = store or HistoryStore()
    if report is not None:
        record_report(base_url, tenant_id, report, reader=reader, at=moment, store=store)
    snapshots: list[Snapshot] = []
    if tenant_id is not None:
        since = month_start(moment) - timedelta(days=HISTORY_SHOWN_DAYS)
        try:
            snapshots = store.snapshots(base_url, str(tenant_id), since=since)
        except Exception:
            log.warning("The usage history could not be read", exc_info=True)
    return snapshots, forecast(snapshots, moment)


def history_recorder(reader: str, store_for: Any = None) -> Any:
    """For the overview and `status`: (base_url, tenant_id, report) -> (this month's monthly
    active tokens recorded so far, oldest first; whether any is demo data), for the
    overview's sparkline. `store_for(base_url)`: the history to use (default: the user's).
    Blocking."""

    def record(base_url: str, tenant_id: Any, report: UsageReport) -> tuple[list[int], bool]:
        from console.usage_history.forecast import this_month

        store = store_for(base_url) if store_for is not None else None
        snapshots, result = record_and_forecast(
            base_url, tenant_id, report, reader=reader, store=store
        )
        month = this_month(snapshots, result.now)
        return [s.monthly_active or 0 for s in month], any(s.demo for s in month)

    return record
