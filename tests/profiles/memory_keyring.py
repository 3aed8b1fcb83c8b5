"""Keyring backends for tests only: never the user's real keyring.

`MemoryKeyring` keeps keys in a dict (in-process tests, via `keyring.set_keyring`).
`JsonFileTestKeyring` is for subprocess CLI tests, loaded through
PYTHON_KEYRING_BACKEND=memory_keyring.JsonFileTestKeyring with this directory on PYTHONPATH:
a subprocess needs storage that outlives it, so it keeps keys in the JSON file named by
$TENANT_CONSOLE_TEST_KEYRING_FILE (a temp file). It refuses to load without that variable.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from keyring.backend import KeyringBackend
from keyring.compat import properties
from keyring.errors import PasswordDeleteError

TEST_KEYRING_FILE_ENV = "TENANT_CONSOLE_TEST_KEYRING_FILE"


class MemoryKeyring(KeyringBackend):
    """Keys in a dict of (service, user) -> key."""

    # Class properties, as keyring declares them (a plain class attribute is the same at run
    # time, but not to pyright).
    @properties.classproperty
    def priority(cls) -> float:
        return 1

    @properties.classproperty
    def name(cls) -> str:
        return "in-memory test keyring"

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        try:
            del self.entries[(service, username)]
        except KeyError:
            raise PasswordDeleteError("No such password") from None


class JsonFileTestKeyring(KeyringBackend):
    """Keys in a JSON file of {service: {user: key}}, for subprocess tests only."""

    @properties.classproperty
    def name(cls) -> str:
        return "JSON-file test keyring"

    @classmethod
    def _path(cls) -> Path:
        path = os.environ.get(TEST_KEYRING_FILE_ENV)
        if not path:
            raise RuntimeError(f"{TEST_KEYRING_FILE_ENV} is not set: test keyring unavailable")
        return Path(path)

    @properties.classproperty
    def priority(cls) -> float:
        """keyring reads this to check viability: not viable outside of a test subprocess."""
        cls._path()
        return 1

    def _load(self) -> dict[str, dict[str, str]]:
        try:
            return json.loads(self._path().read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}

    def _store(self, data: dict[str, dict[str, str]]) -> None:
        self._path().write_text(json.dumps(data), encoding="utf-8")

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(service, {}).get(username)

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data.setdefault(service, {})[username] = password
        self._store(data)

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if username not in data.get(service, {}):
            raise PasswordDeleteError("No such password")
        del data[service][username]
        self._store(data)
