"""`tenant-console export | diff | apply`: a tenant's configuration as a file, and back.

Exit codes: 0 done (or nothing to do), 1 failed or refused, 2 unusable arguments (including a
configuration file with any problem: all of them are listed, nothing is sent); `diff
--exit-code` answers 3 when there is something to do. Keys never reach the output, except a
created application's, once, at the end of `apply` (or in the --keys-out file).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from console.clock import now as clock_now
from console.estate.document import (
    Document,
    DocumentError,
    checked,
    dumps,
    read_data,
    read_file,
    redact,
)
from console.estate.travelling import SETTINGS, TENANT, in_document
from console.files import already_exists
from console.terminal_text import printable

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.estate.apply import ApplyResult
    from console.estate.keys_out import KeysOut
    from console.estate.plan import Plan
    from console.estate.tenant import TenantSnapshot

OK, FAILED, USAGE, DIFFERENT = 0, 1, 2, 3


class CommandFailed(Exception):
    def __init__(self, message: str, code: int = FAILED) -> None:
        super().__init__(message)
        self.code = code


def run(args: argparse.Namespace) -> int:
    commands: dict[str, Callable[[argparse.Namespace], int]] = {
        "export": _export,
        "diff": _diff,
        "apply": _apply,
    }
    try:
        return commands[args.command](args)
    except CommandFailed as failure:
        _error(str(failure))
        return failure.code
    except DocumentError as error:  # the file is unusable: nothing was read or sent
        _error(str(error))
        return USAGE


# ---- connections ----------------------------------------------------------------------


def open_client(profile: str | None) -> tuple[AdminClient, str]:
    """A client for the profile (or the active one) and a label for it; one clear line if
    the profile or its key cannot be used."""
    from console.client import AdminClient
    from console.profiles.config import ProfileError
    from console.profiles.resolve import resolve_connection

    try:
        found = resolve_connection(profile)
    except ProfileError as error:
        raise CommandFailed(str(error)) from None
    if found.key is None:
        raise CommandFailed(found.key_problem or "No key for this profile.")
    from console.journal.store import open_journal

    label = f'profile "{found.profile}"' if found.profile else found.base_url
    client = AdminClient(
        found.base_url, found.key, key_header=found.key_header, budget=found.budget()
    )
    client.record_changes(open_journal(), profile=found.profile, origin="apply")
    _say_waits(client)
    from console.client.index import LocalIndex

    client.index = LocalIndex.open_quietly(found.profile, found.base_url)
    return client, label


def _say_waits(client: AdminClient) -> None:
    """A walk held back by the profile's request budget (or a 429) says so on stderr."""
    from console.client.budget import waiting_text

    def waiting(seconds: float) -> None:
        if seconds > 0:
            print(f"tenant-console: {waiting_text(seconds)}", file=sys.stderr)

    client.budget.watch(waiting)


async def read_profile(
    profile: str | None, *, own_application: bool = False, catalogue: bool = False
) -> tuple[TenantSnapshot, str]:

    client, label = open_client(profile)
    async with client:
        return await _read(client, label, own_application, catalogue), label


async def _read(
    client: AdminClient, label: str, own_application: bool, catalogue: bool = False
) -> TenantSnapshot:
    """The tenant; with `catalogue`, its service's permission catalogue too (a file sent to
    it is checked against both before anything is sent)."""
    from console.client import ApiError
    from console.estate.tenant import read_catalogue, read_tenant

    try:
        snapshot = await read_tenant(client, own_application=own_application)
    except ApiError as error:
        raise CommandFailed(f"Cannot read the tenant of {label}: {error}") from None
    if catalogue:
        snapshot.catalogue = await read_catalogue(client)
    return snapshot


# ---- export ---------------------------------------------------------------------------


