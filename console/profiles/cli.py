"""`tenant-console profile add|list|use|remove`: one clear line on failure, never the key.

Exit codes: 0 done, 1 failed (nothing changed), 2 unusable arguments.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from typing import TextIO, cast

from console.profiles.config import Profile, ProfileError, ProfilesFile, validate_name
from console.profiles.keys import (
    API_KEY_ENV,
    KeyStoreError,
    NoKeyring,
    backend_name,
    delete_key,
    get_key,
    keyring_problem,
    set_key,
)
from console.profiles.resolve import BASE_URL_ENV, KEY_HEADER_ENV, PROFILE_ENV, env_key_header

OK, FAILED, USAGE = 0, 1, 2


class CommandFailed(Exception):
    """Ends a command with one line on stderr and an exit code."""

    def __init__(self, message: str, code: int = FAILED) -> None:
        super().__init__(message)
        self.code = code


def run(args: argparse.Namespace) -> int:
    """Run the `profile` sub-command in `args.profile_command`."""
    commands = {"add": _add, "list": _list, "use": _use, "remove": _remove}
    try:
        return commands[args.profile_command](args)
    except CommandFailed as failure:
        _error(str(failure))
        return failure.code
    except (ProfileError, KeyStoreError) as error:
        _error(str(error))
        return FAILED


def _add(args: argparse.Namespace) -> int:
    label, color = args.label, args.color
    try:
        profile = Profile(
            args.name,
            args.base_url,
            key_header=args.key_header,
            label=label,
            color=color,
            key_env=args.key_env,
            key_command=args.key_command,
        )
    except ProfileError as error:
        raise CommandFailed(str(error), USAGE) from None
    profiles = ProfilesFile.load()  # a damaged file stops everything before a key is asked for
    old = profiles.profiles.get(profile.name)
    if old is not None and label is None and color is None:  # re-adding keeps the label
        profile = replace(profile, label=old.label, color=old.color)
    if not profile.key_from_keyring:
        return _add_with_key_source(profiles, profile)
    problem = keyring_problem()  # don't ask for a key that cannot be stored
    if problem:
        raise CommandFailed(problem)
    key = _read_key(profile.name, from_stdin=args.key_stdin)
    info = _verify(profile.base_url, key, env_key_header() or profile.header)
    print(info.describe())

    if info.tenant_name:  # the console's profile picker shows it
        profile = replace(profile, tenant_name=info.tenant_name)
    existed = profile.name in profiles.profiles
    previous_key = get_key(profile.name) if existed else None
    set_key(profile.name, key)
    replaced = profiles.add(profile)
    try:
        profiles.save()
    except ProfileError:
        _restore_key(profile.name, previous_key)
        raise
    store = backend_name()
    verb = "Updated" if replaced else "Saved"
    active = " It is the active profile." if profiles.active == profile.name else ""
    print(f'{verb} profile "{profile.name}" (key stored in the keyring: {store}).{active}')
    return OK


def _add_with_key_source(profiles: ProfilesFile, profile: Profile) -> int:
    """A profile whose key comes from a variable or a command: the key is read and checked
    now, and never stored; the profile names where it comes from."""
    from console.profiles.key_source import describe_key_source, read_external_key

    origin = describe_key_source(profile)
    key = read_external_key(profile)  # KeySourceError: one line, exit 1
    assert key is not None
    info = _verify(profile.base_url, key, env_key_header() or profile.header)
    print(info.describe())
    if info.tenant_name:
        profile = replace(profile, tenant_name=info.tenant_name)
    replaced = profiles.add(profile)
    profiles.save()
    verb = "Updated" if replaced else "Saved"
    active = " It is the active profile." if profiles.active == profile.name else ""
    where = f"key read from {origin} at each start, never stored"
    print(f'{verb} profile "{profile.name}" ({where}).{active}')
    return OK


def _restore_key(name: str, previous_key: str | None) -> None:
    """Undo set_key after the file could not be saved, so profile and key stay in step."""
    try:
        if previous_key is None:
            delete_key(name)
        else:
            set_key(name, previous_key)
    except KeyStoreError:
        pass


def _read_key(name: str, *, from_stdin: bool, stdin: TextIO | None = None) -> str:
    """The key from one line of stdin, or from a hidden prompt when stdin is a terminal."""
    # typeshed types sys.std* as TextIO | Any (None without a console): cast, or pyright
    # widens the parameter back to TextIO | None.
    stdin = stdin or cast("TextIO", sys.stdin)
    if from_stdin or not _is_tty(stdin):
        line = stdin.readline()
        key = line.strip()
        if not key:
            raise CommandFailed("No API key on standard input: nothing was stored.")
    else:
        import getpass

        try:
            key = getpass.getpass(f'API key for profile "{name}" (input hidden): ').strip()
        except EOFError:
            key = ""
        if not key:
            raise CommandFailed("No API key entered: nothing was stored.")
    if any(ch.isspace() or ord(ch) < 32 for ch in key):
        raise CommandFailed("That is not an API key (it contains spaces): nothing was stored.")
    return key


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _verify(base_url: str, key: str, key_header: str):  # -> KeyInfo
    import asyncio

    from console.client import ApiError, RetryPolicy, Unauthorized
    from console.profiles.verify import verify_key

    # One quick retry: a person is waiting, and can run the command again.
    retry = RetryPolicy(max_attempts=2, base_delay=0.3, max_total_wait=1.0)
    try:
        return asyncio.run(verify_key(base_url, key, retry=retry, key_header=key_header))
    except Unauthorized as error:
        raise CommandFailed(f"{error}. Nothing was stored.") from None
    except ApiError as error:
        raise CommandFailed(f"{error}. The key was not checked, so nothing was stored.") from None


def _list(args: argparse.Namespace) -> int:
    profiles = ProfilesFile.load()
    if not profiles.profiles:
        print("No profiles yet. Add one with: tenant-console profile add NAME --base-url URL")
        _print_env_notes(profiles)
        return OK
    env_key = bool(os.environ.get(API_KEY_ENV, "").strip())
    rows: list[tuple[str, ...]] = [("ACTIVE", "NAME", "LABEL", "BASE URL", "KEY HEADER", "KEY")]
    keyring_error: str | None = None
    for profile in profiles.profiles.values():
        status = "unknown"
        if not profile.key_from_keyring:
            status = f"from ${profile.key_env}" if profile.key_env else "from its command"
        elif keyring_error is None:
            try:
                status = "stored" if get_key(profile.name) else "missing"
            except KeyStoreError as error:
                keyring_error = str(error)  # one message; don't wait on a stuck keyring again
        if env_key:
            status = f"env ({status})"
        marker = "*" if profile.name == profiles.active else ""
        label = f"{profile.label} ({profile.color})" if profile.color else profile.label
        rows.append((marker, profile.name, label or "", profile.base_url, profile.header, status))
    if not any(row[2] for row in rows[1:]):  # the LABEL column only once a profile has one
        rows = [(row[0], row[1], *row[3:]) for row in rows]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row[:-1], widths, strict=True)]
        print("  ".join([*cells, row[-1]]).rstrip())
    _print_env_notes(profiles)
    if keyring_error:
        _error(keyring_error)
    return OK


def _print_env_notes(profiles: ProfilesFile) -> None:
    """Say which environment variables change what the console would use."""
    chosen = os.environ.get(PROFILE_ENV, "").strip()
    if chosen:
        known = "" if chosen in profiles.profiles else " (no such profile)"
        print(f"{PROFILE_ENV}={chosen} selects that profile for this session{known}.")
    if os.environ.get(BASE_URL_ENV, "").strip():
        print(f"{BASE_URL_ENV} is set: it replaces the profile's base URL.")
    if os.environ.get(API_KEY_ENV, "").strip():
        print(f"{API_KEY_ENV} is set: it is used instead of any stored key.")
    if os.environ.get(KEY_HEADER_ENV, "").strip():
        print(f"{KEY_HEADER_ENV} is set: the key is sent in that header instead.")


def _use(args: argparse.Namespace) -> int:
    name = _valid_name(args.name)
    profiles = ProfilesFile.load()
    profiles.use(name)
    profiles.save()
    print(f'Active profile: "{name}" ({profiles.profiles[name].base_url}).')
    return OK


def _remove(args: argparse.Namespace) -> int:
    name = _valid_name(args.name)
    profiles = ProfilesFile.load()
    profile = profiles.get(name)
    try:
        if not profile.key_from_keyring:
            what = "(its key came from elsewhere; nothing was stored)"
        else:
            what = "and its key" if delete_key(name) else "(it had no stored key)"
    except NoKeyring:
        what = "(no usable keyring here, so no key to remove)"
    except KeyStoreError as error:
        raise CommandFailed(f"{error} The profile was kept.") from None
    profiles.remove(name)
    profiles.save()
    print(f'Removed profile "{name}" {what}.')
    return OK


def _valid_name(name: str) -> str:
    try:
        return validate_name(name)
    except ProfileError as error:
        raise CommandFailed(str(error), USAGE) from None


def _error(message: str) -> None:
    print(f"tenant-console: {message}", file=sys.stderr)
