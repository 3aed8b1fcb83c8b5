"""Keys in the keyring: storage, refusal of unusable backends, timeouts, clear errors."""

from __future__ import annotations

import threading
import time

import pytest
from keyring.backend import KeyringBackend
from keyring.backends import chainer, fail, null
from keyring.errors import KeyringLocked, PasswordSetError
from memory_keyring import MemoryKeyring

from console.profiles import keys
from console.profiles.keys import (
    KeyringFailure,
    KeyringTimeout,
    NoKeyring,
    backend_name,
    delete_key,
    get_key,
    keyring_problem,
    set_key,
)

KEY = "k3y-0123456789abcdef0123456789abcdef"


class PlaintextKeyring(MemoryKeyring):
    """Looks like keyrings.alt's plaintext file backend, as far as detection goes."""


PlaintextKeyring.__module__ = "keyrings.alt.file"


class HangingKeyring(KeyringBackend):
    """A locked keyring waiting for a password that never comes (until `release`)."""

    priority = 1

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def get_password(self, service, username):
        self.release.wait(30)

    set_password = delete_password = get_password


class BrokenKeyring(MemoryKeyring):
    """A backend that fails to write, with the key in its error (some do)."""

    def set_password(self, service, username, password):
        raise PasswordSetError(f"cannot store {password} for {username}")


class LockedKeyring(MemoryKeyring):
    def get_password(self, service, username):
        raise KeyringLocked("Failed to unlock the keyring!")


def test_keys_are_stored_under_the_service_and_profile_name(memory_keyring) -> None:
    assert keyring_problem() is None
    assert get_key("prod") is None
    set_key("prod", KEY)
    assert memory_keyring.entries == {("tenant-console", "prod"): KEY}
    assert get_key("prod") == KEY
    set_key("prod", KEY + "2")
    assert get_key("prod") == KEY + "2"
    assert delete_key("prod") is True
    assert delete_key("prod") is False
    assert memory_keyring.entries == {}


def test_backend_name_is_for_people() -> None:
    assert backend_name() == "in-memory test keyring"


@pytest.mark.parametrize(
    ("backend", "reason"),
    [
        (fail.Keyring(), "no keyring backend was found"),
        (null.Keyring(), "null keyring backend"),
        (PlaintextKeyring(), "keyrings.alt.file.PlaintextKeyring) stores keys in plain text"),
    ],
)
def test_unusable_backends_are_refused(use_keyring, backend, reason: str) -> None:
    use_keyring(backend)
    problem = keyring_problem()
    assert problem is not None
    assert reason in problem
    assert "install or unlock a keyring backend" in problem
    assert "TENANT_CONSOLE_API_KEY" in problem
    for call in (lambda: get_key("prod"), lambda: set_key("prod", KEY), lambda: delete_key("p")):
        with pytest.raises(NoKeyring) as caught:
            call()
        assert str(caught.value) == problem
    if isinstance(backend, MemoryKeyring):
        assert backend.entries == {}, "nothing was written to the plaintext backend"


def test_chainer_with_nothing_behind_it_is_refused(use_keyring, monkeypatch) -> None:
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [])
    use_keyring(chainer.ChainerBackend())
    assert "the chainer has no backend behind it" in keyring_problem()
    with pytest.raises(NoKeyring):
        set_key("prod", KEY)


def test_chainer_is_judged_by_its_first_backend(use_keyring, monkeypatch) -> None:
    real, plain = MemoryKeyring(), PlaintextKeyring()
    monkeypatch.setattr(chainer.ChainerBackend, "backends", [real, plain])
    use_keyring(chainer.ChainerBackend())
    assert keyring_problem() is None
    set_key("prod", KEY)
    assert real.entries and not plain.entries
    assert backend_name() == "in-memory test keyring"

    monkeypatch.setattr(chainer.ChainerBackend, "backends", [plain, real])
    assert "plain text" in keyring_problem()


def test_a_hanging_keyring_times_out(use_keyring) -> None:
    backend = HangingKeyring()
    use_keyring(backend)
    try:
        started = time.monotonic()
        with pytest.raises(KeyringTimeout) as caught:
            get_key("prod", timeout=0.2)
        assert time.monotonic() - started < 5
        assert "did not answer within 0.2 seconds" in str(caught.value)
        assert "TENANT_CONSOLE_API_KEY" in str(caught.value)
        assert "did not answer" in keyring_problem(timeout=0.2)
    finally:
        backend.release.set()


def test_timeout_comes_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("TENANT_CONSOLE_KEYRING_TIMEOUT", "3.5")
    assert keys.keyring_timeout() == 3.5
    monkeypatch.setenv("TENANT_CONSOLE_KEYRING_TIMEOUT", "soon")
    assert keys.keyring_timeout() == keys.DEFAULT_TIMEOUT


def test_backend_errors_become_clear_sentences_without_the_key(use_keyring) -> None:
    use_keyring(BrokenKeyring())
    with pytest.raises(KeyringFailure) as caught:
        set_key("prod", KEY)
    assert str(caught.value).startswith("The OS keyring failed to store the key: cannot store")
    assert KEY not in str(caught.value)
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_a_locked_keyring_names_the_ways_out(use_keyring) -> None:
    use_keyring(LockedKeyring())
    with pytest.raises(NoKeyring, match=r"the keyring is locked.*unlock a keyring backend"):
        get_key("prod")


@pytest.mark.parametrize("bad", ["", " padded ", "two\nlines"])
def test_obviously_broken_keys_are_not_stored(memory_keyring, bad: str) -> None:
    with pytest.raises(ValueError):
        set_key("prod", bad)
    assert memory_keyring.entries == {}


def test_importing_the_module_does_not_import_keyring() -> None:
    import subprocess
    import sys

    code = (
        "import sys, console.profiles.keys, console.profiles.resolve, console.profiles.cli; "
        "print('keyring' in sys.modules, 'httpx' in sys.modules, 'textual' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False False"
