"""The fixtures that keep a test off the user's profiles: a temp config dir, no
TENANT_CONSOLE_* from the developer's shell, and an in-memory keyring. The profiles and estate
suites' conftests import them (autouse there)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import keyring.core
import pytest
from memory_keyring import MemoryKeyring

ENV_VARS = (
    "TENANT_CONSOLE_PROFILE",
    "TENANT_CONSOLE_BASE_URL",
    "TENANT_CONSOLE_API_KEY",
    "TENANT_CONSOLE_KEY_HEADER",
    "TENANT_CONSOLE_KEYRING_TIMEOUT",
    "PYTHON_KEYRING_BACKEND",
)


@pytest.fixture(autouse=True)
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A config dir that does not exist yet, and no TENANT_CONSOLE_* from the developer's shell."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    directory = tmp_path / "config" / "tenant-console"
    monkeypatch.setenv("TENANT_CONSOLE_CONFIG_DIR", str(directory))
    return directory


@pytest.fixture(autouse=True)
def memory_keyring(monkeypatch: pytest.MonkeyPatch) -> MemoryKeyring:
    """The keyring backend every in-process test uses (restored after the test)."""
    backend = MemoryKeyring()
    monkeypatch.setattr(keyring.core, "_keyring_backend", backend)
    return backend


@pytest.fixture(name="add_profile")
def add_profile_fixture() -> Callable[[str, str, str], None]:
    """Saves a profile and its key (in the test keyring) without asking the service."""
    from console.profiles.config import Profile, ProfilesFile
    from console.profiles.keys import set_key

    def add(name: str, base_url: str, key: str) -> None:
        profiles = ProfilesFile.load()
        profiles.add(Profile(name, base_url))
        if profiles.active is None:
            profiles.use(name)
        profiles.save()
        set_key(name, key)

    return add
