"""`tenant-console history` and `tenant-console undo CHANGE_ID`.

history lists the journal newest first (a table, or JSON for scripts); undo takes one change
back against the profile it was made on, after showing what it will do and asking.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING, TextIO, cast

from console.journal.diff import diff_lines, field_diffs

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.journal.rotations import Rotation
    from console.journal.store import Change
    from console.journal.undo import UndoPlan

OK, FAILED, USAGE = 0, 1, 2


def visible(text: str) -> str:
    """`text` with control characters escaped: what a service sent never drives the terminal."""
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def _error(message: str, err: TextIO) -> None:
    print(f"tenant-console: {visible(message)}", file=err)


def when(change: Change) -> str:
    if change.unreadable is not None:
        return "?"
    return change.started_at.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def what(change: Change) -> str:
    """`update proxy "Checkout"`, `undo of 12: create proxy "Checkout"`."""
    from console.journal.undo import noun

    if change.unreadable is not None:
        return f"unreadable entry ({change.unreadable}): skipped"
    text = f"{change.action} {noun(change.kind)}"
    if change.name:
        text += f' "{change.name}"'
    if change.undoes is not None:
        text = f"undo of {change.undoes}: {text}"
    return text


def change_details(change: Change) -> list[str]:
    """What an update changed, field by field (code as a line diff); what a delete removed
    and a create made, field by field. Configuration values show as *** (and a line says when
    undo cannot restore them: they were masked, not sealed)."""
    from console.journal.diff import NOT_COMPARED, short
    from console.journal.sealed import CONFIGURATION, NOT_RESTORABLE, restorable

    if change.outcome != "ok":
        return []
    lines: list[str] = []
    if change.action == "update":
        lines = diff_lines(field_diffs(change.before, change.after))
    body = change.before if change.action == "delete" else change.after
    if change.action in ("create", "delete") and isinstance(body, dict):
        lines = [
            f"{name}: {_configuration(value) if name == CONFIGURATION else short(value)}"
            for name, value in body.items()
            if name not in NOT_COMPARED
        ]
    if restorable((change.before, change.after)) is False:
        lines.append(f"({NOT_RESTORABLE})")
    return lines


def _configuration(value: object) -> str:
    """A configuration map by its names: `REGION, API_KEY (values not shown)`."""
    from console.journal.diff import short

    if not isinstance(value, dict) or not value:
        return short(value)
    return f"{short([str(name) for name in value])} (values not shown)"


# ---- history --------------------------------------------------------------------------


def _key_id(change: Change) -> str | None:
    """The key a `create key` made or a `revoke key` revoked."""
    if change.action == "create key":
        after = change.after
        return str(after["id"]) if isinstance(after, dict) and after.get("id") else None
    if change.action == "revoke key":
        return change.path.rstrip("/").rsplit("/", 1)[-1] or None
    return None


def rotation_of(change: Change, rotations: list[Rotation]) -> Rotation | None:
    """The rotation a key change belongs to: the one whose new key it made, or one of whose
    old keys it revoked (on the same service and application)."""
    key_id = _key_id(change) if change.outcome == "ok" else None
    if key_id is None:
        return None
    for rotation in rotations:
        if rotation.application_id != change.object_id or (
            rotation.base_url and rotation.base_url != change.base_url
        ):
            continue
        if change.action == "create key" and rotation.new_key_id == key_id:
            return rotation
        if change.action == "revoke key" and key_id in rotation.old_key_ids:
            return rotation
    return None


def _at(text: str) -> str:
    from datetime import datetime

    try:
        return datetime.fromisoformat(text).astimezone().strftime("%Y-%m-%d %H:%M:%S")
    except ValueError:
        return text


def rotation_state(rotation: Rotation) -> str:
    if rotation.finished_at:
        return f"finished {_at(rotation.finished_at)}"
    if rotation.cancelled_at:
        return f"cancelled {_at(rotation.cancelled_at)}"
    return "in progress"


def rotation_line(change: Change, rotation: Rotation) -> str:
    """The line under a key change that belongs to a rotation."""
    if change.action == "create key":
        count = len(rotation.old_key_ids)
        return f"rotation {rotation.id}: started, {count} old key(s) to revoke; " + (
            rotation_state(rotation)
        )
    return f"rotation {rotation.id}: an old key revoked; {rotation_state(rotation)}"


def rotation_json(rotation: Rotation) -> dict[str, object]:
    return {
        "id": rotation.id,
        "new_key_id": rotation.new_key_id,
        "old_key_ids": rotation.old_key_ids,
        "started_at": rotation.started_at,
        "finished_at": rotation.finished_at,
        "cancelled_at": rotation.cancelled_at,
    }


def history(args: argparse.Namespace, out: TextIO | None = None) -> int:
    from console.journal.store import open_journal

    # typeshed types sys.std* as TextIO | Any (None without a console): cast, or pyright
    # widens the parameter back to TextIO | None.
    out = out or cast("TextIO", sys.stdout)
    if args.limit < 1:
        _error("--limit must be 1 or more.", sys.stderr)
        return USAGE
    from console.journal.store import JournalError

    journal = open_journal()
    try:
        changes = journal.list(profile=args.profile, limit=args.limit)
        rotations = journal.rotations(limit=1000) if changes else []
    except JournalError as problem:
        _error(str(problem), sys.stderr)
        return FAILED
    from console.journal.settle import CHECK, shown_outcome

    found = {c.id: rotation_of(c, rotations) for c in changes}
    if args.format == "json":
        entries = []
        for change in changes:
            entry = change.to_json()
            if shown_outcome(change) == CHECK:  # left pending by a console that stopped
                entry["needs_check"] = True
            if (rotation := found[change.id]) is not None:
                entry["rotation"] = rotation_json(rotation)
            entries.append(entry)
        out.write(json.dumps(entries, indent=2) + "\n")
        return OK
    if not changes:
        print("No changes recorded yet." if not args.profile else "No changes for this profile.")
        return OK
    rows = [
        (
            str(c.id),
            when(c),
            c.profile or c.base_url,
            c.tenant or "",
            what(c),
            c.origin,
            shown_outcome(c),
        )
        for c in changes
    ]
    from console.kinds import TENANT

    head = ("ID", "WHEN", "PROFILE", TENANT.nouns.singular.upper(), "CHANGE", "VIA", "OUTCOME")
    widths = [max(len(visible(r[i])) for r in [head, *rows]) for i in range(len(head))]
    for index, row in enumerate([head, *rows]):
        line = "  ".join(visible(cell).ljust(widths[i]) for i, cell in enumerate(row))
        print(line.rstrip(), file=out)
        if index:
            change = changes[index - 1]
            details = change_details(change)
            if (rotation := found[change.id]) is not None:
                details = [rotation_line(change, rotation), *details]
            for detail in details:
                print("      " + visible(detail), file=out)
    return OK


# ---- undo -----------------------------------------------------------------------------


def undo(args: argparse.Namespace, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    from console.journal.store import open_journal
    from console.journal.undo import CannotUndo, plan_undo

    # typeshed types sys.std* as TextIO | Any (None without a console): cast, or pyright
    # widens the parameter back to TextIO | None.
    out = out or cast("TextIO", sys.stdout)
    stdin = stdin or cast("TextIO", sys.stdin)
    err = sys.stderr
    from console.journal.store import JournalError

    if args.read_only:
        _error("Read-only mode: undo is refused. Nothing was changed.", err)
        return FAILED
    try:
        change = open_journal().get(args.change_id)
    except JournalError as problem:
        _error(str(problem), err)
        return FAILED
    if change is None:
        _error(f"No change {args.change_id} in the journal (see tenant-console history).", err)
        return FAILED
    if change.unreadable is not None:
        _error(
            f"Change {change.id} cannot be undone: its journal entry cannot be read "
            f"({change.unreadable}). Nothing was changed.",
            err,
        )
        return FAILED
    try:
        plan = plan_undo(change)
    except CannotUndo as reason:
        _error(f"Change {change.id} cannot be undone: {reason}", err)
        return FAILED
    try:
        client = _client_for(change)
    except ValueError as problem:
        _error(str(problem), err)
        return FAILED
    return asyncio.run(_undo(client, plan, args.yes, stdin, out, err))


def _client_for(change: Change) -> AdminClient:
    """A journaling client for the profile the change was made on, or for the environment's
    connection when it was made through one; ValueError if that profile is gone, has no key
    or now points at another service. (check_now then checks the tenant.)"""
    from console.client import AdminClient
    from console.journal.store import open_journal
    from console.profiles.config import ProfileError
    from console.profiles.resolve import resolve_connection

    if change.profile is None:
        return _environment_client(change)
    try:
        found = resolve_connection(change.profile)
    except ProfileError as error:
        raise ValueError(str(error)) from None
    if found.key is None:
        raise ValueError(found.key_problem or f"No key for profile {change.profile}.")
    if found.base_url.rstrip("/") != change.base_url.rstrip("/"):
        raise ValueError(
            f"Profile {change.profile} now points at {found.base_url}, not {change.base_url} "
            "where the change was made: nothing was changed."
        )
    client = AdminClient(found.base_url, found.key, key_header=found.key_header)
    client.record_changes(open_journal(), profile=change.profile, origin="undo")
    return client


def _environment_client(change: Change) -> AdminClient:
    """A change made without a profile is undone through the environment's connection
    (TENANT_CONSOLE_BASE_URL and TENANT_CONSOLE_API_KEY), when it points at the same service;
    ValueError naming both services otherwise."""
    import os

    from console.client import AdminClient
    from console.journal.store import open_journal
    from console.profiles.config import ProfileError
    from console.profiles.resolve import API_KEY_ENV, BASE_URL_ENV, resolve_connection

    made_on = f"{change.base_url} (tenant {change.tenant or 'not recorded'})"
    if not (os.environ.get(BASE_URL_ENV, "").strip() and os.environ.get(API_KEY_ENV, "").strip()):
        raise ValueError(
            f"Change {change.id} was made without a profile, on {made_on}: set {BASE_URL_ENV} "
            f"and {API_KEY_ENV} to that service and a key of that tenant to undo it. Nothing "
            "was changed."
        )
    try:
        found = resolve_connection()
    except ProfileError as error:
        raise ValueError(str(error)) from None
    if found.key is None or found.profile is not None:  # not the environment's after all
        raise ValueError(f"Change {change.id} was made without a profile, on {made_on}.")
    if found.base_url.rstrip("/") != change.base_url.rstrip("/"):
        raise ValueError(
            f"Change {change.id} was made on {made_on}, but {BASE_URL_ENV} points at "
            f"{found.base_url}: nothing was changed."
        )
    client = AdminClient(found.base_url, found.key, key_header=found.key_header)
    client.record_changes(open_journal(), profile=None, origin="undo")
    return client


async def _undo(
    client: AdminClient, plan: UndoPlan, yes: bool, stdin: TextIO, out: TextIO, err: TextIO
) -> int:
    from console.client import ApiError
    from console.journal.settle import settle_at_start
    from console.journal.undo import CannotUndo, check_now, noun, run_undo

    async with client:
        await settle_at_start(client, plan.change.profile, err)
        try:
            await check_now(client, plan)
        except CannotUndo as reason:
            _error(f"Change {plan.change.id} cannot be undone: {reason}", err)
            return FAILED
        except ApiError as error:
            _error(f"Could not read the object as it is now: {error}", err)
            return FAILED
        print(visible(plan.summary) + ".", file=out)
        for line in diff_lines(plan.diffs):
            print("  " + visible(line), file=out)
        for note in plan.notes:
            print(visible(note), file=out)
        if plan.changed_since:
            print(
                "It was changed after this change was made: undoing overwrites those changes.",
                file=out,
            )
        if not yes and not _ask("Undo it?", stdin, out, err):
            return FAILED
        relink = False
        if plan.relink:
            names = ", ".join(p["name"] for p in plan.relink)
            question = f"Link {names} to the new {noun(plan.kind)}?"
            relink = yes or _ask(question, stdin, out, err, declined="They stay unlinked.")
        try:
            result = await run_undo(client, plan, relink=relink)
        except (ApiError, CannotUndo) as error:
            _error(f"Not undone: {error}", err)
            return FAILED
    for line in result.lines:
        print(visible(line), file=out)
    if result.new_key:
        print("New key (shown once: store it now):", file=out)
        print(f"  {plan.change.name}: {result.new_key}", file=out)
    return OK


def _ask(
    question: str,
    stdin: TextIO,
    out: TextIO,
    err: TextIO,
    *,
    declined: str = "Nothing was changed.",
) -> bool:
    """Asks on the terminal; default no. Without a terminal, refuses: pass --yes."""
    try:
        tty = stdin.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        _error("Not undone: standard input is not a terminal to confirm on; pass --yes.", err)
        return False
    print(f"{question} [y/N] ", end="", flush=True, file=out)
    if stdin.readline().strip().lower() in ("y", "yes"):
        return True
    print(declined, file=out)
    return False
