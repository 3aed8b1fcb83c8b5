"""Where the console's connections come from: saved profiles, or one held in memory.

The app never touches the keyring or profiles file itself: it asks a ProfileSource, from a
thread worker, because keyring calls block.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol

from console.key_header import DEFAULT_KEY_HEADER


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

    def __repr__(self) -> str:
        return f"Connection(profile={self.profile!r}, base_url={self.base_url!r}, key=***)"

    @property
    def label(self) -> str:
        return self.profile or "(no profile)"


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


class MemoryProfiles:
    """Profiles held in memory only: the demo's, and tests'."""

    def __init__(self, connections: list[Connection], active: str | None = None) -> None:
        self._connections = {c.profile or "default": c for c in connections}
        self._active = active or next(iter(self._connections), None)

    def names(self) -> list[str]:
        return list(self._connections)

    def active(self) -> str | None:
        return self._active

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
            raise ProfileUnavailable(str(exc)) from None
        if name is not None and found.profile == name:
            self._use(name)
        problem = getattr(found, "key_problem", None)
        return Connection(
            found.profile,
            found.base_url,
            found.key,
            found.key_source,
            problem,
            key_header=found.key_header,
        )

    def _use(self, name: str) -> None:
        from console.profiles.config import ProfilesFile

        try:
            profiles = ProfilesFile.load()
            if profiles.active != name:
                profiles.use(name)
                profiles.save()
        except Exception:  # remembering the choice is a convenience, not a requirement
            pass

    def store_key(self, name: str, key: str) -> None:
        from console.profiles.keys import set_key

        try:
            set_key(name, key)
        except Exception as exc:
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
            raise ProfileUnavailable(str(exc)) from None
        return Connection(name, base_url, key, "keyring")
