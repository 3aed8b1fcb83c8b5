"""Where the console's connections come from: saved profiles, or one held in memory.

The app never touches the keyring or profiles file itself: it asks a ProfileSource, from a
thread worker, because keyring calls block.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from console import kinds
from console.models.contract import DEFAULT_KEY_HEADER

if TYPE_CHECKING:
    from console.client.client import AdminClient

log = logging.getLogger(__name__)


async def close_quietly(client: AdminClient | None) -> None:
    """Closes a client that is done with (a replaced session's, another profile's after a
    promotion): a failure there is logged, never raised, as it may never have been used."""
    if client is not None:
        try:
            await client.aclose()
        except Exception:
            log.info("Closing a client failed", exc_info=True)


@dataclass(frozen=True)
class Connection:
    """One tenant to talk to: a profile name (or None), the service URL and its API key."""

    profile: str | None
    base_url: str
    key: str | None = field(repr=False)
    key_source: str = "memory"
    problem: str | None = None
    """Why there is no key (nothing stored, keyring unusable): a sentence to show."""
    display_url: str | None = None
    """What the header shows instead of base_url (screenshots: one URL whatever the port)."""
    key_header: str = DEFAULT_KEY_HEADER
    """The header the key travels in (a profile setting)."""
    badge: str | None = None
    """The profile's label (e.g. PROD), shown in the header in `color`."""
    color: str | None = None
    key_origin: str | None = None
    """Where the profile's key comes from when not the keyring ("$VAR", "the command `…`"):
    a key typed in the console is then used for this session only, never stored."""
    rate_limit: int | None = None
    """The profile's requests a minute; None: the default budget (200)."""

    def __repr__(self) -> str:
        return f"Connection(profile={self.profile!r}, base_url={self.base_url!r}, key=***)"

    @property
    def label(self) -> str:
        return self.profile or "(no profile)"


@dataclass(frozen=True)
class ProfileSummary:
    """What the profile picker shows of one profile, without touching the keyring."""

    name: str
    base_url: str
    tenant_name: str | None = None
    badge: str | None = None
    color: str | None = None


class ProfileUnavailable(Exception):
    """A profile cannot be used; the message is one sentence for a person."""


class ProfileSource(Protocol):
    """The profiles the console may switch between. Every method may block: call in a thread."""

    def names(self) -> list[str]: ...

    def active(self) -> str | None: ...

    def resolve(self, name: str | None) -> Connection:
        """The connection of the named (or active) profile; ProfileUnavailable otherwise."""
        ...

    def store_key(self, name: str, key: str) -> None: ...

    def add(self, name: str, base_url: str, key: str) -> Connection:
        """Saves a new profile with its key and makes it the active one."""
        ...

    def summaries(self) -> list[ProfileSummary]: ...

    def keyring_problem(self) -> str | None:
        """Why a key cannot be stored here (no usable keyring), or None."""
        ...

    def make_default(self, name: str) -> None:
        """The profile `tenant-console` opens on from now on."""
        ...

    def remember_tenant(self, name: str, tenant_name: str) -> None:
        """Keeps the tenant's name with the profile, for the picker."""
        ...


class MemoryProfiles:
    """Profiles held in memory only: the demo's, and tests'."""

    def __init__(self, connections: list[Connection], active: str | None = None) -> None:
        self._connections = {c.profile or "default": c for c in connections}
        self._active = active or next(iter(self._connections), None)
        self.default = self._active
        self._tenants: dict[str, str] = {}

    def names(self) -> list[str]:
        return list(self._connections)

    def active(self) -> str | None:
        return self.default

    def resolve(self, name: str | None) -> Connection:
        name = name or self._active
        if name is None or name not in self._connections:
            raise ProfileUnavailable(f"There is no profile named {name!r}.")
        self._active = name
        return self._connections[name]

    def store_key(self, name: str, key: str) -> None:
        old = self._connections[name]
        self._connections[name] = replace(old, key=key, key_source="memory", problem=None)

    def add(self, name: str, base_url: str, key: str) -> Connection:
        connection = Connection(name, base_url, key, "memory")
        self._connections[name] = connection
        self._active = name
        return connection

    def summaries(self) -> list[ProfileSummary]:
        return [
            ProfileSummary(name, c.base_url, self._tenants.get(name), c.badge, c.color)
            for name, c in self._connections.items()
        ]

    def keyring_problem(self) -> str | None:
        return None  # keys are held in memory anyway

    def make_default(self, name: str) -> None:
        self.resolve(name)
        self.default = name

    def remember_tenant(self, name: str, tenant_name: str) -> None:
        self._tenants[name] = tenant_name


