"""`tenant-console logs`: the tenant's audit logs, from the service or the local archive.

    tenant-console logs [--entity-type T] [--entity-id ID] [--actor ID] [--since WHEN]
                        [--until WHEN] [--limit N] [--format table|json|csv] [--profile NAME]
    tenant-console logs --from-archive [filters...]      # the archive only, no request
    tenant-console logs --archive [--quiet]              # sync the archive (for cron)
    tenant-console logs --follow [--interval S] [filters...]

Read from the service (the default), entries are printed newest first and every entry read
is kept in the profile's archive too. `--actor` is applied here (the service has no actor
filter). `--follow` prints new entries, oldest first, as they come (one request an interval,
5 s by default); with `--since` it first prints those since then; ctrl+c ends it (exit 0).
`--archive` syncs the archive (console.audit.archive), prunes it to the preferences'
`archive_retention_days`, and prints one line (nothing with `--quiet`); a gap (the last
sync older than the service keeps logs) is warned of on stderr.

Formats: `table` (fixed columns, printed as pages come), `json` (an array; with `--follow`
one object a line), `csv` (a header, then the entries). Text from the service is printed
with its control characters escaped. Exit codes: 0 done (an empty list too); 1 failed (the
service, the profile, the archive file); 2 unusable arguments; 3 `--from-archive` and the
profile has no archive yet. A reader that goes away (`| head`) ends it quietly.

Without a profile (TENANT_CONSOLE_BASE_URL and TENANT_CONSOLE_API_KEY), the archive is named
after the service's host and port (`env-<host>_<port>`).
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import sys
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from console.cli_support import Command, Refused, admin_client
from console.terminal_text import printable, printable_json

if TYPE_CHECKING:
    from console.audit.archive import LogArchive, SyncResult
    from console.client import AdminClient
    from console.models.logs import Log
    from console.profiles.resolve import ResolvedConnection

OK, FAILED, USAGE, NOT_FOUND = 0, 1, 2, 3
PROG = "tenant-console logs"
follow_sleep = asyncio.sleep
"""How `--follow` waits between requests (tests put their own clock here)."""

COLUMNS = (
    ("TIME", 20),
    ("ACTOR TYPE", 11),
    ("ACTOR ID", 36),
    ("OPERATION", 9),
    ("ENTITY TYPE", 17),
    ("ENTITY ID", 36),
    ("MESSAGE", 0),
)
"""The table's columns and widths: fixed, so rows print as their pages come."""
CSV_FIELDS = (
    "created_at",
    "id",
    "tenant_id",
    "actor_type",
    "actor_id",
    "operation",
    "entity_type",
    "entity_id",
    "message",
)


COMMAND = Command(PROG)
_error = COMMAND.error


def _warn(message: str) -> None:
    print(f"{PROG}: warning: {printable(message)}", file=sys.stderr)


# ---- output -------------------------------------------------------------------------------


def time_text(moment: datetime | None) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if moment else "-"


def table_header() -> str:
    return _line([name for name, _ in COLUMNS])


def table_row(entry: Log) -> str:
    return _line(
        [
            time_text(entry.created_at),
            printable(entry.actor_type or "-"),
            printable(entry.actor_id or "-"),
            printable(entry.operation or "-"),
            printable(entry.entity_type or "-"),
            printable(entry.entity_id or "-"),
            printable(entry.message or ""),
        ]
    )


def _line(cells: list[str]) -> str:
    return "  ".join(
        cell.ljust(width) for cell, (_, width) in zip(cells, COLUMNS, strict=True)
    ).rstrip()


def entry_json(entry: Log) -> dict[str, Any]:
    return entry.model_dump(mode="json")


