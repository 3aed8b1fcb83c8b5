"""A profile's key from outside the keyring: an environment variable or a command.

For machines without a usable keyring (a headless server, CI) and for keys kept in a password
manager: the profile names where its key comes from, as git's credential helpers and the AWS
CLI's `credential_process` do, and the key is read at each start, never written anywhere.
The command is split like a shell would split it but run without one, with nothing on its
standard input and a deadline; what it prints is never logged or shown.
"""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
from collections.abc import Mapping

from console.profiles.config import Profile
from console.profiles.keys import KeyStoreError, keyring_timeout

log = logging.getLogger(__name__)


class KeySourceError(KeyStoreError):
    """The profile's variable or command gave no usable key; str() names which, never a key."""


def describe_key_source(profile: Profile) -> str:
    """Where the profile's key comes from, said for a person: "$VAR", "the command `…`"."""
    if profile.key_env:
        return f"${profile.key_env}"
    if profile.key_command:
        return f"the command `{profile.key_command}`"
    return "the OS keyring"


def read_external_key(
    profile: Profile,
    *,
    env: Mapping[str, str] = os.environ,
    timeout: float | None = None,
) -> str | None:
    """The key from the profile's variable or command; None when the profile names neither
    (its key is in the keyring). Raises KeySourceError with one sentence. Blocking."""
    if profile.key_env:
        value = env.get(profile.key_env, "").strip()
        if not value:
            raise KeySourceError(
                f'Profile "{profile.name}" takes its key from ${profile.key_env}, which is '
                "not set (or empty) here. Set it, or store a key with `tenant-console profile "
                "add`."
            )
        return _checked(value, f"${profile.key_env}")
    if profile.key_command:
        return _run_key_command(profile.name, profile.key_command, timeout)
    return None


def _run_key_command(name: str, command: str, timeout: float | None) -> str:
    deadline = keyring_timeout() if timeout is None else timeout
    where = f'the key command of profile "{name}"'
    title = f'The key command of profile "{name}"'
    try:
        done = subprocess.run(
            shlex.split(command),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=deadline,
            check=False,
        )
    except FileNotFoundError:
        program = shlex.split(command)[0]
        raise KeySourceError(f"Cannot run {where}: {program} was not found.") from None
    except subprocess.TimeoutExpired:
        raise KeySourceError(f"{title} did not finish within {deadline:g} s.") from None
    except OSError as error:
        raise KeySourceError(f"Cannot run {where}: {error.strerror or error}.") from None
    if done.returncode != 0:
        # Its own words may say why (a locked vault); its output may hold secrets, so only
        # the first line of what it wrote to stderr, with control characters dropped.
        said = _first_line(done.stderr)
        log.warning("The key command of profile %s exited with %s", name, done.returncode)
        raise KeySourceError(
            f"{title} failed (exit {done.returncode})" + (f": {said}" if said else ".")
        )
    lines = [line.strip() for line in done.stdout.decode("utf-8", "replace").splitlines()]
    key = next((line for line in lines if line), "")
    if not key:
        raise KeySourceError(f"{title} printed no key.")
    return _checked(key, where)


def _checked(key: str, where: str) -> str:
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in key):
        raise KeySourceError(
            f"What {where} gave is not an API key (it holds spaces or control characters)."
        )
    return key


def _first_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace").strip().splitlines()
    line = text[0] if text else ""
    return "".join(ch for ch in line if ch.isprintable())[:200]
