"""`tenant-console reactors list|show NAME|react NAME --request FILE [--async]`: reactors
from a script.

`list` prints every reactor (name, state, image, id), `show` one, found by its exact name or
id, with its runtime and the names of its configuration settings (never their values);
`--format json` prints them as JSON (configuration values as `***`). `react` runs the
reactor on the service with the request file's `args` (the file holds `{"args": ...}`, or
any other JSON taken as the args themselves) and prints what it answered as JSON; with
`--async` it starts the run and polls its result (each second) until it is done or
`--wait` seconds went by. Running a reactor changes no object: it is not journalled, and it
is allowed in read-only mode, as in the console (it needs `reactor:invoke`).

Exit codes: 0 done; 1 failed (the service refused, the reactor failed or is not active,
an async result still pending at the deadline, the profile); 2 unusable arguments (a
request file that cannot be read); 3 `show` or `react` found no reactor of that name.
What the service sent is shown with its control characters escaped. Never imports Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from console.cli_support import Command, Refused, admin_client, print_one
from console.terminal_text import printable, printable_json

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.models import Reactor
    from console.profiles.resolve import ResolvedConnection

OK, FAILED, USAGE, NOT_FOUND = 0, 1, 2, 3
POLL_SECONDS = 1.0
"""How often `react --async` asks for the result."""
MASK = "***"


COMMAND = Command("tenant-console reactors")
_error = COMMAND.error


def reactor_json(reactor: Reactor) -> dict[str, Any]:
    """A reactor as `--format json` prints it: configuration values masked."""
    data = reactor.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(data.get("configuration"), dict):
        data["configuration"] = dict.fromkeys(data["configuration"], MASK)
    requested = data.get("requested")
    if isinstance(requested, dict) and isinstance(requested.get("reactor"), dict):
        pending = requested["reactor"]
        if isinstance(pending.get("configuration"), dict):
            pending["configuration"] = dict.fromkeys(pending["configuration"], MASK)
    return data


def _table(reactors: list[Reactor]) -> str:
    header = ["NAME", "STATE", "IMAGE", "ID"]
    rows = [header] + [
        [printable(r.name), printable(r.state or "-"), printable(r.image), str(r.id)]
        for r in reactors
    ]
    widths = [max(len(row[n]) for row in rows) for n in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(widths[n]) for n, cell in enumerate(row)).rstrip() for row in rows
    )


def _details(reactor: Reactor) -> str:
    """One reactor for a person: state, application, runtime, configuration names, and a
    failed provisioning's error."""
    lines = [
        f"Name:          {printable(reactor.name)}",
        f"Id:            {reactor.id}",
        f"State:         {printable(reactor.state or '-')}",
    ]
    application = reactor.application
    if application is not None and application.id is not None:
        named = f"{printable(application.name)} " if application.name else ""
        lines.append(f"Application:   {named}({application.id})")
    else:
        lines.append("Application:   (none)")
    runtime = (
        reactor.runtime.model_dump(by_alias=True, exclude_none=True) if reactor.runtime else {}
    )
    lines.append(f"Image:         {printable(reactor.image)}")
    for name in sorted(runtime):
        if name != "image":
            lines.append(f"  {printable(name)}: {printable_json(runtime[name])}")
    names = sorted(reactor.configuration or {})
    shown = ", ".join(printable(n) for n in names) + " (values not shown)" if names else "(none)"
    lines.append(f"Configuration: {shown}")
    requested = reactor.requested
    if requested is not None and requested.error_code:
        lines.append(
            f"Provisioning failed: {printable(requested.error_message or requested.error_code)}"
        )
    elif reactor.provisioning:
        lines.append("A change is being provisioned; the previous version serves until then.")
    if reactor.modified_at or reactor.created_at:
        lines.append(f"Modified:      {(reactor.modified_at or reactor.created_at)}")
    return "\n".join(lines)


async def find_reactor(client: AdminClient, name: str) -> Reactor:
    """The reactor named exactly `name` (or with that id); Refused (3) if none, (1) if
    several share the name."""
    from uuid import UUID

    from console.client import NotFound

    try:
        as_id = UUID(name)
    except ValueError:
        as_id = None
    if as_id is not None:
        try:
            return await client.reactors.get(as_id)
        except NotFound:
            pass  # a name that looks like an id: looked up by name below
    found = [r async for r in client.reactors.iterate(name=name)]
    named = [r for r in found if r.name == name]
    if not named:
        raise Refused(f'no reactor is named "{name}".', NOT_FOUND)
    if len(named) > 1:
        ids = ", ".join(str(r.id) for r in named)
        raise Refused(f'{len(named)} reactors are named "{name}" ({ids}): give the id.')
    return named[0]


def read_args(path: str) -> Any:
    """The react's `args` from the request file: `{"args": ...}`, or the args themselves."""
    try:
        text = Path(path).expanduser().read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise Refused(f"the request file {path} does not exist.", USAGE) from None
    except (OSError, UnicodeDecodeError) as error:
        raise Refused(f"cannot read the request file {path}: {error}", USAGE) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise Refused(f"the request file is not JSON: {error}", USAGE) from None
    except RecursionError:
        raise Refused("the request file is nested too deeply to read.", USAGE) from None
    if isinstance(data, dict) and set(data) <= {"args", "callback_url"} and "args" in data:
        return data["args"]
    return data


async def _react(client: AdminClient, args: argparse.Namespace) -> int:
    payload = read_args(args.request)
    reactor = await find_reactor(client, args.name)
    if not args.async_:
        response = await client.reactors.react(reactor.id, payload)
        print(printable_json(response.model_dump(mode="json"), indent=2))
        return OK
    request_id = await client.reactors.react_async(reactor.id, payload)
    print(f"Started: request {request_id}; waiting for its result…", file=sys.stderr, flush=True)
    deadline = time.monotonic() + args.wait
    while True:
        result = await client.reactors.result(reactor.id, request_id)
        if result.error is not None:
            raise result.error
        if result.response is not None:
            print(printable_json(result.response.model_dump(mode="json"), indent=2))
            return OK
        if time.monotonic() + POLL_SECONDS > deadline:
            raise Refused(
                f"the result of request {request_id} is still pending after {args.wait:g} s; "
                "the run goes on on the service."
            )
        await asyncio.sleep(POLL_SECONDS)


async def _run(connection: ResolvedConnection, args: argparse.Namespace) -> int:

    async with admin_client(connection) as client:
        if args.reactors_command == "list":
            reactors = [r async for r in client.reactors.iterate()]
            if args.format == "json":
                print(printable_json([reactor_json(r) for r in reactors], indent=2))
            elif reactors:
                print(_table(reactors))
            else:
                print("No reactors.")
            return OK
        if args.reactors_command == "show":
            print_one(args.format, await find_reactor(client, args.name), reactor_json, _details)
            return OK
        return await _react(client, args)


def run(args: argparse.Namespace) -> int:
    if args.reactors_command == "react" and not 0 < args.wait <= 3600:  # NaN fails too
        _error("--wait must be a number of seconds above 0, at most 3600.")
        return USAGE
    return COMMAND.run(getattr(args, "profile", None), lambda connection: _run(connection, args))