def _export(args: argparse.Namespace) -> int:
    """`-o FILE` is checked first: a file already there is refused (exit 2) before the
    tenant is read, unless --force; it is created exclusively all the same (console.files)."""
    force = bool(args.force)
    if args.output and not force and os.path.lexists(Path(args.output).expanduser()):
        raise CommandFailed(already_exists(args.output), USAGE)
    snapshot, label = asyncio.run(read_profile(args.profile))
    document = redact(snapshot.document) if args.redact else snapshot.document
    text = dumps(document, args.format)
    if args.output:
        _write_output(Path(args.output), text, force)
        counts = ", ".join(f"{len(document[k.key])} {k.nouns.plural}" for k in in_document())
        print(f"Wrote the configuration of {label} to {args.output} ({counts}).", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return OK


def _write_output(path: Path, text: str, force: bool) -> None:
    """A new file readable by its owner only (proxy configuration values may be secrets)."""
    from console.files import create_file

    try:
        create_file(path, text, force=force, private=True)
    except FileExistsError:  # it appeared while the tenant was read
        raise CommandFailed(already_exists(str(path)), USAGE) from None
    except OSError as error:
        raise CommandFailed(
            f"Could not write {path}: {error.strerror or error}. Nothing was written."
        ) from None


# ---- diff -----------------------------------------------------------------------------


def is_file(spec: str) -> bool:
    """A SOURCE or TARGET is a file when such a file exists, else a profile name."""
    return Path(spec).expanduser().is_file()


async def load_source(spec: str) -> tuple[Document, str, Any]:
    """The source's document and label, and a file's data as read (None for a tenant), to
    check again against the target."""
    if is_file(spec):
        data = read_data(Path(spec).expanduser())
        return checked(data, spec), spec, data
    snapshot, label = await read_profile(spec)
    return snapshot.document, label, None


async def load_target(spec: str, *, own_application: bool = False) -> tuple[TenantSnapshot, str]:
    from console.estate.tenant import TenantSnapshot

    if is_file(spec):
        document = read_file(Path(spec).expanduser())
        names: dict[str, dict[str, list[str]]] = {}
        for kind in in_document():
            for item in document[kind.key]:
                names.setdefault(kind.key, {}).setdefault(item[kind.name_field], []).append("")
        return TenantSnapshot(document, document.get(TENANT) or "", document[SETTINGS], names), spec
    return await read_profile(spec, own_application=own_application, catalogue=True)


def _diff(args: argparse.Namespace) -> int:
    from console.estate.plan import compute_plan
    from console.estate.render import plan_lines

    async def both() -> tuple[tuple[Document, str, Any], tuple[TenantSnapshot, str]]:
        if is_file(args.source):  # a file first: one with problems asks nothing of a service
            source = await load_source(args.source)
            return source, await load_target(args.target)
        return await asyncio.gather(load_source(args.source), load_target(args.target))

    (source, source_label, data), (target, target_label) = asyncio.run(both())
    if data is not None:  # a file: what it asks of this target is checked too
        now = None if is_file(args.target) else clock_now()
        source = checked(data, source_label, target.facts(now), target_label)
    plan = compute_plan(source, target, source_label=source_label, target_label=target_label)
    print("\n".join(plan_lines(plan, show_unchanged=args.all)))
    return DIFFERENT if args.exit_code and plan.differs else OK


# ---- apply ----------------------------------------------------------------------------


def _apply(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    """Everything that can be checked is, before the first request: read-only mode, the whole
    file, the --keys-out path."""
    from console.estate.keys_out import KeysOutUnusable, check_keys_out

    if args.read_only:
        raise CommandFailed("Read-only mode: apply is refused. Nothing was changed.")
    data = read_data(Path(args.file).expanduser())
    checked(data, args.file)  # the file itself, before any request
    keys_out = None
    if args.keys_out:
        try:
            keys_out = check_keys_out(args.keys_out)
        except KeysOutUnusable as unusable:
            raise CommandFailed(f"{unusable} Nothing was changed.", USAGE) from None
    return asyncio.run(_apply_async(args, data, stdin or sys.stdin, keys_out))


async def _apply_async(
    args: argparse.Namespace, data: Any, stdin: TextIO, keys_path: Path | None
) -> int:
    from console.estate.apply import ApplyRefused, ApplyResult, apply_plan, check_applicable
    from console.estate.keys_out import KeysOut
    from console.estate.plan import compute_plan
    from console.estate.render import plan_lines

    force = bool(args.force)
    from console.journal.settle import settle_at_start

    client, label = open_client(args.profile)
    async with client:
        await settle_at_start(client, client.recording.profile if client.recording else None)
        target = await _read(client, label, own_application=args.prune, catalogue=True)
        # What the file asks of this target (its applications, its service's permissions):
        # every problem listed, and nothing sent, before the plan.
        document = checked(data, args.file, target.facts(clock_now()), label)
        plan = compute_plan(
            document, target, source_label=args.file, target_label=label, prune=args.prune
        )
        print("\n".join(plan_lines(plan, show_unchanged=False)))
        if plan.nothing_to_do:
            return OK
        try:
            check_applicable(plan, force=force)
        except ApplyRefused as refused:
            raise CommandFailed(f"{printable(str(refused))} Nothing was changed.") from None
        if force and plan.code_problems():
            print("Applying code the check finds broken, as --force asks.")
        if not args.yes and not _confirm(plan, label, stdin):
            return FAILED
        print()
        keys_out = KeysOut(keys_path, label) if keys_path is not None else None
        result = ApplyResult()
        try:
            await apply_plan(
                client,
                plan,
                lambda step, line: print(f"  done: {printable(line)}", flush=True),
                result=result,
                on_key=keys_out.add if keys_out is not None else None,
                force=force,
            )
        finally:  # whatever stops the apply, the keys it created are written or shown
            _keep_keys(result, keys_out)
    return _report(result)


def _confirm(plan: Plan, label: str, stdin: TextIO) -> bool:
    """Asks on the terminal; default no. Without a terminal, refuses: pass --yes."""
    count = len(plan.to_do)
    if not _is_tty(stdin):
        _error("Not applied: standard input is not a terminal to confirm on; pass --yes.")
        return False
    print(f"Apply these {count} changes to {label}? [y/N] ", end="", flush=True)
    answer = stdin.readline().strip().lower()
    if answer not in ("y", "yes"):
        print("Not applied: nothing was changed.")
        return False
    return True


def _report(result: ApplyResult) -> int:
    if result.failed is not None:
        failed = printable(f"{result.failed.action} {result.failed.label}")
        _error(f"Stopped: {failed} failed: {printable(result.error)}")
        print(f"Done: {len(result.done)} steps." if result.done else "Nothing was done.")
        print("Not done:")
        for step in result.not_done:
            print(f"  {step.action} {printable(step.label)}")
        print("Run the same apply again to finish: it plans from what the tenant now holds.")
    else:
        print(f"Applied: {len(result.done)} steps.")
    return OK if result.failed is None else FAILED


def _keep_keys(result: ApplyResult, keys_out: KeysOut | None) -> None:
    """Says where the new keys are; prints, once, every key not in the --keys-out file."""
    shown = result.new_keys
    if keys_out is not None:
        if keys_out.written:
            print(
                f"The new applications' keys are in {keys_out.path} (mode 0600; "
                f"{len(keys_out.written)} added to it)."
            )
        shown = keys_out.unwritten
        if shown:
            _error(
                f"Could not write the new keys to {keys_out.path}: {keys_out.problem}. "
                "They are printed below instead, this once."
            )
    if shown:
        print("New applications' keys (shown once: store them now):", flush=True)
        for new in shown:
            print(f"  {printable(new.application)}: {new.key}", flush=True)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _error(message: str) -> None:
    print(f"tenant-console: {message}", file=sys.stderr)
