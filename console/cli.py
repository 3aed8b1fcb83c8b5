"""The `tenant-console` command line.

Every sub-command's arguments are declared here, but its code is imported only when it
runs: `--help` and `serve` must not pay for Textual, nor the console for the service.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import NoReturn

from console import __version__

# sub-command -> "module:function"; the function takes the parsed args and returns an exit code.
HANDLERS = {
    None: "console.tui.launch:open_console",
    "demo": "console.tui.launch:open_demo",
    "serve": "console.service.cli:serve",
    "new-tenant": "console.service.cli:new_tenant",
    "profile": "console.profiles.cli:run",
    "run": "console.runner.cli:run",
}


class _Parser(argparse.ArgumentParser):
    """argparse that ends a usage error with one clear line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tenant-console",
        description="Administer the tenants of the data-protection service from a terminal.",
    )
    parser.add_argument("--version", action="version", version=f"tenant-console {__version__}")
    parser.add_argument("--profile", metavar="NAME", help="open the console on this profile")
    parser.add_argument(
        "--read-only", action="store_true", help="hide and refuse every action that changes data"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser("demo", help="start a local service with demo data and open the console")
    demo.add_argument("--read-only", action="store_true", default=argparse.SUPPRESS)

    serve = sub.add_parser("serve", help="run the local administration service in the foreground")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8400)
    serve.add_argument("--data-dir", metavar="DIR", help="where the SQLite data lives")
    serve.add_argument("--demo-data", action="store_true", help="seed a realistic demo tenant")
    serve.add_argument(
        "--rate-limit",
        type=int,
        metavar="N",
        help="at most N requests per minute per key, then 429 with Retry-After",
    )
    serve.add_argument(
        "--key-header",
        default="SVC-API-KEY",
        metavar="NAME",
        help="the request header that carries the API key (default SVC-API-KEY)",
    )
    serve.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="close a connection whose request (head and body) has not arrived in full "
        "within SECONDS of its opening or of the previous response, with 408 (default 10)",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=200,
        metavar="N",
        help="answer connections beyond N open at once with 503 and close them (default 200)",
    )

    new_tenant = sub.add_parser(
        "new-tenant", help="create a tenant and its bootstrap management application"
    )
    new_tenant.add_argument("--data-dir", metavar="DIR", required=True)
    new_tenant.add_argument("name")

    profile = sub.add_parser("profile", help="manage profiles (one tenant and key each)")
    profile_sub = profile.add_subparsers(dest="profile_command", metavar="ACTION", required=True)
    add = profile_sub.add_parser("add", help="add a profile; the key goes to the OS keyring")
    add.add_argument("name")
    add.add_argument("--base-url", required=True, metavar="URL")
    add.add_argument(
        "--key-stdin", action="store_true", help="read the key from one line of standard input"
    )
    add.add_argument(
        "--key-header",
        metavar="NAME",
        help="the header the service reads the key from (default SVC-API-KEY)",
    )
    add.add_argument("--label", metavar="TEXT", help="a short tag for the header, e.g. PROD")
    add.add_argument(
        "--color", metavar="COLOUR", help="the label's colour: red, orange, yellow, green, ..."
    )
    profile_sub.add_parser("list", help="list profiles (never their keys)")
    use = profile_sub.add_parser("use", help="make a profile the active one")
    use.add_argument("name")
    remove = profile_sub.add_parser("remove", help="remove a profile and its stored key")
    remove.add_argument("name")

    from console.runner.cli import add_parser as add_run_parser  # `run`: a local test-run

    add_run_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    module_name, _, function_name = HANDLERS[args.command].partition(":")
    handler = getattr(importlib.import_module(module_name), function_name)
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
