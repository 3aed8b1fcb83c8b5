"""`tenant-console webhooks list|show|create|update|delete|enable|disable|event-types|trigger`:
the tenant's webhooks from a script (`listen` has a module of its own).

`list` prints every webhook (name, status, events, URL, id; why the service disabled one,
when it says), `show ID` one; `--format json` prints them as the service sent them (with
`disabled_reason`), `list --format csv` one row each. WEBHOOK is a webhook's id or its exact
name. `create --name --url --events a,b [--notify-email]` makes one (it starts enabled);
`update WEBHOOK` changes the fields given and writes back the others as read (its status
stays); `enable`/`disable` set its status (a PUT of the whole webhook, as the service
has it); `delete` asks first, on a terminal, unless `--yes`. `event-types` lists what a
webhook may subscribe to, as the service names them. `trigger EVENT [--webhook WEBHOOK]` has
the local service send a sample event of that type (the hosted service has no such route).

`--events` is checked before anything is sent: each type must be one the service sends
(`event-types`), given once; the first bad one is named (exit 2). Every change goes into the
change journal first (origin `webhooks`) and can be undone with `tenant-console undo`: a
created webhook deleted, a deleted one created again (with a new id, enabled), an update or
an enable/disable written back. Read-only mode (`--read-only`) refuses every change;
`trigger` changes no webhook and is not journalled.

Exit codes: 0 done; 1 refused or failed (the service, read-only mode, the journal, a
trigger on a service without one, a delete not confirmed); 2 unusable arguments (an event
type, a URL, an email, a name that names several webhooks, no terminal to confirm on);
3 no such webhook. What the service sent is shown with its control characters escaped.
Never imports Textual.

How another action joins the group: its parser (in console/cli.py's `_add_webhooks_command`)
sets `webhooks_run="module:function"` with `set_defaults`; `run` hands the arguments to that
function, which returns the exit code (`listen` does so).
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import logging
import sys
from typing import TYPE_CHECKING, Any
from uuid import UUID

from console.cli_support import Command, JournalledActions, Refused, print_one, undo_hint
from console.terminal_text import printable, printable_json

if TYPE_CHECKING:
    from console.client import AdminClient
    from console.models.webhooks import Webhook

OK, FAILED, USAGE, NOT_FOUND = 0, 1, 2, 3
ORIGIN = "webhooks"
"""How the change journal says these changes were made."""
WRITES = frozenset({"create", "update", "delete", "enable", "disable"})
NO_TRIGGER = (
    "this service cannot send sample events: the hosted service has no trigger route. To see "
    "a real event, run `tenant-console webhooks listen` (with --public-url for a tunnel) and "
    "make a change that emits it (creating a reactor sends reactor.created)."
)

COMMAND = Command("tenant-console webhooks")
_error = COMMAND.error


def _say(message: str) -> None:
    print(printable(message))


# ---- what a person gives ---------------------------------------------------------------


def checked_events(text: str) -> list[str]:
    """`a,b` as event types: each one the service sends, given once; Refused (2) naming
    the first that is not, before any request."""
    from console.models.webhooks import event_type_problem

    events = [part.strip() for part in text.split(",")]
    if not text.strip() or any(not event for event in events):
        raise Refused(
            f'--events "{text[:200]}" has an empty event type: give them as a,b (see '
            "`tenant-console webhooks event-types`).",
            USAGE,
        )
    seen: set[str] = set()
    for event in events:
        problem = event_type_problem(event)
        if problem is not None:
            raise Refused(f"--events: {problem[:300]}", USAGE)
        if event in seen:
            raise Refused(f"--events: {event!r} is given twice.", USAGE)
        seen.add(event)
    return events


_STAND_INS: dict[str, Any] = {
    "name": "webhook",
    "url": "https://example.com/webhooks",
    "events": ["token.created"],
}
"""Valid fields a check of only the given ones stands in for those not given."""


def checked_fields(args: argparse.Namespace, *, creating: bool) -> dict[str, Any]:
    """The fields given (name, url, events, notify_email), checked as the service would
    check them; Refused (2) with the field and why. An update checks only those given (an
    empty --notify-email removes the email)."""
    from console.models.errors import PayloadInvalid
    from console.models.webhooks import WebhookCreate

    given: dict[str, Any] = {}
    for name in ("name", "url", "notify_email"):
        value = getattr(args, name, None)
        if value is not None:
            given[name] = value
    if getattr(args, "events", None) is not None:
        given["events"] = checked_events(args.events)
    if creating:
        missing = [f"--{n.replace('_', '-')}" for n in ("name", "url", "events") if n not in given]
        if missing:
            raise Refused(f"create needs {', '.join(missing)}.", USAGE)
    elif not given:
        raise Refused(
            "update: give at least one of --name, --url, --events, --notify-email.", USAGE
        )
    candidate = {**_STAND_INS, **given}
    if candidate.get("notify_email") == "":
        del candidate["notify_email"]
    try:
        WebhookCreate.parse(candidate)
    except PayloadInvalid as invalid:
        raise Refused(f"--{str(invalid).replace('_', '-', 1)[:300]}", USAGE) from None
    return given


def _as_uuid(text: str) -> UUID | None:
    try:
        return UUID(text.strip())
    except ValueError:
        return None


async def find_webhook(client: AdminClient, given: str) -> Webhook:
    """The webhook `given` names: its id (read), or its exact name (the list: at most five);
    Refused (3) if none, (2) if the name is on several."""
    from console.client import NotFound

    as_id = _as_uuid(given)
    if as_id is not None:
        try:
            return await client.webhooks.get(as_id)
        except NotFound:
            raise Refused(f"no webhook has the id {as_id}.", NOT_FOUND) from None
    found = [w async for w in client.webhooks.iterate() if w.name == given]
    if not found:
        raise Refused(f'no webhook is named "{given[:80]}".', NOT_FOUND)
    if len(found) > 1:
        ids = ", ".join(w.id for w in found)
        raise Refused(
            f'{len(found)} webhooks are named "{given[:80]}" ({ids}): give the id.', USAGE
        )
    return found[0]


# ---- reading -----------------------------------------------------------------------------


def webhook_json(webhook: Webhook) -> dict[str, Any]:
    """One webhook as `--format json` prints it: as the service sent it (its unknown fields
    too), `disabled_reason` included when the service gave one."""
    data: dict[str, Any] = webhook.model_dump(mode="json", exclude_none=True)
    return data


def _status(webhook: Webhook) -> str:
    return webhook.status or "-"


def _table(header: list[str], rows: list[list[str]]) -> str:
    rows = [header] + [[printable(cell) for cell in row] for row in rows]
    widths = [max(len(row[n]) for row in rows) for n in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(widths[n]) for n, cell in enumerate(row)).rstrip() for row in rows
    )


def _events_cell(webhook: Webhook) -> str:
    events = webhook.events
    return ", ".join(events) if len(events) <= 3 else f"{', '.join(events[:2])} +{len(events) - 2}"


def list_text(webhooks: list[Webhook]) -> str:
    """The table of `list`; a disabled webhook's reason in its own column when any has one."""
    if not webhooks:
        return "No webhooks."
    header = ["NAME", "STATUS", "EVENTS", "URL", "ID"]
    reasons = any(w.disabled_reason for w in webhooks if not w.enabled)
    if reasons:
        header.append("WHY DISABLED")
    rows = []
    for w in webhooks:
        row = [w.name or "-", _status(w), _events_cell(w), w.url or "-", w.id]
        if reasons:
            row.append((w.disabled_reason or "-") if not w.enabled else "")
        rows.append(row)
    return _table(header, rows)


