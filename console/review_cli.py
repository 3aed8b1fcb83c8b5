"""`tenant-console review`: the access review as a file, an evidence pack, or a check of one.

- `review --format csv|json [-o FILE]`: applications (grants, last activity), reactors and
  people (members, invitations), flagged;
- `review --evidence DIR [--since WHEN] [--until WHEN]`: the evidence pack
  (console.evidence) in a new or empty folder;
- `review --verify DIR`: the pack checked against its manifest (exit 1 naming each changed,
  missing or extra file).

The profile and key are found as the console finds them (`--profile`, then
$TENANT_CONSOLE_PROFILE, then the active profile; $TENANT_CONSOLE_BASE_URL and
$TENANT_CONSOLE_API_KEY win). Exit codes: 0 written (or intact), 1 the service or the profile
failed (one line on stderr, nothing written) or a pack is not intact, 2 unusable arguments.
Never imports Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from console.cli_support import Command, admin_client, quiet_logging

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.client.review_export import ExportFormat
    from console.evidence.manifest import Period
    from console.profiles.resolve import ResolvedConnection

OK, FAILED, USAGE = 0, 1, 2


COMMAND = Command("tenant-console review", escape=False)
_error = COMMAND.error


def _progress(text: str) -> None:
    """Where the walk stands, on a terminal only (a redirected stderr stays clean)."""
    if sys.stderr.isatty():
        print(f"\r{text}\033[K", end="", file=sys.stderr, flush=True)


def _client(connection: ResolvedConnection) -> AdminClient:
    from console.client.budget import waiting_text

    client = admin_client(connection)

    def waiting(seconds: float) -> None:
        if seconds > 0 and sys.stderr.isatty():
            _progress(f"Reading the tenant: {waiting_text(seconds)}")
        elif seconds > 0:
            _error(waiting_text(seconds))

    client.budget.watch(waiting)
    return client


async def _review(
    connection: ResolvedConnection,
    export_format: ExportFormat,
    key_age_days: int = 90,
    inactive_days: int = 90,
) -> str:
    from console.audit.activity import open_archive, review_activity
    from console.client.index import LocalIndex
    from console.client.review import Catalogue, ReviewRow, reactor_grants, review_pages
    from console.client.review_export import render
    from console.client.review_people import read_people

    rows: list[ReviewRow] = []
    catalogue = Catalogue()
    index = LocalIndex.open_quietly(connection.profile, connection.base_url)
    archive = open_archive(connection.profile)
    activity = None
    try:
        async with _client(connection) as client:
            client.index = index
            pages = review_pages(
                client,
                key_age_days=key_age_days,
                activity=review_activity(client, archive),
                inactive_days=inactive_days,
            )
            async for page in pages:
                rows += page.rows
                catalogue = page.catalogue
                activity = page.activity
                _progress(f"Reading applications: {page.progress(len(rows))}")
            _progress("Reading reactors")
            names = {row.id: row.name for row in rows}
            reactors = [grant.named(names) for grant in await reactor_grants(client)]
            _progress("Reading members and invitations")
            people = await read_people(client)
    finally:
        _progress("")
        if index is not None:
            index.close()
        if archive is not None:
            archive.close()
    for problem in (catalogue.problem, activity.problem if activity else None, people.problem):
        if problem:
            _error(problem)
    return render(
        rows,
        export_format,
        reactors=reactors,
        catalogue=catalogue,
        people=people,
        activity=activity,
        inactive_days=inactive_days,
    )


def _not_written(error: Exception, base_url: str) -> int:
    """Says what the service answered (and where, unless it said so) after the progress
    line is cleared; nothing was written. Exit 1."""
    _progress("")
    sentence = str(error).rstrip(".")
    if base_url not in sentence:
        sentence += f" ({base_url})"
    _error(f"{sentence}. Nothing was written.")
    return FAILED


def run(args: argparse.Namespace) -> int:
    quiet_logging()
    from console.client import ApiError

    if getattr(args, "key_age", 90) < 1:
        _error("--key-age must be at least 1 day.")
        return USAGE
    if getattr(args, "inactive_days", 90) < 1:
        _error("--inactive-days must be at least 1 day.")
        return USAGE
    misuse = _misused_pack_options(args)
    if misuse:
        _error(misuse)
        return USAGE
    if getattr(args, "verify", None):
        return _verify(Path(args.verify).expanduser(), args.format == "json")
    if getattr(args, "evidence", None):
        return _evidence(args)
    output = Path(args.output).expanduser() if args.output else None
    if output is not None and (output.is_dir() or not output.parent.is_dir()):
        where = "is a folder" if output.is_dir() else "is in a folder that does not exist"
        _error(f"{output} {where}.")
        return USAGE
    from console.files import already_exists

    force = bool(getattr(args, "force", False))
    if output is not None and not force and os.path.lexists(output):
        _error(already_exists(output))
        return USAGE
    from console.client.review_export import format_for

    export_format = cast("ExportFormat", args.format) if args.format else None
    if export_format is None:
        export_format = format_for(output) if output is not None else "csv"
    connection = COMMAND.connect(getattr(args, "profile", None))
    if connection is None:
        return FAILED
    try:
        text = asyncio.run(
            _review(
                connection,
                export_format,
                getattr(args, "key_age", 90),
                getattr(args, "inactive_days", 90),
            )
        )
    except ApiError as error:
        return _not_written(error, connection.base_url)
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return OK
    from console.files import create_file

    try:
        create_file(output, text, force=force, private=True)
    except FileExistsError:  # it appeared while the tenant was read
        _error(already_exists(output))
        return USAGE
    except OSError as error:
        _error(f"Could not write {output}: {error.strerror or error}.")
        return FAILED
    print(f"Wrote the access review to {output}.", file=sys.stderr)
    return OK


# ---- the evidence pack ------------------------------------------------------------------


def _misused_pack_options(args: argparse.Namespace) -> str | None:
    """One sentence when the pack's options are combined in a way that means nothing."""
    evidence, verify = getattr(args, "evidence", None), getattr(args, "verify", None)
    since, until = getattr(args, "since", None), getattr(args, "until", None)
    if evidence and verify:
        return "--evidence and --verify go alone: write a pack, or check one."
    if (since or until) and not evidence:
        return "--since and --until choose the logs of an evidence pack: give --evidence DIR."
    if (evidence or verify) and (args.output or getattr(args, "force", False)):
        return "-o and --force write one file; an evidence pack is a folder (--evidence DIR)."
    if evidence and args.format:
        return "An evidence pack holds the review as JSON and CSV both: leave out --format."
    return None


