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
    "status": "console.estate.status_cli:run",
    # issue 17: a tenant's configuration as a file, diff and apply (console.estate)
    "export": "console.estate.cli:run",
    "diff": "console.estate.cli:run",
    "apply": "console.estate.cli:run",
    # issue 18: a local file's code to a formula or transform (console/code_files/cli.py)
    "push": "console.code_files.cli:push",
    # issue 16: the access review as CSV or JSON (console/review_cli.py)
    "review": "console.review_cli:run",
    # issue 27: find objects by name, from the local index then live (console/search_cli.py)
    "search": "console.search_cli:run",
    "run": "console.runner.cli:run",
}


class _Parser(argparse.ArgumentParser):
    """argparse that ends a usage error with one clear line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _console_parser() -> _Parser:
    """The options of the console itself, without the sub-commands."""
    parser = _Parser(
        prog="tenant-console",
        description="Administer the tenants of the data-protection service from a terminal.",
    )
    parser.add_argument("--version", action="version", version=f"tenant-console {__version__}")
    parser.add_argument("--profile", metavar="NAME", help="open the console on this profile")
    parser.add_argument(
        "--read-only", action="store_true", help="hide and refuse every action that changes data"
    )
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = _console_parser()
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

    # Issue 17: the overview of every profile (console/estate/status_cli.py).
    status = sub.add_parser("status", help="check every profile: key, tenant, usage, counts")
    status.add_argument("names", nargs="*", metavar="NAME", help="only these profiles")
    status.add_argument("--format", choices=("table", "json"), default="table")
    status.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS", help="per profile (default 10)"
    )

    _add_configuration_commands(sub)
    _add_push_command(sub)
    _add_review_command(sub)
    _add_search_command(sub)

    _add_run_command(sub)
    return parser


def _add_run_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 18: a local test-run (console/runner/cli.py). Declared here, not there: importing
    console.runner loads its result and contract modules, which `tenant-console` (building
    this parser to open the console) does not need."""
    run_parser = sub.add_parser(
        "run", help="run formula or transform code on a sample request, locally and sandboxed"
    )
    run_parser.add_argument("code", metavar="CODE.js")
    run_parser.add_argument(
        "--request",
        required=True,
        metavar="REQUEST.json",
        help="the contract's request object: {args, configuration}; "
        "a transform's args hold body and headers",
    )
    run_parser.add_argument("--kind", choices=("formula", "transform"), default="formula")
    run_parser.add_argument(
        "--timeout", type=float, metavar="S", help="stop the code after S seconds (default 5)"
    )
    run_parser.add_argument(
        "--memory", type=int, metavar="MB", help="heap limit in MB (default 128)"
    )
    run_parser.add_argument(
        "--engine",
        choices=("node", "embedded"),
        help="Node.js (default when installed) or the embedded V8",
    )
    run_parser.add_argument(
        "--formula",
        metavar="FORMULA.json",
        help="check the request against this formula's request_parameters and configuration",
    )
    run_parser.add_argument(
        "--bt", action="store_true", help="a transform whose proxy has an application: give it bt"
    )
    run_parser.add_argument(
        "--no-check", action="store_true", help="run even if the request breaks the contract"
    )


def _add_review_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 16: the access review as CSV or JSON (console/review_cli.py)."""
    review = sub.add_parser(
        "review",
        help="export the access review (every application's grants, flagged) as CSV or JSON",
    )
    review.add_argument(
        "--profile", metavar="NAME", default=argparse.SUPPRESS, help="the profile to review"
    )
    review.add_argument(
        "--format",
        choices=("csv", "json"),
        help="csv or json (default: from the output file's name, else csv)",
    )
    review.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE instead of standard output"
    )


def _add_search_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 27: objects by name, from the local index at once, then live."""
    search = sub.add_parser(
        "search",
        help="find applications, proxies and formulas by name (the local index, then live)",
    )
    search.add_argument("name", metavar="NAME", help="part of the name; * matches any run")
    search.add_argument("--kind", choices=("applications", "proxies", "formulas"))
    search.add_argument("--format", choices=("table", "json"), default="table")
    search.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS)


