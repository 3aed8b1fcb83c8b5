"""Which base URL and key the console uses: profile, environment and keyring combined.

Precedence, as gh does with GH_TOKEN: TENANT_CONSOLE_API_KEY beats the keyring and
TENANT_CONSOLE_BASE_URL beats the profile's URL; with both set, no profile file or keyring is
read at all. Blocking (it may wait on the keyring): call it off the console's UI thread.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from console.models.contract import DEFAULT_KEY_HEADER, checked_header_name
from console.profiles.config import (
    ProfileError,
    ProfilesFile,
    normalize_base_url,
    unknown_profile_message,
)

if TYPE_CHECKING:
    from console.client.budget import RequestBudget

PROFILE_ENV = "TENANT_CONSOLE_PROFILE"
BASE_URL_ENV = "TENANT_CONSOLE_BASE_URL"
API_KEY_ENV = "TENANT_CONSOLE_API_KEY"
KEY_HEADER_ENV = "TENANT_CONSOLE_KEY_HEADER"

KeySource = Literal["env", "keyring", "variable", "command", "none"]
"""env: $TENANT_CONSOLE_API_KEY; variable / command: the profile's key_env / key_command."""

CANNOT_CARRY = (
    "holds a line break, a control character or non-ASCII text, which an HTTP header cannot "
    "carry (the key is not shown)"
)


class UnusableKey(Exception):
    """$TENANT_CONSOLE_API_KEY holds what no HTTP header can carry: refused before any
    request, with exit 2 (console.cli.main), and never shown. Not a ProfileError: the
    profile is not at fault, the value given for this run is."""


def checked_env_key(env: Mapping[str, str] = os.environ) -> str | None:
    """$TENANT_CONSOLE_API_KEY, stripped (None when unset or empty); UnusableKey when no
    header can carry it."""
    key = env.get(API_KEY_ENV, "").strip() or None
    if key is not None and not header_can_carry(key):
        raise UnusableKey(f"{API_KEY_ENV} is not usable: it {CANNOT_CARRY}. Set it again.")
    return key


def header_can_carry(key: str) -> bool:
    """Whether `key` (stripped) can be sent in a header, as the client checks it."""
    from console.client.headers import checked_key

    try:
        checked_key(key)
    except (TypeError, ValueError):
        return False
    return True


ADD_HINT = (
    "Add one with: tenant-console profile add NAME --base-url URL "
    f"(or set {BASE_URL_ENV} and {API_KEY_ENV} for this session)."
)


@dataclass(frozen=True)
class ResolvedConnection:
    """Where the console connects and with which key; the key never shows in repr()."""

    profile: str | None
    base_url: str
    key: str | None = field(repr=False)
    key_source: KeySource
    # Why there is no key (no keyring, keyring locked, nothing stored): a sentence to show.
    key_problem: str | None = None
    key_header: str = DEFAULT_KEY_HEADER
    """The header the key travels in: $TENANT_CONSOLE_KEY_HEADER, the profile's, or the default."""
    label: str | None = None
    color: str | None = None
    key_origin: str | None = None
    """Where the profile's key comes from when not the keyring ("$VAR", "the command `…`"):
    the console then never stores a key for it."""
    rate_limit: int | None = None
    """The profile's requests a minute (None: the default budget, 200)."""

    def budget(self) -> RequestBudget:
        """The request budget of this profile, for its client (console.client.budget)."""
        from console.client.budget import DEFAULT_PER_MINUTE, RequestBudget

        return RequestBudget(self.rate_limit or DEFAULT_PER_MINUTE)