def _period(args: argparse.Namespace) -> Period:
    from console.audit.when import parse_when
    from console.clock import now
    from console.evidence.manifest import Period

    moment = now()
    since = parse_when(args.since, now=moment) if args.since else None
    until = parse_when(args.until, now=moment) if args.until else moment
    period = Period(since, until)
    period.check()
    return period


def _evidence(args: argparse.Namespace) -> int:
    """Writes the pack; 2 for a folder that is not new or empty (nothing is touched), 1 when
    the profile, the service or the writing fails (nothing is left behind)."""
    from console.client import ApiError
    from console.evidence.folder import prepare_folder
    from console.evidence.manifest import EvidenceRefused

    folder = Path(args.evidence).expanduser()
    try:
        period = _period(args)
    except ValueError as error:
        _error(str(error))
        return USAGE
    if os.path.lexists(folder):
        try:  # refused before the tenant is read; checked again when writing
            prepare_folder(folder)
        except EvidenceRefused as error:
            _error(str(error))
            return USAGE
    elif not folder.parent.is_dir():
        _error(f"{folder} is in a folder that does not exist.")
        return USAGE
    connection = COMMAND.connect(getattr(args, "profile", None))
    if connection is None:
        return FAILED
    try:
        manifest = asyncio.run(_write_pack(connection, folder, period, args))
    except EvidenceRefused as error:
        _progress("")
        _error(str(error))
        return FAILED
    except ApiError as error:
        return _not_written(error, connection.base_url)
    except OSError as error:
        _progress("")
        _error(f"Could not write the evidence pack in {folder}: {error.strerror or error}.")
        return FAILED
    from console.terminal_text import printable

    logs = manifest["logs"]
    for problem in (logs.get("problem"),):
        if problem:
            _error(printable(problem))
    if logs.get("gaps"):
        _error(
            f"The archive has {len(logs['gaps'])} gap(s) in the period: logs there were never "
            "read (listed in the manifest)."
        )
    print(
        f"Wrote the evidence pack to {printable(str(folder))}: {len(manifest['files'])} files "
        f"and {MANIFEST_NAME}, {logs['entries']:,} log entries. manifest_sha256 "
        f"{manifest['manifest_sha256']}",
        file=sys.stderr,
    )
    return OK


MANIFEST_NAME = "manifest.json"


async def _write_pack(
    connection: ResolvedConnection, folder: Path, period: Period, args: argparse.Namespace
) -> dict[str, Any]:
    """The pack, with the profile's archive (or, for a connection without a profile, an
    archive of this run only, in a temporary folder removed at the end)."""
    import tempfile

    from console.audit.activity import open_archive
    from console.evidence.pack import write_evidence

    archive = open_archive(connection.profile)
    scratch = None
    if archive is None:
        from console.audit.archive import LogArchive

        scratch = tempfile.TemporaryDirectory(prefix="tenant-console-evidence-")
        archive = LogArchive.open("evidence", path=Path(scratch.name) / "logs.sqlite3")
    try:
        async with _client(connection) as client:
            _progress("Reading the logs, the review and the configuration")
            return await write_evidence(
                client,
                folder,
                archive=archive,
                profile=connection.profile,
                period=period,
                key_age_days=getattr(args, "key_age", 90),
                inactive_days=getattr(args, "inactive_days", 90),
                secrets=(connection.key or "",),
            )
    finally:
        _progress("")
        archive.close()
        if scratch is not None:
            scratch.cleanup()


def _verify(folder: Path, as_json: bool) -> int:
    """Each finding on stdout (`changed: NAME`, or one JSON object); 0 intact, 1 not."""
    from console.evidence.verify import verify_pack
    from console.terminal_text import printable, printable_json

    found = verify_pack(folder)
    if as_json:
        sys.stdout.write(printable_json(found.to_json(), indent=2) + "\n")
    else:
        lines = [
            f"{what}: {name}"
            for what in ("changed", "missing", "extra")
            for name in getattr(found, what)
        ]
        lines += [f"problem: {problem}" for problem in found.problems]
        for line in lines:
            sys.stdout.write(printable(line) + "\n")
    sys.stdout.flush()
    if found.intact:
        print(
            f"The evidence pack in {printable(str(folder))} is intact: {len(found.checked)} "
            f"files match the manifest (manifest_sha256 {found.manifest_sha256}).",
            file=sys.stderr,
        )
        return OK
    print(
        f"The evidence pack in {printable(str(folder))} is NOT intact.",
        file=sys.stderr,
    )
    return FAILED
