"""`tenant-console status`: every profile checked at once, one line each; never a key.

Below the table, how far back each profile's log archive reaches (issue 36; those that have
one); a gap the last sync found, or a last sync older than the service keeps logs, is warned
of on stderr (`warning: NAME: ...`), without changing the exit code.

Exit codes: 0 every profile checked is ok (its key works and every figure was read, or
only a permission is lacking for some); 1 some are not (each named on stderr in one line:
profile, status, why), or there is no profile, or the profiles file is damaged; 2 unusable
arguments (an unknown profile name, a bad timeout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from console.estate.overview import (
    DEFAULT_CONCURRENCY,
    DEFAULT_TIMEOUT,
    ProfileStatus,
    ProfileTarget,
    check_profiles,
    saved_targets,
    sort_like,
)
from console.kinds.builtin import REACTORS

if TYPE_CHECKING:
    from console.audit.summary import ArchiveState

OK, NOT_OK, USAGE = 0, 1, 2
HEADERS = ("", "PROFILE", "LABEL", "BASE URL", "TENANT", "KEY", "MAT / PLAN", "APPS", "PROXIES")
FORMULAS_HEADER = "FORMULAS"
REACTORS_HEADER = REACTORS.nouns.plural.upper()


def run(args: argparse.Namespace) -> int:
    """Check the profiles named in `args.names` (all when none) and print the result."""
    from console.profiles.config import ConfigError, ProfileError

    timeout = DEFAULT_TIMEOUT if args.timeout is None else args.timeout
    if not timeout > 0:
        _error(f"--timeout must be more than 0 seconds, not {timeout:g}.")
        return USAGE
    try:
        targets = saved_targets(args.names or (), session_profile=args.profile)
    except ConfigError as error:
        _error(str(error))
        return NOT_OK
    except ProfileError as error:
        _error(str(error))
        return USAGE
    if not targets:
        _error("No profiles yet. Add one with: tenant-console profile add NAME --base-url URL")
        return NOT_OK
    statuses = asyncio.run(_collect(targets, timeout))
    archives = log_archives(statuses)
    if args.format == "json":
        profiles = []
        for status in statuses:
            state = archives.get(status.name)
            profiles.append({**status.to_json(), "log_archive": state and state.to_json()})
        document = {"ok": all(s.ok for s in statuses), "profiles": profiles}
        print(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        print(render_table(statuses))
        if archives:
            print(render_archives(archives))
    for status in statuses:
        if not status.ok:
            why = f": {status.message}" if status.message else ""
            _error(f"{status.name}: {status.status_text}{why}")
    for name, state in archives.items():
        for warning in state.warnings:
            _error(f"warning: {name}: {warning}")
    return OK if all(s.ok for s in statuses) else NOT_OK


def log_archives(statuses: Sequence[ProfileStatus]) -> dict[str, ArchiveState]:
    """Each profile's log archive (issue 36), for those that have one."""
    from console.audit.summary import archive_state

    found = {status.name: archive_state(status.name) for status in statuses}
    return {name: state for name, state in found.items() if state is not None}


def render_archives(archives: dict[str, ArchiveState]) -> str:
    """ "Log archives:" and a line a profile: how far back each reaches."""
    width = max(len(name) for name in archives)
    lines = ["", "Log archives:"]
    lines += [f"  {name.ljust(width)}  {state.text()}" for name, state in archives.items()]
    return "\n".join(lines)


async def _collect(targets: Sequence[ProfileTarget], timeout: float) -> list[ProfileStatus]:
    from console.usage_history.recorder import history_recorder

    found = [
        status
        async for status in check_profiles(
            targets,
            concurrency=DEFAULT_CONCURRENCY,
            timeout=timeout,
            recorder=history_recorder("status"),  # issue 28: every report read is kept
        )
    ]
    return sort_like(found, targets)


def table_rows(statuses: Sequence[ProfileStatus]) -> list[tuple[str, ...]]:
    """The table's header and rows; LABEL only once a profile has one."""
    rows: list[tuple[str, ...]] = [(*HEADERS, FORMULAS_HEADER, REACTORS_HEADER)]
    for status in statuses:
        tenant = status.tenant_name or ""
        if tenant and status.tenant_name_cached:
            tenant += " (last seen)"
        rows.append(
            (
                "*" if status.active else "",
                status.name,
                status.label or "",
                status.base_url,
                tenant,
                status.status_text,
                status.usage.text() if status.usage else "",
                status.applications.text() if status.applications else "",
                status.proxies.text() if status.proxies else "",
                status.formulas.text() if status.formulas else "",
                status.reactors.text() if status.reactors else "",
            )
        )
    if not any(row[2] for row in rows[1:]):
        rows = [(row[0], row[1], *row[3:]) for row in rows]
    return rows


def render_table(statuses: Sequence[ProfileStatus]) -> str:
    rows = table_rows(statuses)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _error(message: str, stream: TextIO | None = None) -> None:
    print(f"tenant-console: {message}", file=stream or sys.stderr)