class SavedProfiles:
    """The profiles file and the OS keyring (console.profiles), imported on first use."""

    def names(self) -> list[str]:
        from console.profiles.config import ProfilesFile

        return list(ProfilesFile.load().profiles)

    def active(self) -> str | None:
        from console.profiles.config import ProfilesFile

        return ProfilesFile.load().active

    def resolve(self, name: str | None) -> Connection:
        from console.profiles.resolve import resolve_connection

        try:
            found = resolve_connection(name)
        except Exception as exc:  # ProfileError, ConfigError, NoKeyring: one clear line each
            log.warning("The profile could not be resolved", exc_info=True)
            raise ProfileUnavailable(str(exc)) from None
        # Switching inside the console leaves the saved active profile alone (make_default).
        return Connection(
            found.profile,
            found.base_url,
            found.key,
            found.key_source,
            found.key_problem,
            key_header=found.key_header,
            badge=found.label,
            color=found.color,
            key_origin=found.key_origin,
            rate_limit=found.rate_limit,
        )

    def summaries(self) -> list[ProfileSummary]:
        from console.profiles.config import ProfilesFile

        return [
            ProfileSummary(p.name, p.base_url, p.tenant_name, p.label, p.color)
            for p in ProfilesFile.load().profiles.values()
        ]

    def keyring_problem(self) -> str | None:
        from console.profiles.keys import keyring_problem

        return keyring_problem()

    def make_default(self, name: str) -> None:
        from console.profiles.config import ProfilesFile

        try:
            profiles = ProfilesFile.load()
            profiles.use(name)
            profiles.save()
        except Exception as exc:
            log.warning("The profile could not be changed", exc_info=True)
            raise ProfileUnavailable(str(exc)) from None

    def remember_tenant(self, name: str, tenant_name: str) -> None:
        from dataclasses import replace

        from console.profiles.config import ProfilesFile

        profiles = ProfilesFile.load()
        profile = profiles.profiles.get(name)
        if profile is None or profile.tenant_name == tenant_name:
            return
        profiles.profiles[name] = replace(profile, tenant_name=tenant_name)
        profiles.save()

    def store_key(self, name: str, key: str) -> None:
        from console.profiles.config import ProfilesFile
        from console.profiles.key_source import describe_key_source
        from console.profiles.keys import set_key

        profile = ProfilesFile.load().profiles.get(name)
        if profile is not None and not profile.key_from_keyring:
            origin = describe_key_source(profile)
            raise ProfileUnavailable(
                f"Profile {name} takes its key from {origin}, so no key is stored for it: "
                "put the new key there."
            )
        try:
            set_key(name, key)
        except Exception as exc:
            log.warning("The profile could not be changed", exc_info=True)
            raise ProfileUnavailable(str(exc)) from None

    def add(self, name: str, base_url: str, key: str) -> Connection:
        from console.profiles.config import Profile, ProfilesFile
        from console.profiles.keys import set_key

        try:
            set_key(name, key)
            profiles = ProfilesFile.load()
            profiles.add(Profile(name=name, base_url=base_url))
            profiles.use(name)
            profiles.save()
        except Exception as exc:
            log.warning("The profile could not be added", exc_info=True)
            raise ProfileUnavailable(str(exc)) from None
        return Connection(name, base_url, key, "keyring")


async def check_key(base_url: str, key: str, key_header: str = DEFAULT_KEY_HEADER) -> str:
    """Asks the service whose key this is (as `profile add` does); a short description, or
    the client's ApiError (Unauthorized for a rejected key). One quick retry: a person waits."""
    from console.client import RetryPolicy
    from console.profiles.verify import verify_key

    retry = RetryPolicy(max_attempts=2, base_delay=0.3, max_total_wait=1.0)
    info = await verify_key(base_url, key, retry=retry, key_header=key_header)
    name = info.application_name or "an application it may not read"
    tenant = f", tenant {info.tenant_name}" if info.tenant_name else ""
    return f"{kinds.APPLICATIONS.nouns.singular} {name}{tenant}"


def key_check_failure(exc: BaseException) -> str:
    """One sentence for a key that could not be used: rejected, or not checked at all."""
    from console.tui.base.problems import describe

    problem = describe(exc)
    if problem.unauthorized:
        return "The service rejected this key (401). Nothing was stored: check it and try again."
    return (
        f"{problem.title}: {problem.message} The key could not be checked, so nothing was stored."
    )


async def probe_keyring(profiles: ProfileSource) -> str | None:
    """Why no key can be stored here (a sentence), or None: asked off the UI thread, since a
    keyring call may block; a failure to ask counts as no keyring."""
    import asyncio  # not at module level: the early start (begin) comes before it loads

    try:
        return await asyncio.to_thread(profiles.keyring_problem)
    except Exception as exc:
        log.warning("The keyring could not be checked", exc_info=True)
        return str(exc)
