"""`tenant-console run --code CODE.js --request REQUEST.json [--kind formula|transform|reactor]`
(or `--reactor NAME`: the service's reactor's active code): a test-run from the command line.

The result goes to stdout as JSON; what the code logged goes to stderr, one line each.
Exit 0 when the code returned the contract's shape, 1 when it threw, returned another shape,
was stopped by a limit or returned a value too deep or too large to show, 2 when the input
cannot be used (files, JSON, the request) or when no operating-system sandbox can be had and
--allow-unisolated was not given. What the code returned or logged is data: its control
characters are shown escaped, never sent to the terminal (console.terminal_text).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from console.runner.result import RunResult
from console.terminal_text import printable, printable_json, printable_lines

EXIT_OK = 0
EXIT_CODE_FAILED = 1
EXIT_BAD_INPUT = 2
MAX_TIMEOUT = 600
"""Seconds: a longer limit is a mistake (and past what the engines' timers can hold)."""
MAX_MEMORY_MB = 16384


def _fail(message: str) -> int:
    print(f"tenant-console run: {printable(message)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _read(path: str, what: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ValueError(f"the {what} file {path} does not exist") from None
    except IsADirectoryError:
        raise ValueError(f"the {what} file {path} is a folder") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the {what} file {path}: {error}") from None


def _formula_contract(path: str | None) -> Any:
    """A formula's declared contract from a JSON file: the formula as the API sends it (or
    just its request_parameters and configuration)."""
    if path is None:
        return None
    data = json.loads(_read(path, "formula"))
    if not isinstance(data, dict):
        raise ValueError("the formula file must hold a JSON object")
    return argparse.Namespace(
        request_parameters=data.get("request_parameters") or [],
        configuration=data.get("configuration") or [],
    )


class ReactorUnreadable(ValueError):
    """The reactor named by --reactor could not be read; str() says why."""


def _reactor_code(args: argparse.Namespace) -> str:
    """The active code of the reactor named exactly `args.reactor`, read through the profile
    (`--profile`, else the default). Its configuration is not read: the values are secrets,
    and a local run gets the request file's."""
    import asyncio

    from console.profiles.config import ProfileError
    from console.profiles.resolve import resolve_connection

    try:
        connection = resolve_connection(getattr(args, "profile", None))
    except ProfileError as error:
        raise ReactorUnreadable(str(error)) from None
    if connection.key is None:
        raise ReactorUnreadable(str(connection.key_problem))

    async def read() -> str:
        from console.client import AdminClient, ApiError

        async with AdminClient(
            connection.base_url, connection.key or "", key_header=connection.key_header
        ) as client:
            try:
                found = [r async for r in client.reactors.iterate(name=args.reactor)]
            except ApiError as error:
                raise ReactorUnreadable(f"the reactor could not be read: {error}") from None
        named = [r for r in found if r.name == args.reactor]
        if len(named) != 1:
            many = f"{len(named)} reactors are" if named else "no reactor is"
            raise ReactorUnreadable(f'{many} named "{args.reactor}"')
        if not named[0].code:
            raise ReactorUnreadable(f'the reactor "{args.reactor}" has no code of its own')
        return named[0].code

    return asyncio.run(read())


def run(args: argparse.Namespace) -> int:
    from console.runner import run_code
    from console.runner.engines import EngineUnavailable
    from console.runner.sandbox import NoBoundary

    try:
        code = _reactor_code(args) if getattr(args, "reactor", None) else _read(args.code, "code")
        request_text = _read(args.request, "request")
        formula = _formula_contract(args.formula)
    except json.JSONDecodeError as error:  # a ValueError too: caught before the next
        return _fail(f"the formula file is not JSON: {error}")
    except ValueError as error:
        return _fail(str(error))
    except RecursionError:
        return _fail("the formula file is nested too deeply to read")
    try:
        request = json.loads(request_text)
    except json.JSONDecodeError as error:
        return _fail(f"the request file is not JSON: {error}")
    except RecursionError:
        return _fail("the request file is nested too deeply to read")
    if args.timeout is not None and not 0 < args.timeout <= MAX_TIMEOUT:  # NaN fails too
        return _fail(f"--timeout must be a positive number of seconds, at most {MAX_TIMEOUT}")
    if args.memory is not None and not 0 < args.memory <= MAX_MEMORY_MB:
        return _fail(f"--memory must be a positive number of megabytes, at most {MAX_MEMORY_MB}")
    try:
        result = run_code(
            code,
            request,
            args.kind,
            formula=formula,
            with_bt=args.bt,
            timeout=args.timeout,
            memory_mb=args.memory,
            engine=args.engine,
            check=not args.no_check,
            allow_unisolated=args.allow_unisolated,
        )
    except NoBoundary as error:
        return _fail(
            f"{error} Nothing was run. To run it anyway, only if you trust this code, "
            "add --allow-unisolated."
        )
    except EngineUnavailable as error:
        return _fail(str(error))
    for line in result.logs:
        print(f"[{printable(line.level)}] {printable_lines(line.text, '    ')}", file=sys.stderr)
    if result.logs_dropped:
        print(f"[…] {result.logs_dropped} more log lines not kept", file=sys.stderr)
    data = result.to_json()
    del data["logs"]  # on stderr, above
    print(printable_json(data, indent=2))
    print(_verdict(result), file=sys.stderr)
    if result.status == "bad_request":
        return EXIT_BAD_INPUT
    return EXIT_OK if result.ok else EXIT_CODE_FAILED


def _verdict(result: RunResult) -> str:
    verdict = "ok" if result.ok else "failed"
    lines = [f"{verdict}: {printable(result.message)} ({printable(result.engine_name)})"]
    if not result.isolated and result.status != "bad_request":  # nothing ran
        lines.append("warning: the code ran without an operating-system sandbox")
    lines += [f"  sandbox: {protection}" for protection in result.protections]
    lines += [
        f"  - {printable(problem)}" for problem in result.request_problems + result.shape_problems
    ]
    return "\n".join(lines)