def csv_text(rows: Iterable[list[str]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(rows)
    return buffer.getvalue()


def csv_row(entry: Log) -> list[str]:
    data = entry_json(entry)
    return [printable(str(data.get(name) or "")) for name in CSV_FIELDS]


class Printer:
    """Prints entries in one format as they come, flushing each batch (a pipe's reader sees
    them at once, and one that goes away is noticed at once)."""

    def __init__(self, format: str, *, stream: bool) -> None:
        self.format = format
        self.stream = stream
        """Following: JSON as one object a line, not an array."""
        self.count = 0
        self._held: list[dict[str, Any]] = []

    def add(self, entries: list[Log]) -> None:
        if not entries:
            return
        if self.format == "json" and not self.stream:
            self._held.extend(entry_json(e) for e in entries)
            self.count += len(entries)
            return
        lines: list[str] = []
        if self.count == 0:
            if self.format == "table":
                lines.append(table_header())
            elif self.format == "csv":
                lines.append(csv_text([list(CSV_FIELDS)]).rstrip("\n"))
        for entry in entries:
            if self.format == "table":
                lines.append(table_row(entry))
            elif self.format == "csv":
                lines.append(csv_text([csv_row(entry)]).rstrip("\n"))
            else:
                lines.append(printable_json(entry_json(entry)))
        self.count += len(entries)
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()

    def finish(self) -> None:
        """The end of a listing: the JSON array, or what an empty list prints."""
        if self.format == "json" and not self.stream:
            print(printable_json(self._held, indent=2))
        elif self.count == 0 and not self.stream:
            if self.format == "table":
                print("No log entries.")
            elif self.format == "csv":
                sys.stdout.write(csv_text([list(CSV_FIELDS)]))


# ---- the archive --------------------------------------------------------------------------


def archive_name(connection: ResolvedConnection) -> str:
    """The archive's name: the profile's, or (a connection from the environment) the
    service's host and port."""
    if connection.profile:
        return connection.profile
    from urllib.parse import urlsplit

    parts = urlsplit(connection.base_url)
    return f"env-{parts.hostname or 'service'}_{parts.port or parts.scheme}"


def open_archive(name: str) -> LogArchive | None:
    """The archive to keep what is read, or None (said on stderr, and logged) if it cannot
    be opened: the listing goes on without it."""
    import sqlite3

    from console.audit.archive import LogArchive

    try:
        return LogArchive.open(name)
    except (OSError, sqlite3.Error) as problem:
        import logging

        logging.getLogger("console.audit").warning("Log archive not opened", exc_info=True)
        _warn(f"what is read is not archived: {problem}")
        return None


def _keep(archive: LogArchive | None, entries: list[Log]) -> None:
    if archive is None or not entries:
        return
    try:
        archive.store(entries)
    except Exception as problem:
        import logging

        logging.getLogger("console.audit").exception("Storing log entries failed")
        _warn(f"what is read is not archived: {problem}")


# ---- the command --------------------------------------------------------------------------


def check_arguments(args: argparse.Namespace) -> None:
    """Refused(…, USAGE) for options that do not go together."""
    filters = [
        name
        for name, value in (
            ("--entity-type", args.entity_type),
            ("--entity-id", args.entity_id),
            ("--actor", args.actor),
            ("--since", args.since),
            ("--until", args.until),
            ("--limit", args.limit),
        )
        if value is not None
    ]
    if args.archive:
        modes = (("--from-archive", args.from_archive), ("--follow", args.follow))
        others = [*filters, *(name for name, on in modes if on)]
        if others:
            raise Refused(f"--archive syncs the whole archive: it takes no {others[0]}.", USAGE)
        if args.format == "csv":
            raise Refused("--archive prints a summary: --format table or json.", USAGE)
    if args.quiet and not args.archive:
        raise Refused("--quiet goes with --archive only.", USAGE)
    if args.from_archive and args.follow:
        raise Refused("--follow reads the service: it does not go with --from-archive.", USAGE)
    if args.interval is not None and not args.follow:
        raise Refused("--interval goes with --follow only.", USAGE)
    if args.follow and args.until is not None:
        raise Refused("--follow has no end: it does not go with --until.", USAGE)
    if args.follow and args.limit is not None:
        raise Refused("--follow has no end: it does not go with --limit.", USAGE)
    if args.since is not None and args.until is not None and args.since >= args.until:
        raise Refused("--since must be before --until.", USAGE)


def run(args: argparse.Namespace) -> int:
    from console.profiles.config import ProfileError
    from console.profiles.keys import KeyStoreError

    try:
        check_arguments(args)
        if args.from_archive:
            return _from_archive(args)
    except (ProfileError, KeyStoreError) as error:
        _error(str(error))
        return FAILED
    except Refused as refused:
        return COMMAND.refused(refused)
    return COMMAND.run(
        getattr(args, "profile", None),
        lambda connection: _with_client(connection, args),
        on_interrupt=OK if args.follow else None,  # ctrl+c is how following ends
    )


def _from_archive(args: argparse.Namespace) -> int:
    import sqlite3

    from console.audit.archive import LogArchive, archive_path
    from console.profiles.resolve import resolve_connection

    name = archive_name(resolve_connection(getattr(args, "profile", None)))
    path = archive_path(name)
    if not path.is_file():
        raise Refused(
            f'profile "{name}" has no log archive yet: run `tenant-console logs --archive`.',
            NOT_FOUND,
        )
    try:
        with LogArchive.open(name) as archive:
            entries = archive.query(
                entity_type=args.entity_type,
                entity_id=args.entity_id,
                actor_id=args.actor,
                since=args.since,
                until=args.until,
                limit=args.limit,
            )
    except (OSError, sqlite3.Error) as problem:
        raise Refused(f"the log archive {path} cannot be read: {problem}") from None
    printer = Printer(args.format, stream=False)
    printer.add(entries)
    printer.finish()
    return OK


async def _with_client(connection: ResolvedConnection, args: argparse.Namespace) -> int:

    archive = open_archive(archive_name(connection))
    try:
        async with admin_client(connection) as client:
            if args.archive:
                if archive is None:
                    raise Refused("the log archive cannot be opened (see above).")
                return await _sync(client, archive, args)
            if args.follow:
                return await _follow(client, archive, args)
            return await _list(client, archive, args)
    finally:
        if archive is not None:
            archive.close()


async def _list(client: AdminClient, archive: LogArchive | None, args: argparse.Namespace) -> int:
    printer = Printer(args.format, stream=False)
    page: list[Log] = []
    shown = 0
    limit = args.limit
    async for entry in client.logs.iterate(
        entity_type=args.entity_type,
        entity_id=args.entity_id,
        start_date=args.since,
        end_date=args.until,
    ):
        page.append(entry)
        if len(page) >= 100:
            shown += _flush(printer, archive, page, args.actor, limit, shown)
            page = []
        if limit is not None and shown >= limit:
            break
    shown += _flush(printer, archive, page, args.actor, limit, shown)
    printer.finish()
    return OK


def _flush(
    printer: Printer,
    archive: LogArchive | None,
    page: list[Log],
    actor: str | None,
    limit: int | None,
    shown: int,
) -> int:
    """Archives a page as read, prints what the actor filter and the limit leave."""
    _keep(archive, page)
    chosen = [e for e in page if actor is None or e.actor_id == actor]
    if limit is not None:
        chosen = chosen[: max(0, limit - shown)]
    printer.add(chosen)
    return len(chosen)


async def _follow(client: AdminClient, archive: LogArchive | None, args: argparse.Namespace) -> int:
    from console.audit.follow import DEFAULT_INTERVAL, LogFollower

    printer = Printer(args.format, stream=True)
    since, seen = None, []
    if args.since is not None:
        backlog: list[Log] = []
        async for entry in client.logs.iterate(
            entity_type=args.entity_type, entity_id=args.entity_id, start_date=args.since
        ):
            backlog.append(entry)
        _keep(archive, backlog)
        seen = [e.identity for e in backlog]
        times = [e.created_at for e in backlog if e.created_at is not None]
        since = max(times, default=args.since)
        backlog.reverse()
        printer.add([e for e in backlog if args.actor is None or e.actor_id == args.actor])
    follower = LogFollower(
        client,
        interval=args.interval or DEFAULT_INTERVAL,
        entity_type=args.entity_type,
        entity_id=args.entity_id,
        actor_id=args.actor,
        archive=archive,
        since=since,
        seen=seen,
        on_error=lambda error: _warn(f"{str(error).rstrip('.')}; trying again."),
        sleep=follow_sleep,
    )
    async for entry in follower:
        printer.add([entry])
    return OK


async def _sync(client: AdminClient, archive: LogArchive, args: argparse.Namespace) -> int:
    from console.audit.archive import configured_keep_days

    keep_days = configured_keep_days()
    result = await archive.sync(client, keep_days=keep_days)
    if result.gap is not None:
        start, end = result.gap
        _warn(
            f"the archive misses the logs from {time_text(start)} to {time_text(end)}: the "
            "last sync was longer ago than the service keeps logs. Run `tenant-console logs "
            "--archive` more often (from cron or a timer)."
        )
    if args.quiet:
        return OK
    reach = archive.reach()
    if args.format == "json":
        document = {
            "new": result.new,
            "read": result.read,
            "total": result.total,
            "pruned": result.pruned,
            "keep_days": keep_days,
            "oldest": reach.oldest.isoformat() if reach.oldest else None,
            "newest": reach.newest.isoformat() if reach.newest else None,
            "gap": (
                {"from": result.gap[0].isoformat(), "to": result.gap[1].isoformat()}
                if result.gap
                else None
            ),
            "gaps": [{"from": s.isoformat(), "to": e.isoformat()} for s, e in reach.gaps],
            "path": str(archive.path),
        }
        print(printable_json(document, indent=2))
    else:
        print(summary_line(result, reach.oldest, keep_days))
    return OK


def summary_line(result: SyncResult, oldest: datetime | None, keep_days: int) -> str:
    """ "Archived 12 new log entries (read 40); 4,512 kept, back to 2026-01-03 10:04 UTC." """
    from console.audit.summary import when_text

    noun = "entry" if result.new == 1 else "entries"
    line = f"Archived {result.new:,} new log {noun} (read {result.read:,}); {result.total:,} kept"
    if oldest is not None:
        line += f", back to {when_text(oldest)}"
    if result.pruned:
        line += f"; {result.pruned:,} older than {keep_days} days pruned"
    return line + "."
