"""`tenant-console push KIND NAME --code FILE [--watch]`: a local file's code to the service
(KIND formula, transform or reactor).

Exit codes: 0 pushed (or already there, or a watch stopped with Ctrl-C), 1 refused (by the
code check: syntax errors or no module.exports, unless --force; by the
service, the lost-update guard, read-only mode, or no such object), 2 unusable arguments
(including a file that cannot be read).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, TextIO, cast

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.code_files.push import CodePusher, ConcurrentChange, PushKind, PushOutcome
    from console.code_files.watch import FileWatch


OK, FAILED, USAGE = 0, 1, 2
READ_ONLY_REFUSAL = "Read-only mode: pushing is refused."


def _stamp() -> str:
    return time.strftime("%H:%M:%S")


def push(args: argparse.Namespace) -> int:
    """The `push` handler; Ctrl-C ends a watch with exit 0."""
    try:
        return run_push(args)
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        return OK


def run_push(
    args: argparse.Namespace,
    *,
    stop: threading.Event | None = None,
    max_polls: int | None = None,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """`push` itself; `stop` and `max_polls` end a watch (for tests and embedding)."""
    from console.code_files.push import PushRefused
    from console.code_files.watch import CodeFileProblem, read_code_text

    # typeshed types sys.std* as TextIO | Any (None without a console): cast, or pyright
    # widens the parameter back to TextIO | None.
    out = out or cast("TextIO", sys.stdout)
    err = err or cast("TextIO", sys.stderr)
    kind: PushKind = args.kind
    if kind == "transform" and args.field is None:
        print(
            "tenant-console push: a transform needs --field request or --field response.", file=err
        )
        return USAGE
    if kind != "transform" and args.field is not None:
        print(f"tenant-console push: --field is for transforms; a {kind} has one code.", file=err)
        return USAGE
    if args.read_only:
        print(f"tenant-console push: {READ_ONLY_REFUSAL}", file=err)
        return FAILED
    path = Path(args.code).expanduser()
    try:
        code = read_code_text(path)
    except CodeFileProblem as problem:
        print(f"tenant-console push: {problem}", file=err)
        return USAGE
    force = bool(args.force)
    if not args.watch and _refused_by_check(code, path, force, err):
        return FAILED
    from console.profiles.config import ProfileError
    from console.profiles.resolve import resolve_connection

    try:
        connection = resolve_connection(args.profile)
    except ProfileError as error:
        print(f"tenant-console push: {error}", file=err)
        return FAILED
    if connection.key is None:
        print(f"tenant-console push: {connection.key_problem}", file=err)
        return FAILED
    from console.client import AdminClient, ApiError
    from console.client._http import RetryPolicy

    async def main() -> int:
        # Reads may be repeated on a busy service; an update never is.
        retry = RetryPolicy(methods=frozenset({"GET"}))
        async with AdminClient(
            connection.base_url,
            connection.key or "",
            key_header=connection.key_header,
            retry=retry,
            budget=connection.budget(),  # the profile's requests a minute
        ) as client:
            from console.journal.store import open_journal

            client.record_changes(open_journal(), profile=connection.profile, origin="push")
            from console.journal.settle import settle_at_start

            await settle_at_start(client, connection.profile, err)
            try:
                return await _push(client, args, path, code, stop, max_polls, out, err)
            except PushRefused as refusal:
                print(str(refusal), file=err)
                return FAILED
            except ApiError as error:
                print(f"Not pushed: {error}", file=err)
                return FAILED

    return asyncio.run(main())


async def _push(
    client: AdminClient,
    args: argparse.Namespace,
    path: Path,
    checked: str,
    stop: threading.Event | None,
    max_polls: int | None,
    out: TextIO,
    err: TextIO,
) -> int:
    """Pushes the file's code. `checked`: the code run_push already checked (and, with
    --force, already said it pushes anyway): checked again only if the file changed since."""
    from console.code_files.push import CodePusher, ConcurrentChange, find_target
    from console.code_files.watch import FileWatch

    force = bool(args.force)

    target = await find_target(client, args.kind, args.name, args.field)
    pusher = CodePusher(client, target)
    watch = FileWatch(path)
    code = watch.read()
    if not args.watch:
        if code != checked and _refused_by_check(code, path, force, err):  # changed since
            return FAILED
        try:
            _report(await pusher.push(code, source=path.name), path, pusher, out)
        except ConcurrentChange as change:
            _refused(change, err, again="Merge their changes into the file, then push again.")
            return FAILED
        return OK
    print(f"Watching {path} for {target.noun}; Ctrl-C stops.", file=err, flush=True)
    await watch_and_push(
        pusher,
        watch,
        first=code,
        interval=args.interval,
        stop=stop,
        max_polls=max_polls,
        out=out,
        err=err,
        force=force,
    )
    return OK


def _refused_by_check(code: str, path: Path, force: bool, err: TextIO) -> bool:
    """The code check the console's forms run before saving (syntax, module.exports): its
    problems refuse the push unless `force`; with `force` they are said and the push goes on."""
    from console.code_files.problems import code_check_sentences

    problems = code_check_sentences(f"code in {path.name}", code)
    if not problems:
        return False
    if force:
        print(f"{_stamp()} Pushing anyway (--force): {' '.join(problems)}", file=err, flush=True)
        return False
    print(
        f"{_stamp()} Not pushed: {' '.join(problems)} Fix the code, or push anyway with --force.",
        file=err,
        flush=True,
    )
    return True


async def watch_and_push(
    pusher: CodePusher,
    watch: FileWatch,
    *,
    first: str | None,
    interval: float,
    stop: threading.Event | None = None,
    max_polls: int | None = None,
    out: TextIO,
    err: TextIO,
    force: bool = False,
) -> None:
    """Pushes `first`, then the file's text after each save, until `stop` is set or
    `max_polls` polls went by. A refusal or failure is reported and the watch goes on; code
    the check finds broken is not pushed (unless `force`) until a save fixes it."""
    from console.client import ApiError
    from console.code_files.push import ConcurrentChange, PushRefused
    from console.code_files.watch import CodeFileProblem

    polls = 0
    code = first
    while True:
        if code is not None and _refused_by_check(code, watch.path, force, err):
            code = None
        if code is not None:
            try:
                _report(await pusher.push(code, source=watch.path.name), watch.path, pusher, out)
            except ConcurrentChange as change:
                _refused(
                    change,
                    err,
                    again="Save the file again to push over their version, or "
                    "stop (Ctrl-C), merge their changes into the file and save it.",
                )
            except PushRefused as refusal:
                print(f"{_stamp()} {refusal}", file=err, flush=True)
            except ApiError as error:
                print(
                    f"{_stamp()} Not pushed: {error} Save the file again to retry.",
                    file=err,
                    flush=True,
                )
        if (stop is not None and stop.is_set()) or (max_polls is not None and polls >= max_polls):
            return
        await asyncio.sleep(interval)
        polls += 1
        try:
            code = watch.poll()
        except CodeFileProblem as problem:
            print(f"{_stamp()} {problem} Still watching.", file=err, flush=True)
            code = None


def _report(outcome: PushOutcome, path: Path, pusher: CodePusher, out: TextIO) -> None:
    from console.code_files.push import when

    noun = pusher.target.noun
    if outcome.pushed:
        line = f"{_stamp()} Pushed {path.name} to the {noun} (modified {when(pusher.target.base)})."
    else:
        line = f"{_stamp()} The {noun} already holds {path.name}'s code; nothing pushed."
    print(line, file=out, flush=True)


def _refused(change: ConcurrentChange, err: TextIO, *, again: str) -> None:
    print(f"{_stamp()} {change} {again}", file=err)
    if change.diff:
        print("\n".join(change.diff), file=err)
    err.flush()
