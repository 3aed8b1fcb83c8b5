"""`tenant-console usage [--profile P] [--record] [--history] [--format table|json|csv]`.

Without flags it prints the current usage report. `--record` also keeps it in the history
(run it from cron or a systemd timer: docs/usage-history.md). `--history` prints the recorded
snapshots, oldest first, with the month-end forecast below (JSON: one object with both; CSV:
the snapshots, for a spreadsheet). The history is read even when the service does not answer.

The profile and key are found as the console finds them. Exit codes: 0 done, 1 the service,
the profile or the history file failed (one line on stderr), 2 unusable arguments. Never
imports Textual; never prints a key.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from console.models.tenants import UsageReport
    from console.profiles.resolve import ResolvedConnection

OK, FAILED, USAGE = 0, 1, 2


def _error(message: str) -> None:
    print(f"tenant-console usage: {message}", file=sys.stderr)


def _quiet_logging() -> None:
    logger = logging.getLogger("console")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


async def _read(connection: ResolvedConnection, *, need_report: bool) -> tuple[Any, Any]:
    """(tenant id or None, report or None); the report's failure is raised when it is needed."""
    from console.client import AdminClient, ApiError

    assert connection.key is not None
    async with AdminClient(
        connection.base_url, connection.key, key_header=connection.key_header
    ) as client:
        tenant_id = None
        try:
            tenant_id = (await client.tenant.get()).id
        except ApiError:
            if not need_report:
                raise
        report = await client.tenant.usage() if need_report else None
    return tenant_id, report


def run(args: argparse.Namespace) -> int:
    _quiet_logging()
    from console.client import ApiError
    from console.clock import now
    from console.profiles.config import ProfileError
    from console.profiles.keys import KeyStoreError
    from console.profiles.resolve import resolve_connection
    from console.usage_history import render
    from console.usage_history.forecast import forecast
    from console.usage_history.recorder import snapshot_of
    from console.usage_history.store import HistoryError, HistoryStore

    try:
        connection = resolve_connection(args.profile)
    except (ProfileError, KeyStoreError) as error:
        _error(str(error))
        return FAILED
    store = HistoryStore()
    need_report = args.record or not args.history
    tenant_id: Any = None
    report: UsageReport | None = None
    problem: str | None = None
    if connection.key is None:
        problem = connection.key_problem or "No key for this profile."
    else:
        try:
            tenant_id, report = asyncio.run(_read(connection, need_report=need_report))
        except ApiError as error:
            sentence = str(error).rstrip(".")
            if connection.base_url not in sentence:
                sentence += f" ({connection.base_url})"
            problem = sentence + "."
    if need_report and report is None:
        _error(problem or "The usage report could not be read.")
        return FAILED
    moment = now()
    about: dict[str, object] = {
        "profile": connection.profile,
        "base_url": connection.base_url,
        "tenant_id": str(tenant_id) if tenant_id is not None else None,
    }
    not_recorded = False
    if args.record:
        assert report is not None
        if tenant_id is None:
            _error(
                "The tenant could not be read (it needs tenant:read), so the report has no"
                " tenant to be kept under. Nothing was recorded."
            )
            return FAILED
        try:
            stored = store.record(
                connection.base_url, str(tenant_id), snapshot_of(report, moment, reader="cli")
            )
        except HistoryError as error:  # the report is still printed (docs/usage-history.md)
            logging.getLogger(__name__).warning("The usage report was not recorded: %s", error)
            _error(f"{error} The report was not recorded.")
            not_recorded = True
        else:
            if sys.stderr.isatty():  # a timer's run stays silent but for the report
                said = "Recorded" if stored else "Already recorded (the same figures a moment ago)"
                print(f"{said} in {store.path}.", file=sys.stderr)
    if not args.history:
        assert report is not None
        _print_report(snapshot_of(report, moment, reader="cli"), args.format, about)
        return FAILED if not_recorded else OK
    if tenant_id is None:
        try:
            known = store.tenants(connection.base_url)
        except HistoryError as error:
            _error(str(error))
            return FAILED
        if not known:
            _error((problem + " " if problem else "") + "No usage recorded for this base URL.")
            return FAILED
        tenant_id = known[0]
        about["tenant_id"] = tenant_id
        if problem:
            _error(f"{problem} Showing the history last recorded for {connection.base_url}.")
    try:
        snapshots = store.snapshots(connection.base_url, str(tenant_id))
    except HistoryError as error:
        _error(str(error))
        return FAILED
    result = forecast(snapshots, moment)
    if args.format == "json":
        print(render.history_json(snapshots, result, about=about))
    elif args.format == "csv":
        sys.stdout.write(render.history_csv(snapshots))
    else:
        print(render.history_table(snapshots, result))
    return OK


def _print_report(snapshot: Any, format: str, about: dict[str, object]) -> int:
    from console.usage_history import render

    if format == "json":
        print(render.report_json(snapshot, about=about))
    elif format == "csv":
        sys.stdout.write(render.history_csv([snapshot]))
    else:
        print(render.report_table(snapshot))
    return OK