def _add_configuration_commands(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 17: export, diff and apply a tenant's configuration (console/estate/cli.py)."""
    export = sub.add_parser("export", help="write a tenant's configuration to a file (never keys)")
    export.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS)
    export.add_argument("--format", choices=("json", "yaml"), default="json")
    export.add_argument("-o", "--output", metavar="FILE", help="write here (mode 0600)")
    export.add_argument(
        "--redact", action="store_true", help="replace proxy configuration values by a placeholder"
    )
    diff = sub.add_parser("diff", help="what it takes to make TARGET like SOURCE")
    diff.add_argument("source", metavar="SOURCE", help="a configuration file or a profile name")
    diff.add_argument("target", metavar="TARGET", help="a configuration file or a profile name")
    diff.add_argument("--all", action="store_true", help="list unchanged objects too")
    diff.add_argument("--exit-code", action="store_true", help="exit with 3 when they differ")
    apply = sub.add_parser("apply", help="make a tenant like a configuration file")
    apply.add_argument("file", metavar="FILE")
    apply.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS)
    apply.add_argument("--prune", action="store_true", help="delete what is only in the tenant")
    apply.add_argument("--yes", action="store_true", help="apply without asking")
    apply.add_argument("--keys-out", metavar="FILE", help="write new keys here (mode 0600)")
    apply.add_argument("--read-only", action="store_true", default=argparse.SUPPRESS)


def _add_push_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 18: push a local file's code, once or on every save (console/code_files/cli.py)."""
    push = sub.add_parser(
        "push",
        help="push a local file's code to a formula or a proxy's transform",
        description="Push FILE's code to the formula or proxy transform named NAME, through the "
        "same lost-update guard as the console's forms. Exit 0 pushed, 1 refused, 2 usage.",
    )
    push.add_argument(
        "kind",
        choices=("formula", "transform"),
        metavar="KIND",
        help="formula, or transform (a proxy's request or response transform)",
    )
    push.add_argument("name", metavar="NAME", help="the formula's or proxy's exact name")
    push.add_argument("--code", required=True, metavar="FILE", help="the JavaScript file")
    push.add_argument(
        "--field",
        choices=("request", "response"),
        help="which transform of the proxy (required for KIND transform)",
    )
    push.add_argument(
        "--watch",
        action="store_true",
        help="push again on every save of FILE, one line per push; Ctrl-C stops",
    )
    push.add_argument(
        "--interval",
        type=float,
        default=1.0,
        metavar="SECONDS",
        help="how often --watch looks at the file (default 1)",
    )
    push.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS)
    push.add_argument("--read-only", action="store_true", default=argparse.SUPPRESS)


def _opens_the_console(argv: Sequence[str]) -> bool:
    """Whether `argv` is only the console's own options, spelt out in full (`--profile NAME`,
    `--profile=NAME`, `--read-only`): then no sub-command's parser is needed."""
    index = 0
    while index < len(argv):
        token = argv[index]
        if token == "--read-only" or token.startswith("--profile="):
            index += 1
        elif token == "--profile" and index + 1 < len(argv) and not argv[index + 1].startswith("-"):
            index += 2
        else:
            return False
    return True


def parse_arguments(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line. Opening the console (the usual launch) parses with its own
    options only: declaring every sub-command costs ~2 ms of its start-up; anything else
    (a command, --help, an abbreviation, an error) goes through the whole parser."""
    tokens = sys.argv[1:] if argv is None else list(argv)
    if _opens_the_console(tokens):
        args = _console_parser().parse_args(tokens)
        args.command = None
        return args
    return build_parser().parse_args(tokens)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    module_name, _, function_name = HANDLERS[args.command].partition(":")
    handler = getattr(importlib.import_module(module_name), function_name)
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