def resolve_connection(
    profile_name: str | None = None,
    *,
    env: Mapping[str, str] = os.environ,
    path: Path | None = None,
    keyring_timeout: float | None = None,
) -> ResolvedConnection:
    """The connection for `profile_name`, else $TENANT_CONSOLE_PROFILE, else the active one.

    Raises ProfileError (ConfigError for a damaged file) with one clear line, UnusableKey
    for a $TENANT_CONSOLE_API_KEY no header can carry. A key that cannot come from the
    keyring (or that no header can carry) is reported in `key_problem`, not raised.
    """
    env_url = env.get(BASE_URL_ENV, "").strip() or None
    env_key = checked_env_key(env)
    env_header = env_key_header(env)
    if env_url is not None:
        try:
            env_url = normalize_base_url(env_url)
        except ProfileError as error:
            raise ProfileError(f"{BASE_URL_ENV} is not usable. {error}") from None
    if env_url and env_key:
        header = env_header or DEFAULT_KEY_HEADER
        return ResolvedConnection(None, env_url, env_key, "env", key_header=header)

    origin = ""
    name = profile_name
    if name is None:
        name = env.get(PROFILE_ENV, "").strip() or None
        origin = f" (from {PROFILE_ENV})" if name else ""

    profiles = ProfilesFile.load(path)
    if name is None:
        name = profiles.active
    if name is None:
        raise ProfileError(_no_profile_message(profiles, env_url, env_key))
    if name not in profiles.profiles:
        raise ProfileError(unknown_profile_message(name, profiles.profiles, origin))
    profile = profiles.profiles[name]
    base_url = env_url or profile.base_url
    header = env_header or profile.header
    tag: dict[str, Any] = {"label": profile.label, "color": profile.color, "key_header": header}
    tag["rate_limit"] = profile.rate_limit

    if env_key:
        return ResolvedConnection(
            profile=name, base_url=base_url, key=env_key, key_source="env", **tag
        )
    from console.profiles.keys import KeyStoreError, get_key

    if not profile.key_from_keyring:
        from console.profiles.key_source import describe_key_source, read_external_key

        source: KeySource = "variable" if profile.key_env else "command"
        tag["key_origin"] = describe_key_source(profile)
        try:
            key = read_external_key(profile, env=env, timeout=keyring_timeout)
        except KeyStoreError as error:
            return ResolvedConnection(name, base_url, None, "none", key_problem=str(error), **tag)
        return ResolvedConnection(name, base_url, key, source, **tag)
    try:
        key = get_key(name, timeout=keyring_timeout)
    except KeyStoreError as error:
        return ResolvedConnection(name, base_url, None, "none", key_problem=str(error), **tag)
    if key is None or not header_can_carry(key):
        problem = (
            f'No key is stored for profile "{name}".'
            if key is None
            else f'The key stored for profile "{name}" {CANNOT_CARRY}.'
        ) + (
            " Store one with: "
            f"tenant-console profile add {name} --base-url {profile.base_url} "
            f"(or set {API_KEY_ENV} for this session)."
        )
        return ResolvedConnection(name, base_url, None, "none", key_problem=problem, **tag)
    return ResolvedConnection(profile=name, base_url=base_url, key=key, key_source="keyring", **tag)


def connection_with_key(profile_name: str | None = None) -> ResolvedConnection:
    """resolve_connection for a command that needs the key: ProfileError (one sentence) when
    the profile's key cannot be had. Blocking, like resolve_connection."""
    connection = resolve_connection(profile_name)
    if connection.key is None:
        raise ProfileError(connection.key_problem or "No key for this profile.")
    return connection


def env_key_header(env: Mapping[str, str] = os.environ) -> str | None:
    """$TENANT_CONSOLE_KEY_HEADER, checked; ProfileError with one line if it cannot be one."""
    value = env.get(KEY_HEADER_ENV, "").strip()
    if not value:
        return None
    try:
        return checked_header_name(value)
    except ValueError as error:
        raise ProfileError(f"{KEY_HEADER_ENV} is not usable. {error}") from None


def check_profile(
    profile_name: str | None = None,
    *,
    env: Mapping[str, str] = os.environ,
    path: Path | None = None,
) -> None:
    """Fail fast, before any screen opens, on a named profile that does not exist.

    Reads only the profile file (no keyring): `tenant-console --profile NAME` can end with one
    line and a non-zero exit. No name (and no $TENANT_CONSOLE_PROFILE) is not an error here.
    UnusableKey when $TENANT_CONSOLE_API_KEY cannot be sent.
    """
    env_key = checked_env_key(env)
    if env.get(BASE_URL_ENV, "").strip() and env_key:
        return
    origin = ""
    name = profile_name
    if name is None:
        name = env.get(PROFILE_ENV, "").strip() or None
        origin = f" (from {PROFILE_ENV})" if name else ""
    profiles = ProfilesFile.load(path)
    if name is not None and name not in profiles.profiles:
        raise ProfileError(unknown_profile_message(name, profiles.profiles, origin))


def _no_profile_message(profiles: ProfilesFile, env_url: str | None, env_key: str | None) -> str:
    if env_url:
        return f"{BASE_URL_ENV} is set but {API_KEY_ENV} is not, and there is no profile. " + (
            "Set the key too, or pick a profile with --profile NAME."
        )
    if env_key:
        return f"{API_KEY_ENV} is set but {BASE_URL_ENV} is not, and there is no profile. " + (
            "Set the base URL too, or pick a profile with --profile NAME."
        )
    if profiles.profiles:
        known = ", ".join(sorted(profiles.profiles))
        return (
            f"No active profile. Pick one with: tenant-console profile use NAME "
            f"(known: {known}), or --profile NAME."
        )
    return f"No profile yet. {ADD_HINT}"
