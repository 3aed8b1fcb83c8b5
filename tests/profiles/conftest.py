"""Every profiles test runs on a temp config dir and an in-memory keyring, never the user's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import keyring.core
import pytest
from cli_sandbox import CliSandbox
from private_profiles import config_dir, memory_keyring  # noqa: F401  (autouse fixtures)


@pytest.fixture
def use_keyring(monkeypatch: pytest.MonkeyPatch) -> Callable[[object], None]:
    """Switch the in-process keyring backend (fail, null, plaintext, chainer ...)."""

    def use(backend: object) -> None:
        monkeypatch.setattr(keyring.core, "_keyring_backend", backend)

    return use


@pytest.fixture
def sandbox(tmp_path: Path, config_dir: Path) -> CliSandbox:  # noqa: F811 (the fixture)
    (tmp_path / "home").mkdir()
    return CliSandbox(root=tmp_path, config_dir=config_dir, keyring_file=tmp_path / "keyring.json")
