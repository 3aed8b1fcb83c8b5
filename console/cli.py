"""The `tenant-console` command line.

Every sub-command's arguments are declared here, but its code is imported only when it
runs: `--help` and `serve` must not pay for Textual, nor the console for the service.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn

from console import __version__

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

# sub-command -> "module:function"; the function takes the parsed args and returns an exit code.
HANDLERS = {
    None: "console.tui.start.launch:open_console",
    "demo": "console.tui.start.launch:open_demo",
    "serve": "console.service.cli:serve",
    "new-tenant": "console.service.cli:new_tenant",
    # issue 36: the local service's operator accepts an invitation for its invitee
    "accept-invitation": "console.service.cli:accept_invitation",
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
    # issue 28: the usage report, recorded and its history (console/usage_history/cli.py)
    "usage": "console.usage_history.cli:run",
    # issue 23: the change journal (console/journal/cli.py)
    "history": "console.journal.cli:history",
    "undo": "console.journal.cli:undo",
    # issue 26: Application Keys: list, create, revoke, rotate (console/keys/cli.py)
    "keys": "console.keys.cli:run",
    # issue 35: reactors: list, show, react on the service (console/reactors_cli.py)
    "reactors": "console.reactors_cli:run",
    # issue 36: the tenant's members and invitations (console/members_cli.py)
    "members": "console.members_cli:run",
    # issue 36: the audit logs, the local archive of them, following them (console/audit/cli.py)
    "logs": "console.audit.cli:run",
    # issue 37: webhooks from a script; `listen` receives them (console/webhooks/)
    "webhooks": "console.webhooks.cli:run",
}


class _Parser(argparse.ArgumentParser):
    """argparse that ends a usage error with one clear line on stderr and exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """As argparse prints help and errors, but a closed pipe is not swallowed: `--help |
        head -1` ends as every command does (console.closed_output)."""
        stream = file or sys.stderr
        if message and stream is not None:  # None: no console (pythonw)
            stream.write(message)


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


def _add_profile_option(*parsers: argparse.ArgumentParser) -> None:
    """`--profile NAME` on each parser: the profile whose service a command talks to. Absent
    from the arguments unless given (SUPPRESS), so the command falls back to the active one."""
    for parser in parsers:
        parser.add_argument("--profile", metavar="NAME", default=argparse.SUPPRESS)


def _add_read_only_option(*parsers: argparse.ArgumentParser) -> None:
    """`--read-only` on each parser of a command that changes data: given, it refuses. Absent
    from the arguments unless given (SUPPRESS), as the console's own `--read-only` is."""
    for parser in parsers:
        parser.add_argument("--read-only", action="store_true", default=argparse.SUPPRESS)


def _add_format_option(parser: argparse.ArgumentParser, *choices: str) -> None:
    """`--format` with these choices, the first the default: one spelling for every command
    that prints a table (or text) or JSON (or CSV)."""
    parser.add_argument("--format", choices=choices, default=choices[0])


