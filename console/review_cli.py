"""`tenant-console review --format csv|json [-o FILE]`: the access review as a file.

The profile and key are found as the console finds them (`--profile`, then
$TENANT_CONSOLE_PROFILE, then the active profile; $TENANT_CONSOLE_BASE_URL and
$TENANT_CONSOLE_API_KEY win). Exit codes: 0 written, 1 the service or the profile failed (one
line on stderr, nothing written), 2 unusable arguments. Never imports Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from console.client.review_export import ExportFormat
    from console.profiles.resolve import ResolvedConnection

OK, FAILED, USAGE = 0, 1, 2


def _error(message: str) -> None:
    print(f"tenant-console review: {message}", file=sys.stderr)


def _progress(text: str) -> None:
    """Where the walk stands, on a terminal only (a redirected stderr stays clean)."""
    if sys.stderr.isatty():
        print(f"\r{text}\033[K", end="", file=sys.stderr, flush=True)


async def _review(
    connection: ResolvedConnection, export_format: ExportFormat, key_age_days: int = 90
) -> str:
    from console.client import AdminClient
    from console.client.review import Catalogue, ReviewRow, reactor_grants, review_pages
    from console.client.review_export import render

    assert connection.key is not None
    rows: list[ReviewRow] = []
    catalogue = Catalogue()
    from console.client.budget import waiting_text
    from console.client.index import LocalIndex

    index = LocalIndex.open_quietly(connection.profile, connection.base_url)
    async with AdminClient(
        connection.base_url,
        connection.key,
        key_header=connection.key_header,
        budget=connection.budget(),
    ) as client:
        client.index = index

        def waiting(seconds: float) -> None:
            if seconds > 0 and sys.stderr.isatty():
                _progress(f"Reading applications: {waiting_text(seconds)}")
            elif seconds > 0:
                _error(waiting_text(seconds))

        client.budget.watch(waiting)
        async for page in review_pages(client, key_age_days=key_age_days):
            rows += page.rows
            catalogue = page.catalogue
            _progress(f"Reading applications: {page.progress(len(rows))}")
        _progress("Reading reactors")
        names = {row.id: row.name for row in rows}
        reactors = [grant.named(names) for grant in await reactor_grants(client)]
    _progress("")
    if index is not None:
        index.close()
    if catalogue.problem:
        _error(catalogue.problem)
    return render(rows, export_format, reactors=reactors, catalogue=catalogue)


def _quiet_logging() -> None:
    """The client logs what it carries on from (a catalogue it could not read); here the
    command says it on stderr in one line instead, so no traceback reaches the terminal."""
    logger = logging.getLogger("console")
    if not logger.handlers:
        logger.addHandler(logging.NullHandler())


def run(args: argparse.Namespace) -> int:
    _quiet_logging()
    from console.client import ApiError
    from console.profiles.config import ProfileError
    from console.profiles.keys import KeyStoreError
    from console.profiles.resolve import connection_with_key

    if getattr(args, "key_age", 90) < 1:
        _error("--key-age must be at least 1 day.")
        return USAGE
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
    try:
        connection = connection_with_key(getattr(args, "profile", None))
    except (ProfileError, KeyStoreError) as error:
        _error(str(error))
        return FAILED
    try:
        text = asyncio.run(_review(connection, export_format, getattr(args, "key_age", 90)))
    except ApiError as error:
        _progress("")
        sentence = str(error).rstrip(".")
        if connection.base_url not in sentence:
            sentence += f" ({connection.base_url})"
        _error(f"{sentence}. Nothing was written.")
        return FAILED
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
