"""`tenant-console export | diff | apply`: a tenant's configuration as a file, and back.

Exit codes: 0 done (or nothing to do), 1 failed or refused, 2 unusable arguments; `diff
--exit-code` answers 3 when there is something to do. Keys never reach the output, except a
created application's, once, at the end of `apply` (or in the --keys-out file).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from console.estate.document import Document, DocumentError, dumps, read_file, redact, write_private

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.estate.apply import ApplyResult
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
    except DocumentError as error:
        _error(str(error))
        return FAILED


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
    label = f'profile "{found.profile}"' if found.profile else found.base_url
    client = AdminClient(
        found.base_url, found.key, key_header=found.key_header, budget=found.budget()
    )
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
    profile: str | None, *, own_application: bool = False
) -> tuple[TenantSnapshot, str]:

    client, label = open_client(profile)
    async with client:
        return await _read(client, label, own_application), label


async def _read(client: AdminClient, label: str, own_application: bool) -> TenantSnapshot:
    from console.client import ApiError
    from console.estate.tenant import read_tenant

    try:
        return await read_tenant(client, own_application=own_application)
    except ApiError as error:
        raise CommandFailed(f"Cannot read the tenant of {label}: {error}") from None


# ---- export ---------------------------------------------------------------------------


def _export(args: argparse.Namespace) -> int:
    snapshot, label = asyncio.run(read_profile(getattr(args, "profile", None)))
    document = redact(snapshot.document) if args.redact else snapshot.document
    text = dumps(document, args.format)
    if args.output:
        write_private(Path(args.output), text)
        counts = ", ".join(f"{len(document[k])} {k.replace('_', ' ')}" for k in _KINDS)
        print(f"Wrote the configuration of {label} to {args.output} ({counts}).", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return OK


_KINDS = ("applications", "proxies", "reactor_formulas")


# ---- diff -----------------------------------------------------------------------------


def is_file(spec: str) -> bool:
    """A SOURCE or TARGET is a file when such a file exists, else a profile name."""
    return Path(spec).expanduser().is_file()


async def load_source(spec: str) -> tuple[Document, str]:
    if is_file(spec):
        return read_file(Path(spec).expanduser()), spec
    snapshot, label = await read_profile(spec)
    return snapshot.document, label


async def load_target(spec: str, *, own_application: bool = False) -> tuple[TenantSnapshot, str]:
    from console.estate.tenant import TenantSnapshot

    if is_file(spec):
        document = read_file(Path(spec).expanduser())
        names: dict[str, dict[str, list[str]]] = {}
        for kind in _KINDS:
            for item in document[kind]:
                names.setdefault(kind, {}).setdefault(item["name"], []).append("")
        return TenantSnapshot(
            document, document.get("tenant") or "", document["settings"], names
        ), spec
    return await read_profile(spec, own_application=own_application)


def _diff(args: argparse.Namespace) -> int:
    from console.estate.plan import compute_plan
    from console.estate.render import plan_lines

    async def both() -> tuple[tuple[Document, str], tuple[TenantSnapshot, str]]:
        return await asyncio.gather(load_source(args.source), load_target(args.target))

    (source, source_label), (target, target_label) = asyncio.run(both())
    plan = compute_plan(source, target, source_label=source_label, target_label=target_label)
    print("\n".join(plan_lines(plan, show_unchanged=args.all)))
    return DIFFERENT if args.exit_code and not plan.nothing_to_do else OK


# ---- apply ----------------------------------------------------------------------------


def _apply(args: argparse.Namespace, stdin: TextIO | None = None) -> int:
    if getattr(args, "read_only", False):
        raise CommandFailed("Read-only mode: apply is refused. Nothing was changed.")
    document = read_file(Path(args.file).expanduser())
    return asyncio.run(_apply_async(args, document, stdin or sys.stdin))


async def _apply_async(args: argparse.Namespace, document: Document, stdin: TextIO) -> int:
    from console.estate.apply import ApplyRefused, apply_plan, check_applicable
    from console.estate.plan import compute_plan
    from console.estate.render import plan_lines

    client, label = open_client(getattr(args, "profile", None))
    async with client:
        target = await _read(client, label, own_application=args.prune)
        plan = compute_plan(
            document, target, source_label=args.file, target_label=label, prune=args.prune
        )
        print("\n".join(plan_lines(plan, show_unchanged=False)))
        if plan.nothing_to_do:
            return OK
        try:
            check_applicable(plan)
        except ApplyRefused as refused:
            raise CommandFailed(f"{refused} Nothing was changed.") from None
        if not args.yes and not _confirm(plan, label, stdin):
            return FAILED
        print()
        result = await apply_plan(client, plan, lambda step, line: print(f"  done: {line}"))
    return _report(result, args.keys_out)


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


def _report(result: ApplyResult, keys_out: str | None) -> int:
    if result.failed is not None:
        _error(f"Stopped: {result.failed.action} {result.failed.label} failed: {result.error}")
        print(f"Done: {len(result.done)} steps." if result.done else "Nothing was done.")
        print("Not done:")
        for step in result.not_done:
            print(f"  {step.action} {step.label}")
        print("Run the same apply again to finish: it plans from what the tenant now holds.")
    else:
        print(f"Applied: {len(result.done)} steps.")
    if result.new_keys:
        if keys_out:
            keys = [{"application": k.application, "key": k.key} for k in result.new_keys]
            write_private(Path(keys_out), json.dumps({"keys": keys}, indent=2) + "\n")
            print(f"The new applications' keys are in {keys_out} (mode 0600).")
        else:
            print("New applications' keys (shown once: store them now):")
            for new in result.new_keys:
                print(f"  {new.application}: {new.key}")
    return OK if result.failed is None else FAILED


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _error(message: str) -> None:
    print(f"tenant-console: {message}", file=sys.stderr)