def build_parser() -> argparse.ArgumentParser:
    parser = _console_parser()
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser("demo", help="start a local service with demo data and open the console")
    _add_read_only_option(demo)

    serve = sub.add_parser("serve", help="run the local administration service in the foreground")
    serve.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=int, default=8400, help="the port to listen on; 0 picks one (default 8400)"
    )
    serve.add_argument(
        "--data-dir",
        metavar="DIR",
        help="where the SQLite data lives (default: the user data directory, "
        "e.g. ~/.local/share/tenant-console)",
    )
    serve.add_argument(
        "--demo-data",
        action="store_true",
        help="seed a realistic demo tenant when the data dir holds none (default: an empty tenant)",
    )
    serve.add_argument(
        "--rate-limit",
        type=int,
        metavar="N",
        help="at most N requests per minute per key, then 429 with Retry-After (default: no limit)",
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
    serve.add_argument(
        "--provision-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="how long provisioning a reactor with a runtime takes: it is creating or "
        "updating for SECONDS, then active (default 0.5; 0: at once)",
    )
    serve.add_argument(
        "--log-retention",
        type=int,
        default=None,
        metavar="SECONDS",
        help="keep audit log entries for SECONDS: older ones are never answered and are "
        "deleted (default 86400, the hosted service's 24 hours)",
    )
    serve.add_argument(
        "--webhook-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="give a webhook's receiver SECONDS to connect and SECONDS to answer each "
        "delivery, or the attempt fails (default 5)",
    )
    serve.add_argument(
        "--webhook-retry-base",
        type=float,
        default=None,
        metavar="SECONDS",
        help="retry a failed webhook delivery after SECONDS, then twice as long each time, "
        "at most --webhook-retry-cap apart (default 1)",
    )
    serve.add_argument(
        "--webhook-retry-cap",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the longest wait between two attempts of a webhook delivery (default 300)",
    )
    serve.add_argument(
        "--webhook-max-attempts",
        type=int,
        default=None,
        metavar="N",
        help="give a webhook delivery up after N failed attempts (default 8)",
    )
    serve.add_argument(
        "--webhook-disable-after",
        type=int,
        default=None,
        metavar="N",
        help="disable a webhook whose deliveries failed N times in a row, keeping the "
        "reason (default 10)",
    )
    serve.add_argument(
        "--allow-unisolated",
        action="store_true",
        help="run reactors' code even where no operating-system sandbox can be had (it then "
        "runs with this user's access to files and network; default: react answers 503)",
    )

    new_tenant = sub.add_parser(
        "new-tenant", help="create a tenant and its bootstrap management application"
    )
    new_tenant.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the data dir of the service (default: serve's, the user data directory); "
        "works while serve runs on it",
    )
    new_tenant.add_argument(
        "--demo-data",
        action="store_true",
        help="seed it as the demo's staging tenant, a near copy of the demo tenant "
        "(default: an empty tenant)",
    )
    new_tenant.add_argument(
        "--owner",
        metavar="EMAIL",
        help="the tenant's owner: this user (made, MFA enrolled, if the data dir has none "
        "with this email) becomes its OWNER member and creates its bootstrap application "
        "(default: none; the tenant then has no owner member)",
    )
    new_tenant.add_argument("name", help="the tenant's name (1 to 200 characters)")
    _add_accept_invitation_command(sub)

    profile = sub.add_parser("profile", help="manage profiles (one tenant and key each)")
    profile_sub = profile.add_subparsers(dest="profile_command", metavar="ACTION", required=True)
    add = profile_sub.add_parser(
        "add",
        help="add a profile; the key goes to the OS keyring (or comes from a variable or command)",
    )
    add.add_argument("name")
    add.add_argument("--base-url", required=True, metavar="URL")
    key_from = add.add_mutually_exclusive_group()
    key_from.add_argument(
        "--key-stdin", action="store_true", help="read the key from one line of standard input"
    )
    key_from.add_argument(
        "--key-env",
        metavar="VAR",
        help="read the key from this environment variable at each start, never storing it",
    )
    key_from.add_argument(
        "--key-command",
        metavar="COMMAND",
        help="run this command at each start; its first line of output is the key (never stored)",
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
    _add_format_option(status, "table", "json")
    status.add_argument(
        "--timeout", type=float, default=10.0, metavar="SECONDS", help="per profile (default 10)"
    )

    _add_configuration_commands(sub)
    _add_push_command(sub)
    _add_journal_commands(sub)
    _add_review_command(sub)
    _add_keys_command(sub)
    _add_reactors_command(sub)
    _add_members_command(sub)
    _add_webhooks_command(sub)
    _add_search_command(sub)
    _add_logs_command(sub)

    _add_run_command(sub)
    _add_usage_command(sub)
    return parser


def _add_accept_invitation_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 36: local only, as `new-tenant` (console/service/cli.py)."""
    accept = sub.add_parser(
        "accept-invitation",
        help="local service only: accept an invitation for its invitee, who becomes a member",
    )
    accept.add_argument("id", metavar="ID", help="the invitation's id")
    accept.add_argument(
        "--data-dir",
        metavar="DIR",
        help="the data dir of the service (default: serve's, the user data directory); "
        "works while serve runs on it",
    )
    accept.add_argument(
        "--first-name", metavar="F", help="the new user's first name (default: none)"
    )
    accept.add_argument("--last-name", metavar="L", help="the new user's last name (default: none)")
    accept.add_argument(
        "--no-mfa",
        action="store_true",
        help="the new user has not enrolled in multi-factor authentication (default: enrolled; "
        "a user the data dir has already keeps their own)",
    )


def _add_usage_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 28: the usage report, kept over time (console/usage_history/cli.py)."""
    usage = sub.add_parser(
        "usage",
        help="the usage report; --record keeps it, --history shows the trend and forecast",
        description="Print the tenant's usage report. --record keeps it in the usage history "
        "(run it from cron or a systemd timer); --history prints the recorded snapshots, oldest "
        "first, with the month-end forecast. Exit 0 done, 1 failed, 2 usage.",
    )
    _add_profile_option(usage)
    usage.add_argument("--record", action="store_true", help="keep the report in the history")
    usage.add_argument(
        "--history", action="store_true", help="the recorded snapshots and the forecast"
    )
    _add_format_option(usage, "table", "json", "csv")


def _add_run_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 18: a local test-run (console/runner/cli.py). Declared here, not there: importing
    console.runner loads its result and contract modules, which `tenant-console` (building
    this parser to open the console) does not need."""
    run_parser = sub.add_parser(
        "run",
        help="run formula, transform or reactor code on a sample request, locally and sandboxed",
    )
    # `--code FILE`, as `push` takes it; the positional CODE.js of earlier releases still works.
    run_parser.add_argument("code", metavar="CODE.js", nargs="?", help=argparse.SUPPRESS)
    run_parser.add_argument(
        "--code", dest="code_file", metavar="FILE", help="the JavaScript file to run (required)"
    )
    run_parser.add_argument(
        "--request",
        required=True,
        metavar="REQUEST.json",
        help="the contract's request object: {args, configuration}; "
        "a transform's args hold body and headers",
    )
    run_parser.add_argument(
        "--kind", choices=("formula", "transform", "reactor"), default=None, help="(formula)"
    )
    run_parser.add_argument(
        "--reactor",
        metavar="NAME",
        help="run the active code of the service's reactor NAME (read with --profile) instead "
        "of a file; the request's configuration is yours to give",
    )
    _add_profile_option(run_parser)
    run_parser.add_argument(
        "--timeout", type=float, metavar="S", help="stop the code after S seconds (default 5)"
    )
    run_parser.add_argument(
        "--memory",
        type=int,
        metavar="MB",
        help="memory limit in MB for everything the code allocates (default 128)",
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
    run_parser.add_argument(
        "--allow-unisolated",
        action="store_true",
        help="run even where no operating-system sandbox can be had (trusted code only)",
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
    review.add_argument(
        "--force", action="store_true", help="with -o: replace the file if it exists"
    )
    review.add_argument(
        "--key-age",
        type=int,
        default=90,
        metavar="DAYS",
        help="flag applications whose oldest key is older than DAYS (default 90)",
    )
    review.add_argument(
        "--inactive-days",
        type=int,
        default=90,
        metavar="DAYS",
        help="flag applications with no activity known within DAYS (default 90), by the audit "
        "logs read now and the profile's log archive",
    )
    review.add_argument(
        "--evidence",
        metavar="DIR",
        help="write an evidence pack into DIR (new or empty): the review as JSON and CSV, the "
        "redacted configuration, the period's logs and a manifest of SHA-256 digests",
    )
    review.add_argument(
        "--since",
        metavar="WHEN",
        help="with --evidence: logs from WHEN (ISO 8601 date or date-time, or 90d, 12h, 30m "
        "ago; default: the oldest archived)",
    )
    review.add_argument(
        "--until",
        metavar="WHEN",
        help="with --evidence: logs before WHEN (default: now)",
    )
    review.add_argument(
        "--verify",
        metavar="DIR",
        help="check the evidence pack in DIR against its manifest: exit 0 intact, 1 naming "
        "each changed, missing or extra file",
    )


def _add_reactors_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 35: reactors from the command line (console/reactors_cli.py)."""
    reactors = sub.add_parser(
        "reactors",
        help="list and show reactors, and run one on the service",
        description="The tenant's reactors (NAME is a reactor's exact name or its id). Exit 0 "
        "done, 1 failed (the service, the reactor, a result still pending), 2 usage, 3 no such "
        "reactor.",
    )
    actions = reactors.add_subparsers(dest="reactors_command", metavar="ACTION", required=True)
    listed = actions.add_parser("list", help="every reactor: name, state, image, id")
    _add_format_option(listed, "table", "json")
    _add_profile_option(listed)
    show = actions.add_parser(
        "show", help="one reactor: state, runtime, configuration names (never values)"
    )
    show.add_argument("name", metavar="NAME")
    _add_format_option(show, "text", "json")
    _add_profile_option(show)
    react = actions.add_parser(
        "react", help="run the reactor on the service with a request's args; prints its answer"
    )
    react.add_argument("name", metavar="NAME")
    react.add_argument(
        "--request",
        required=True,
        metavar="FILE",
        help='JSON: {"args": ...}, or the args themselves',
    )
    react.add_argument(
        "--async",
        dest="async_",
        action="store_true",
        help="start it in the background and poll its result until done",
    )
    react.add_argument(
        "--wait",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="with --async: how long to wait for the result (default 60)",
    )
    _add_profile_option(react)


def _add_members_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 36: the tenant's members and invitations (console/members_cli.py)."""
    members = sub.add_parser(
        "members",
        help="list members and invitations; invite, resend, revoke, set a role, remove",
        description="The tenant's people. MEMBER is a member's id or email, ID an invitation's "
        "id or email. Every change is journalled and can be undone (`tenant-console undo`). "
        "The owner is never removed nor given another role; removing or demoting the "
        "console's own user needs --confirm EMAIL. Exit 0 done, 1 refused or failed, 2 usage, "
        "3 no such member or invitation.",
    )
    actions = members.add_subparsers(dest="members_command", metavar="ACTION", required=True)
    listed = actions.add_parser(
        "list", help="members (email, name, role, MFA, id) and invitations (status, expiry)"
    )
    _add_format_option(listed, "table", "json", "csv")
    invite = actions.add_parser("invite", help="invite EMAIL to the tenant (expires in 72 h)")
    invite.add_argument("email", metavar="EMAIL")
    invite.add_argument(
        "--role", default="ADMIN", metavar="ROLE", help="ADMIN or READ_ONLY (default ADMIN)"
    )
    resend = actions.add_parser("resend", help="send an invitation again, expiring 72 h from now")
    resend.add_argument("id", metavar="ID", help="the invitation's id or email")
    revoke = actions.add_parser("revoke", help="withdraw an invitation")
    revoke.add_argument("id", metavar="ID", help="the invitation's id or email")
    set_role = actions.add_parser("set-role", help="give a member another role")
    set_role.add_argument("member", metavar="MEMBER", help="the member's id or email")
    set_role.add_argument("role", metavar="ROLE", help="ADMIN or READ_ONLY")
    remove = actions.add_parser("remove", help="take a member out of the tenant")
    remove.add_argument("member", metavar="MEMBER", help="the member's id or email")
    for parser in (set_role, remove):
        parser.add_argument(
            "--confirm",
            metavar="EMAIL",
            help="the member's email: needed to remove or demote the console's own user",
        )
    _add_profile_option(listed, invite, resend, revoke, set_role, remove)
    _add_read_only_option(invite, resend, revoke, set_role, remove)


def _add_webhooks_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 37: the tenant's webhooks (console/webhooks/cli.py). An action of its own module
    adds its parser here with one call, its parser setting `webhooks_run="module:function"`
    (console.webhooks.cli.run hands it the arguments)."""
    webhooks = sub.add_parser(
        "webhooks",
        help="list, show, create, update, enable, disable, delete webhooks; event types; trigger",
        description="The tenant's webhooks (at most five). WEBHOOK is a webhook's id or exact "
        "name. Every change is journalled and can be undone (`tenant-console undo`). Exit 0 "
        "done, 1 refused or failed, 2 usage, 3 no such webhook.",
    )
    actions = webhooks.add_subparsers(dest="webhooks_command", metavar="ACTION", required=True)
    _add_webhook_scripting(actions)
    _add_webhooks_listen(actions)


def _add_webhook_scripting(actions: argparse._SubParsersAction[_Parser]) -> None:
    """`webhooks list|show|create|update|delete|enable|disable|event-types|trigger`."""
    listed = actions.add_parser(
        "list", help="every webhook: name, status (why disabled), events, URL, id"
    )
    _add_format_option(listed, "table", "json", "csv")
    show = actions.add_parser("show", help="one webhook, every field")
    show.add_argument("webhook", metavar="WEBHOOK", help="its id or exact name")
    _add_format_option(show, "table", "json")
    types = actions.add_parser("event-types", help="the event types a webhook may subscribe to")
    _add_format_option(types, "table", "json")
    create = actions.add_parser("create", help="a new webhook (it starts enabled)")
    update = actions.add_parser(
        "update", help="change the fields given; the others (and its status) stay"
    )
    update.add_argument("webhook", metavar="WEBHOOK", help="its id or exact name")
    for parser, needed in ((create, "required"), (update, "optional")):
        parser.add_argument("--name", metavar="NAME", help=f"its name ({needed})")
        parser.add_argument("--url", metavar="URL", help=f"where events are sent ({needed})")
        parser.add_argument(
            "--events",
            metavar="A,B",
            help=f"the event types, comma-separated ({needed}; see `webhooks event-types`)",
        )
        parser.add_argument(
            "--notify-email",
            metavar="EMAIL",
            help="told when the service disables it (optional; empty on update removes it)",
        )
    enable = actions.add_parser("enable", help="send events to it again")
    disable = actions.add_parser("disable", help="stop sending events to it (it is kept)")
    delete = actions.add_parser("delete", help="delete a webhook (asks first, unless --yes)")
    for parser in (enable, disable, delete):
        parser.add_argument("webhook", metavar="WEBHOOK", help="its id or exact name")
    delete.add_argument("--yes", action="store_true", help="delete without asking")
    trigger = actions.add_parser(
        "trigger", help="local service: send a sample event of a type to its webhooks"
    )
    trigger.add_argument("event", metavar="EVENT", help="the event type (reactor.created, ...)")
    trigger.add_argument(
        "--webhook", metavar="WEBHOOK", help="only to this webhook (its id or exact name)"
    )
    _add_profile_option(listed, show, types, create, update, enable, disable, delete, trigger)
    _add_read_only_option(create, update, enable, disable, delete)


def _add_keys_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 26: Application Keys from the command line (console/keys/cli.py)."""
    keys = sub.add_parser(
        "keys",
        help="list, create, revoke and rotate an application's keys",
        description="An application's keys (APP is its name or id). Exit 0 done, 1 refused or "
        "failed, 2 usage, 3 a rotation left waiting (the old key still works).",
    )
    keys_sub = keys.add_subparsers(dest="keys_command", metavar="ACTION", required=True)
    listed = keys_sub.add_parser("list", help="the application's keys (never their material)")
    listed.add_argument("app", metavar="APP")
    _add_format_option(listed, "table", "json")
    create = keys_sub.add_parser("create", help="a new key beside the others, shown once")
    create.add_argument("app", metavar="APP")
    create.add_argument(
        "--key-out",
        metavar="FILE",
        help="write the key to FILE (mode 0600), not to the screen; FILE must not exist yet",
    )
    revoke = keys_sub.add_parser("revoke", help="revoke one key: it stops working at once")
    revoke.add_argument("app", metavar="APP")
    revoke.add_argument(
        "key_id", metavar="KEY_ID", help="the key's id, or its start as the console shows it"
    )
    revoke.add_argument("--yes", action="store_true", help="revoke without asking")
    rotate = keys_sub.add_parser(
        "rotate", help="a new key, then (once it is deployed) the old ones revoked"
    )
    rotate.add_argument("app", metavar="APP")
    rotate.add_argument(
        "--key-out",
        required=True,
        metavar="FILE",
        help="the new key's file (mode 0600); it must not exist yet when the rotation starts",
    )
    rotate.add_argument(
        "--yes", action="store_true", help="with --then-revoke: do not wait for confirmation"
    )
    rotate.add_argument(
        "--then-revoke",
        action="store_true",
        help="revoke the old keys right after creating the new one (only with --yes)",
    )
    for parser in (create, rotate):
        parser.add_argument(
            "--force", action="store_true", help="replace the --key-out file if it exists"
        )
    _add_profile_option(listed, create, revoke, rotate)
    _add_read_only_option(create, revoke, rotate)


def _add_search_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 27: objects by name, from the local index at once, then live; the kinds are
    those the local index records (console.kinds)."""
    from console.kinds import KINDS

    kinds = [kind.index.name for kind in KINDS.indexed() if kind.index]
    listed = " and ".join(filter(None, (", ".join(kinds[:-1]), kinds[-1])))
    search = sub.add_parser("search", help=f"find {listed} by name (the local index, then live)")
    search.add_argument("name", metavar="NAME", help="part of the name; * matches any run")
    search.add_argument("--kind", choices=kinds)
    _add_format_option(search, "table", "json")
    _add_profile_option(search)


def _add_configuration_commands(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 17: export, diff and apply a tenant's configuration (console/estate/cli.py)."""
    export = sub.add_parser("export", help="write a tenant's configuration to a file (never keys)")
    _add_profile_option(export)
    _add_format_option(export, "json", "yaml")
    export.add_argument(
        "-o", "--output", metavar="FILE", help="write to a new file (mode 0600); never replaces one"
    )
    export.add_argument(
        "--force", action="store_true", help="with -o: replace the file if it exists"
    )
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
    _add_profile_option(apply)
    apply.add_argument("--prune", action="store_true", help="delete what is only in the tenant")
    apply.add_argument("--yes", action="store_true", help="apply without asking")
    apply.add_argument(
        "--keys-out",
        metavar="FILE",
        help="write new keys here (mode 0600; an existing file is added to, never overwritten)",
    )
    apply.add_argument(
        "--force",
        action="store_true",
        help="apply even when the check finds code broken (syntax errors, no module.exports)",
    )
    _add_read_only_option(apply)


def _add_journal_commands(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 23: the change journal's history, and undo (console/journal/cli.py)."""
    history = sub.add_parser("history", help="list the changes made through the console")
    history.add_argument("--profile", metavar="NAME", help="only this profile's changes")
    _add_format_option(history, "table", "json")
    history.add_argument("--limit", type=int, default=50, metavar="N", help="at most N (50)")
    undo = sub.add_parser("undo", help="take one recorded change back")
    undo.add_argument("change_id", type=int, metavar="CHANGE_ID", help="as `history` lists it")
    undo.add_argument("--yes", action="store_true", help="undo without asking")
    _add_read_only_option(undo)


def _add_push_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 18: push a local file's code, once or on every save (console/code_files/cli.py)."""
    push = sub.add_parser(
        "push",
        help="push a local file's code to a formula, a proxy's transform or a reactor",
        description="Push FILE's code to the formula, proxy transform or reactor named NAME, "
        "through the same lost-update guard as the console's forms (`push --reactor NAME` is "
        "`push reactor NAME`). Exit 0 pushed, 1 refused, 2 usage.",
    )
    push.add_argument(
        "kind",
        nargs="?",
        choices=("formula", "transform", "reactor"),
        metavar="KIND",
        help="formula, transform (a proxy's request or response transform) or reactor",
    )
    push.add_argument(
        "name", nargs="?", metavar="NAME", help="the formula's, proxy's or reactor's exact name"
    )
    push.add_argument(
        "--reactor",
        metavar="NAME",
        help="push to the reactor NAME (the same as KIND reactor and NAME; not with them)",
    )
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
        type=_positive_seconds,
        default=1.0,
        metavar="SECONDS",
        help="how often --watch looks at the file (default 1)",
    )
    push.add_argument(
        "--force",
        action="store_true",
        help="push code the check finds broken (syntax errors, no module.exports) anyway",
    )
    _add_profile_option(push)
    _add_read_only_option(push)


def _add_logs_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 36: the audit logs, from the service or the local archive (console/audit/cli.py)."""
    logs = sub.add_parser(
        "logs",
        help="the audit logs: list, follow, or keep them in the local archive",
        description="The tenant's audit logs, newest first, from the service (what is read is "
        "kept in the profile's local archive too) or, with --from-archive, from the archive "
        "alone. --archive syncs the archive (run it from cron: the service keeps logs for a "
        "day); --follow prints new entries as they come. WHEN is an ISO 8601 date or "
        "date-time (UTC unless it says otherwise) or a span back from now: 30m, 24h, 7d. "
        "Exit 0 done, 1 failed, 2 usage, 3 no archive yet (--from-archive).",
    )
    logs.add_argument("--entity-type", metavar="TYPE", type=_log_word, help="proxy, application…")
    logs.add_argument("--entity-id", metavar="ID", type=_log_value, help="one object's entries")
    logs.add_argument(
        "--actor", metavar="ID", type=_log_value, help="entries by this actor (application id)"
    )
    logs.add_argument("--since", metavar="WHEN", type=_when, help="from this time (inclusive)")
    logs.add_argument("--until", metavar="WHEN", type=_when, help="before this time")
    logs.add_argument("--limit", metavar="N", type=_positive_count, help="at most N entries")
    logs.add_argument(
        "--from-archive", action="store_true", help="read the local archive only (no request)"
    )
    logs.add_argument(
        "--archive",
        action="store_true",
        help="sync the local archive with the service and print one line (for cron)",
    )
    logs.add_argument("--quiet", action="store_true", help="with --archive: print nothing if ok")
    logs.add_argument("--follow", action="store_true", help="print new entries as they come")
    logs.add_argument(
        "--interval",
        metavar="SECONDS",
        type=_follow_interval,
        help="with --follow: seconds between requests (default 5, at least 1)",
    )
    _add_format_option(logs, "table", "json", "csv")
    _add_profile_option(logs)


def _add_webhooks_listen(actions: argparse._SubParsersAction[_Parser]) -> None:
    """Issue 37: `webhooks listen`, the local receiver (console/webhooks/listen_cli.py)."""
    listen = actions.add_parser(
        "listen",
        help="receive the tenant's webhooks here: check, print and forward each delivery",
        description="Listen for the tenant's webhook deliveries on this machine, as `stripe "
        "listen` does: each delivery's signature is checked with the service's public key; a "
        "verified one is answered 200 and printed (a forged one is answered 400 and refused "
        "on stderr). Against the local service listen registers a webhook for itself and "
        "deletes it when it ends (Ctrl+C). The hosted service cannot reach this machine: "
        "give it a tunnel's URL with --public-url, or use --no-register. Exit 0 stopped, "
        "1 failed, 2 usage.",
    )
    listen.add_argument(
        "--events",
        metavar="TYPE,...",
        help="only these event types: registered for, printed and forwarded (default: all)",
    )
    listen.add_argument(
        "--forward-to",
        metavar="URL",
        help="POST each delivery on to URL (body and signature headers unchanged) and print "
        "its answer; the service gets 200 whatever the forward's result",
    )
    listen.add_argument(
        "--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"
    )
    listen.add_argument(
        "--port",
        type=_port_number,
        default=0,
        help="the port to listen on (default 0: a free one, printed)",
    )
    listen.add_argument(
        "--public-url",
        metavar="URL",
        help="hosted service: the URL of a tunnel you run to --port (cloudflared, ngrok); "
        "it is registered instead of the loopback URL",
    )
    listen.add_argument(
        "--no-register",
        action="store_true",
        help="register no webhook: only receive (for one you pointed here yourself)",
    )
    listen.add_argument(
        "--signing-key",
        metavar="FILE",
        help="verify with this public key (PEM) instead of the service's published one",
    )
    listen.add_argument(
        "--service-url",
        metavar="URL",
        help="with --no-register: verify with the public key of the local service at URL (no "
        "profile or API key needed; the demo's webhook detail shows the whole command)",
    )
    listen.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="json: one JSON object per delivery and line (the delivery plus verified: true)",
    )
    _add_profile_option(listen)
    listen.set_defaults(webhooks_run="console.webhooks.listen_cli:listen")


def _port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is 0 to 65535")
    return value


def _when(text: str) -> object:
    """A --since/--until time (console.audit.when), as a datetime in UTC."""
    from console.audit.when import parse_when

    try:
        return parse_when(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _log_word(text: str) -> str:
    """An entity type: letters, digits, `_`, `-`, `.`, `:` (at most 64)."""
    import re

    if not re.fullmatch(r"[A-Za-z0-9_.:-]{1,64}", text):
        raise argparse.ArgumentTypeError(f"{text!r} is not an entity type (such as proxy)")
    return text


def _log_value(text: str) -> str:
    """An id to filter by: 1 to 200 characters, none of them a control character."""
    import re

    if not 0 < len(text) <= 200 or re.search(r"[\x00-\x1f\x7f-\x9f]", text):
        raise argparse.ArgumentTypeError("an id of 1 to 200 characters, without control characters")
    return text


def _positive_count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: at least 1")
    return value


def _follow_interval(text: str) -> float:
    value = _positive_seconds(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the interval must be at least 1 second")
    return value


def _positive_seconds(text: str) -> float:
    """A number of seconds above zero (a watch polling every 0 or -1 s would spin)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: the interval must be above 0 seconds")
    return value


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
    parser = build_parser()
    args = parser.parse_args(tokens)
    if args.command == "run":
        _one_code_file(parser, args)
    elif args.command == "push":
        _one_push_target(parser, args)
    return args


def _one_push_target(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`push KIND NAME` or `push --reactor NAME` (as `run --reactor NAME`): exactly one of
    them; after it, `args.kind` and `args.name` say the target either way."""
    if args.reactor is not None:
        if args.kind is not None or args.name is not None:
            parser.error("push: give KIND NAME or --reactor NAME, not both")
        args.kind, args.name = "reactor", args.reactor
        return
    if args.kind is None:
        parser.error("push: the following arguments are required: KIND NAME (or --reactor NAME)")
    if args.name is None:
        parser.error("push: the following arguments are required: NAME")


def _one_code_file(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`run --code FILE` (or the older positional CODE.js), or `--reactor NAME`: exactly one
    of them. `--reactor` runs as a reactor; the kind is a formula unless said."""
    if args.code is not None and args.code_file is not None:
        parser.error("run: give the code file once, as --code FILE")
    if args.reactor is not None:
        if args.code is not None or args.code_file is not None:
            parser.error("run: give --code FILE or --reactor NAME, not both")
        if args.kind not in (None, "reactor"):
            parser.error(f"run: --reactor runs a reactor's code, not a {args.kind}'s")
        args.kind = "reactor"
        return
    if args.code is None and args.code_file is None:
        parser.error("run: the following arguments are required: --code FILE")
    args.code = args.code if args.code is not None else args.code_file
    args.kind = args.kind or "formula"


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command; when the reader of its output goes away (`| head -1`), it ends
    quietly with READER_GONE, whichever command it was and wherever it was writing."""
    from console.closed_output import READER_GONE, output_reader_gone

    try:
        return _run_flushed(argv)
    except BrokenPipeError:
        if not output_reader_gone():
            raise
        return READER_GONE


def _run_flushed(argv: Sequence[str] | None) -> int:
    """The command's exit code, its output flushed (here, not at the interpreter's exit,
    where a closed pipe could only be reported as an ignored exception)."""
    try:
        code = _run(argv)
    except SystemExit:  # --help, --version and usage errors print, then exit
        _flush_output()
        raise
    _flush_output()
    return code


def _flush_output() -> None:
    if sys.stdout is not None:  # None: no console (pythonw)
        sys.stdout.flush()


def _run(argv: Sequence[str] | None) -> int:
    args = parse_arguments(argv)
    module_name, _, function_name = HANDLERS[args.command].partition(":")
    handler = getattr(importlib.import_module(module_name), function_name)
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except Exception as error:
        from console.profiles.resolve import UnusableKey

        if not isinstance(error, UnusableKey):
            raise
        print(f"tenant-console: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