def details_text(webhook: Webhook) -> str:
    """One webhook for a person: every field, each event on a line of its own, and why the
    service disabled it (when it says)."""
    lines = [
        f"Name:          {webhook.name or '-'}",
        f"Id:            {webhook.id}",
        f"Status:        {_status(webhook)}",
    ]
    if not webhook.enabled and webhook.disabled_reason:
        lines.append(f"Why disabled:  {webhook.disabled_reason}")
    lines += [
        f"URL:           {webhook.url or '-'}",
        f"Notify email:  {webhook.notify_email or '-'}",
        f"Events ({len(webhook.events)}):",
        *(f"  {event}" for event in webhook.events),
    ]
    if webhook.created_at is not None:
        lines.append(f"Created:       {webhook.created_at.isoformat()}")
    if webhook.modified_at is not None:
        lines.append(f"Modified:      {webhook.modified_at.isoformat()}")
    return "\n".join(printable(line) for line in lines)


CSV_COLUMNS = ("name", "status", "events", "url", "notify_email", "disabled_reason", "id")


def _csv(webhooks: list[Webhook]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for w in webhooks:
        writer.writerow(
            [
                w.name or "",
                w.status or "",
                " ".join(w.events),
                w.url or "",
                w.notify_email or "",
                w.disabled_reason or "",
                w.id,
            ]
        )
    return printable(out.getvalue(), lines=True)


async def _list(client: AdminClient, args: argparse.Namespace) -> int:
    webhooks = [w async for w in client.webhooks.iterate()]
    if args.format == "json":
        print(printable_json([webhook_json(w) for w in webhooks], indent=2))
    elif args.format == "csv":
        sys.stdout.write(_csv(webhooks))
    else:
        print(list_text(webhooks))
    return OK


async def _show(client: AdminClient, args: argparse.Namespace) -> int:
    print_one(args.format, await find_webhook(client, args.webhook), webhook_json, details_text)
    return OK


async def _event_types(client: AdminClient, args: argparse.Namespace) -> int:
    types = await client.webhooks.event_types()
    if args.format == "json":
        print(printable_json(types, indent=2))
    else:
        for event in types:
            print(printable(event))
    return OK


# ---- changes -------------------------------------------------------------------------------


async def _key_line(client: AdminClient) -> str:
    """Where the key the deliveries verify with is published (there is no per-webhook
    secret: one key pair signs every delivery of the service), or "" if it cannot be read."""
    try:
        key = await client.webhook_signing_key()
    except Exception:
        logging.getLogger(__name__).info("Could not read the webhook signing key", exc_info=True)
        return ""
    return (
        f"\nIts deliveries are signed (BT-SIGNATURE); verify them with the public key at "
        f"{key.source}."
    )


async def _create(client: AdminClient, args: argparse.Namespace) -> int:
    from console.models.webhooks import WebhookCreate

    fields = checked_fields(args, creating=True)
    if not fields.get("notify_email"):
        fields.pop("notify_email", None)
    created = await client.webhooks.create(WebhookCreate.parse(fields))
    hint = undo_hint(client, ORIGIN, created.id)
    events = len(created.events)
    _say(
        f'Created webhook "{created.name}" ({created.id}), {_status(created)}, for {events} '
        f"event type{'' if events == 1 else 's'}.{hint}"
    )
    line = await _key_line(client)
    if line:
        _say(line.lstrip("\n"))
    return OK


async def _update(client: AdminClient, args: argparse.Namespace) -> int:
    from console.models.round_trip import update_body

    given = checked_fields(args, creating=False)
    current = await find_webhook(client, args.webhook)
    body: dict[str, Any] = {
        "name": current.name,
        "url": current.url,
        "events": list(current.events),
    }
    if current.notify_email:
        body["notify_email"] = current.notify_email
    body.update(given)
    if body.get("notify_email") == "":
        del body["notify_email"]
    changed = await client.webhooks.update(current.id, update_body(current, body))
    hint = undo_hint(client, ORIGIN, current.id)
    names = ", ".join(sorted(given))
    _say(f'Updated webhook "{changed.name}" ({changed.id}): {names}.{hint}')
    return OK


async def _set_status(client: AdminClient, args: argparse.Namespace) -> int:
    status = "enabled" if args.webhooks_command == "enable" else "disabled"
    current = await find_webhook(client, args.webhook)
    if current.status == status:
        _say(f'Webhook "{current.name}" is already {status}: nothing to change.')
        return OK
    changed = await client.webhooks.set_status(current.id, status)
    hint = undo_hint(client, ORIGIN, current.id)
    _say(f'Webhook "{changed.name}" ({changed.id}) is now {_status(changed)}.{hint}')
    return OK


def _confirmed(webhook: Webhook) -> bool:
    """Asks for the webhook's name on a terminal; False when it is not typed."""
    _say(f'Delete webhook "{webhook.name}"? Events stop going to {webhook.url} at once.')
    try:
        typed = input(f'Type "{printable(webhook.name or "")}" to confirm: ')
    except EOFError:
        return False
    return typed == webhook.name


async def _delete(client: AdminClient, args: argparse.Namespace) -> int:
    webhook = await find_webhook(client, args.webhook)
    if not args.yes:
        if not sys.stdin.isatty():
            raise Refused("Not a terminal: add --yes to delete without asking.", USAGE)
        if not _confirmed(webhook):
            raise Refused("Not confirmed: nothing was deleted.")
    await client.webhooks.delete(webhook.id)
    hint = undo_hint(client, ORIGIN, webhook.id)
    _say(f'Deleted webhook "{webhook.name}" ({webhook.id}).{hint}')
    return OK


async def _trigger(client: AdminClient, args: argparse.Namespace) -> int:
    from console.client import NotOffered

    webhook_id = None
    if args.webhook is not None:
        webhook_id = (await find_webhook(client, args.webhook)).id
    try:
        triggered = await client.webhooks.trigger(args.event, webhook_id)
    except NotOffered:
        raise Refused(NO_TRIGGER) from None
    count = triggered.deliveries
    if triggered.event_id is None or not count:
        said = triggered.detail or f"No enabled webhook subscribes to {args.event}."
        _say(f"{said.rstrip('.')}: nothing was sent." if "nothing" not in said else said)
        return OK
    to = "the webhook given" if webhook_id else "every enabled webhook subscribed to it"
    _say(
        f"Sent a sample {args.event} event ({triggered.event_id}): {count} "
        f"deliver{'y' if count == 1 else 'ies'} queued, to {to}."
    )
    return OK


ACTIONS = JournalledActions(
    ORIGIN,
    COMMAND,
    {
        "list": _list,
        "show": _show,
        "event-types": _event_types,
        "create": _create,
        "update": _update,
        "enable": _set_status,
        "disable": _set_status,
        "delete": _delete,
        "trigger": _trigger,
    },
    WRITES,
)


def _checked_arguments(args: argparse.Namespace) -> None:
    """What can be refused before a connection: read-only mode, the fields, the event."""
    from console.models.webhooks import event_type_problem

    ACTIONS.refuse_read_only(args)
    command = args.webhooks_command
    if command in ("create", "update"):
        checked_fields(args, creating=command == "create")
    if command == "trigger" and (problem := event_type_problem(args.event)) is not None:
        raise Refused(problem[:300], USAGE)


def run(args: argparse.Namespace) -> int:
    """The `webhooks` command: an action of this module, or one whose parser named its own
    function (`webhooks_run`, as `listen` does)."""
    elsewhere = getattr(args, "webhooks_run", None)
    if elsewhere:
        module_name, _, function_name = str(elsewhere).partition(":")
        return int(getattr(importlib.import_module(module_name), function_name)(args) or 0)
    return ACTIONS.run(args, _checked_arguments, _api_error_code)


def _api_error_code(error: Exception) -> int:
    """3 for an object the service does not have; 1 for any other failure (a route it
    lacks included)."""
    from console.client import NotFound

    return NOT_FOUND if isinstance(error, NotFound) else FAILED
