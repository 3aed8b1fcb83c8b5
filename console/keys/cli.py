"""`tenant-console keys list|create|revoke|rotate APP`: an application's keys from a script.

APP is the application's name or id. The profile and key are found as the console finds them
(`--profile`, then $TENANT_CONSOLE_PROFILE, then the active profile; the environment's URL and
key win). Exit codes: 0 done; 1 refused or failed (one line on stderr); 2 unusable arguments;
3 a rotation left waiting (the new key exists and is in its file, the old keys still work):
run the same `keys rotate` again, with `--yes --then-revoke` once the new key is deployed.

A key is printed only by `keys create` without `--key-out`, alone on standard output; with a
file it goes to that file (0600) and never to the terminal. Never imports Textual.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from console.cli_support import Command, Refused, quiet_logging

if TYPE_CHECKING:
    from console.client.client import AdminClient
    from console.models import Application, ApplicationKey
    from console.profiles.resolve import ResolvedConnection

OK, FAILED, USAGE, WAITING = 0, 1, 2, 3


COMMAND = Command("tenant-console keys", escape=False)
"""Said as given: what the service sent is cleaned where it is put in a message (`_clean`)."""
_error = COMMAND.error


def _say(message: str) -> None:
    print(message, file=sys.stderr)


def _scope(connection: ResolvedConnection) -> str:
    return connection.profile or connection.base_url


def _clean(text: str) -> str:
    """What the service sent, safe for a terminal: control characters become `?`."""
    return "".join(c if c.isprintable() else "?" for c in text)


def _age(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    from console.clock import now

    days = (now() - moment).days
    return "today" if days < 1 else f"{days} day{'s' if days != 1 else ''}"


def _check_writable(path: Path, *, force: bool) -> None:
    """Before a key is made: its file must be one this command can create (or, with
    --force, replace), or the key would be lost or another file overwritten."""
    import os

    path = path.expanduser()
    if path.is_dir():
        raise Refused(f"{path} is a folder, not a file.", USAGE)
    if os.path.lexists(path) and not force:  # lexists: a dangling link is something too
        raise Refused(
            f"{path} already exists and is not replaced: give a new file, or add --force to "
            "replace it. No key was made.",
            USAGE,
        )
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise Refused(f"The folder of {path} does not exist.", USAGE)
    if not os.access(folder, os.W_OK):
        raise Refused(f"Cannot write in {folder}.", FAILED)


async def _own_key_id(
    client: AdminClient, connection: ResolvedConnection, application: Application
) -> tuple[bool, str | None]:
    """(whether the command's key belongs to `application`, the id of that key if known)."""
    from console.keys.session import session_key_id

    try:
        current = await client.applications.current()
    except Exception:  # without application:read it cannot tell: treat as possibly own
        logging.getLogger(__name__).info("GET /applications/key failed", exc_info=True)
        return True, None
    if str(current.id) != str(application.id):
        return False, None
    ids = [str(k.id) for k in (current.keys or [])]
    return True, session_key_id(_scope(connection), str(application.id), ids)


def _refusal_code(error: Exception) -> int:
    """A file that appeared at --key-out is refused as one there before (2); others are 1."""
    from console.keys.key_file import KeyFileExists

    return USAGE if isinstance(error, KeyFileExists) else FAILED


def _write_key(path: Path, key: ApplicationKey, *, force: bool) -> Path:
    """The key in a file this command creates (0600); with `force`, replacing what is there
    atomically (a link or a pipe is replaced, never followed or written into)."""
    from console.keys.key_file import write_key_file

    assert key.key is not None
    return write_key_file(path, key.key, force=force)


async def _list(client: AdminClient, args: argparse.Namespace) -> int:
    from console.keys.operations import find_application

    application = await find_application(client, args.app)
    keys = await client.application_keys.list(application.id)
    if args.format == "json":
        document = [
            {
                "id": str(k.id),
                "version": k.version,
                "created_at": k.created_at.isoformat() if k.created_at else None,
                "created_by": str(k.created_by) if k.created_by else None,
            }
            for k in keys
        ]
        print(json.dumps(document, indent=2))
        return OK
    print(f"{'ID':36}  {'VERSION':7}  {'CREATED':25}  {'AGE':9}  CREATED BY")
    for k in keys:
        created = k.created_at.isoformat() if k.created_at else "-"
        print(
            f"{k.id!s:36}  {_clean(k.version or '-'):7}  {created:25}  "
            f"{_age(k.created_at):9}  {k.created_by or '-'}"
        )
    _say(f'{len(keys)} key{"s" if len(keys) != 1 else ""} of "{application.name}".')
    return OK


async def _create(client: AdminClient, args: argparse.Namespace) -> int:
    from console.keys.key_file import KeyFileError
    from console.keys.operations import find_application

    out = Path(args.key_out) if args.key_out else None
    if out is not None:
        _check_writable(out, force=args.force)
    application = await find_application(client, args.app)
    made = await client.application_keys.create(application.id)
    if not made.key:
        raise Refused("The service made a key but did not send it.")
    if out is None:
        try:
            print(made.key, flush=True)
        except BrokenPipeError:  # nobody got it: a key no one holds is revoked at once
            await client.application_keys.revoke(application.id, made.id)
            _say(f"The new key {made.id} could not be shown (the output was closed): revoked.")
            raise
        _say(
            f'Created key {made.id} (version {made.version}) of "{application.name}": it is '
            "shown only now."
        )
        return OK
    try:
        written = _write_key(out, made, force=args.force)
    except KeyFileError as error:
        await client.application_keys.revoke(application.id, made.id)
        raise Refused(
            f"{error} The new key was revoked again: nothing changed.", _refusal_code(error)
        ) from None
    _say(
        f'Created key {made.id} (version {made.version}) of "{application.name}"; it is in '
        f"{written} (mode 0600)."
    )
    return OK


_HEX_ID = frozenset("0123456789abcdef-")


async def _key_by_id_start(
    client: AdminClient, application: Application, given: str
) -> ApplicationKey:
    """The application's key whose id is `given` or starts with it (the console shows 8
    characters and "…"). The id that goes into the revoke's path is the one the service
    listed (a UUID), never the argument."""
    start = given.strip().removesuffix("…").removesuffix("...").lower()
    if not start or not set(start) <= _HEX_ID:
        raise Refused(
            f'"{_clean(given)}" is not a key id or the start of one (hexadecimal digits and '
            f'dashes, as `tenant-console keys list "{_clean(application.name)}"` shows them).',
            USAGE,
        )
    keys = await client.application_keys.list(application.id)
    matches = [k for k in keys if str(k.id).startswith(start)]
    if not matches:
        raise Refused(f'No key of "{_clean(application.name)}" has an id starting with {start}.')
    if len(matches) > 1:
        ids = ", ".join(str(k.id) for k in matches)
        raise Refused(
            f'{len(matches)} keys of "{_clean(application.name)}" have ids starting with '
            f"{start}: {ids}. Give more of the id: nothing was revoked.",
            USAGE,
        )
    return matches[0]


def _confirm_name(application: Application, what: str) -> bool:
    """Asks for the application's name on a terminal; False when it is not typed."""
    _say(what)
    try:
        typed = input(f'Type "{application.name}" to confirm: ')
    except EOFError:
        return False
    return typed == application.name


async def _revoke(
    client: AdminClient, connection: ResolvedConnection, args: argparse.Namespace
) -> int:
    from console.keys.operations import find_application

    application = await find_application(client, args.app)
    key = await _key_by_id_start(client, application, args.key_id)
    own, own_key = await _own_key_id(client, connection, application)
    if own and (own_key is None or own_key == str(key.id)):
        raise Refused(
            "This may be the key this command runs with: revoking it would lock this profile "
            f'out. Use `tenant-console keys rotate "{application.name}" --key-out FILE`, which '
            "stores the new key for the profile first."
        )
    if not args.yes:
        if not sys.stdin.isatty():
            raise Refused("Not a terminal: add --yes to revoke without asking.", USAGE)
        question = (
            f'Revoke key {key.id} (version {key.version}) of "{application.name}"? Every '
            "service still using it gets 401 at once."
        )
        if not _confirm_name(application, question):
            raise Refused("Not confirmed: nothing was revoked.")
    await client.application_keys.revoke(application.id, key.id)
    _say(f'Revoked key {key.id} of "{application.name}": it no longer works.')
    return OK


async def _store_for_profile(
    connection: ResolvedConnection, application: Application, key: ApplicationKey
) -> None:
    """The command's own application: the profile gets the new key before any old one goes."""
    from console.keys.session import remember_session_key

    if connection.key_source == "env" or connection.profile is None:
        raise Refused(
            "The old keys include the one in TENANT_CONSOLE_API_KEY: set it to the new key (in "
            "the key file), then run this command again to finish the rotation.",
            WAITING,
        )
    from console.profiles.keys import set_key

    assert key.key is not None
    await asyncio.to_thread(set_key, connection.profile, key.key)
    remember_session_key(_scope(connection), str(application.id), str(key.id))
    _say(f"The new key is stored for profile {connection.profile}.")


async def _rotate(
    client: AdminClient, connection: ResolvedConnection, args: argparse.Namespace
) -> int:
    from console.keys.key_file import KeyFileError
    from console.keys.operations import find_application, revoke_old_keys, start_rotation
    from console.keys.rotation import DEPLOYING, remember, rotation_for

    if args.yes != args.then_revoke:
        raise Refused("--yes skips the wait only together with --then-revoke.", USAGE)
    out = Path(args.key_out)
    application = await find_application(client, args.app)
    scope = _scope(connection)
    own, _ = await _own_key_id(client, connection, application)
    rotation = rotation_for(scope, str(application.id))
    if rotation is None:
        _check_writable(out, force=args.force)
        started = await start_rotation(client, scope, application, own=own)
        rotation = started.rotation
        try:
            written = _write_key(out, started.key, force=args.force)
        except KeyFileError as error:
            await client.application_keys.revoke(application.id, started.key.id)
            from console.keys.operations import cancel_rotation

            cancel_rotation(rotation)
            raise Refused(
                f"{error} The new key was revoked again: nothing changed.", _refusal_code(error)
            ) from None
        rotation.stage = DEPLOYING
        if started.remembered:
            remember(rotation)
        else:
            _say("warning: the rotation could not be remembered in the change journal.")
        _say(
            f"Created key {started.key.id} (version {started.key.version}) of "
            f'"{application.name}"; it is in {written} (mode 0600). The old keys keep working.'
        )
        if own:
            await _store_for_profile(connection, application, started.key)
            client.set_api_key(started.key.key or "")
    else:
        _say(
            f'Resuming the rotation of "{application.name}" begun {rotation.started_at}: '
            f"the new key {rotation.new_key_id} was made then (its file was written then)."
        )
    count = len(rotation.old_key_ids)
    if not args.then_revoke:
        if not sys.stdin.isatty():
            _say(
                f"Waiting: deploy the new key, then run `tenant-console keys rotate "
                f'"{application.name}" --key-out {out} --yes --then-revoke` to revoke the '
                f"{count} old key(s)."
            )
            return WAITING
        _say(f"Deploy the new key where the old one is used. The {count} old key(s) still work.")
        try:
            answer = input('Type "revoke" once it is deployed (Enter leaves it waiting): ')
        except EOFError:
            answer = ""
        if answer.strip() != "revoke":
            _say("Left waiting: the old keys still work. Run the same command again to finish.")
            return WAITING
    revoked = await revoke_old_keys(client, rotation)
    _say(f'Revoked {len(revoked)} old key(s) of "{application.name}": the rotation is finished.')
    return OK


async def _run(connection: ResolvedConnection, args: argparse.Namespace) -> int:
    from console.client import AdminClient

    assert connection.key is not None
    async with AdminClient(
        connection.base_url, connection.key, key_header=connection.key_header
    ) as client:
        if args.keys_command != "list":  # every key change goes into the change journal
            from console.journal.store import open_journal

            client.record_changes(open_journal(), profile=connection.profile, origin="keys")
            from console.journal.settle import settle_at_start

            await settle_at_start(client, connection.profile)
        if args.keys_command == "list":
            return await _list(client, args)
        if args.keys_command == "create":
            return await _create(client, args)
        if args.keys_command == "revoke":
            return await _revoke(client, connection, args)
        return await _rotate(client, connection, args)


def run(args: argparse.Namespace) -> int:
    quiet_logging()
    from console.keys.operations import ApplicationNotFound
    from console.profiles.keys import KeyStoreError

    if args.read_only and args.keys_command != "list":
        _error(f"read-only: `keys {args.keys_command}` changes keys and is refused.")
        return FAILED
    return COMMAND.run(
        args.profile,
        lambda connection: _run(connection, args),
        failures=[(ApplicationNotFound, ""), (KeyStoreError, " The old keys were not revoked.")],
    )
