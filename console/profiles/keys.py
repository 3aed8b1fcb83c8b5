"""API keys in the OS keyring: service "tenant-console", user = profile name.

Every call is blocking and runs in a worker thread with a deadline, because a locked keyring
can hang; the console calls these functions off its UI thread. A backend that cannot keep a
secret (fail, null, plaintext, an empty chainer) is refused with one clear message: no key is
ever written in plain text and nothing silently falls back.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

SERVICE = "tenant-console"
API_KEY_ENV = "TENANT_CONSOLE_API_KEY"
TIMEOUT_ENV = "TENANT_CONSOLE_KEYRING_TIMEOUT"
DEFAULT_TIMEOUT = 20.0

# Backends that keep secrets readable by anyone who can read a file (keyrings.alt and alike).
PLAINTEXT_BACKENDS = {
    "keyrings.alt.file.PlaintextKeyring",
    "keyrings.alt.pyfs.PlaintextKeyring",
}

T = TypeVar("T")


class KeyStoreError(Exception):
    """A keyring problem; str() is one sentence for a person (never containing a key)."""


class NoKeyring(KeyStoreError):
    """There is no usable keyring on this machine (or it is locked)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(str(self))

    def __str__(self) -> str:
        return (
            f"No usable OS keyring: {self.reason}. API keys are never written in plain text, "
            "so either install or unlock a keyring backend (GNOME Keyring or KWallet through "
            "the Secret Service, the macOS Keychain, the Windows Credential Locker), "
            f"or set {API_KEY_ENV} for this session "
            "(with TENANT_CONSOLE_BASE_URL too, no profile is needed)."
        )


class KeyringTimeout(KeyStoreError):
    """The keyring did not answer in time; it is probably locked and waiting for a password."""

    def __init__(self, action: str, timeout: float) -> None:
        self.action = action
        self.timeout = timeout
        super().__init__(
            f"The OS keyring did not answer within {timeout:g} seconds while trying to "
            f"{action} (is it locked and waiting for a password?). Unlock it and try again, "
            f"or set {API_KEY_ENV} for this session."
        )


class KeyringFailure(KeyStoreError):
    """The keyring backend is there but failed the operation."""


def keyring_timeout() -> float:
    """Seconds to wait for the keyring: $TENANT_CONSOLE_KEYRING_TIMEOUT, else 20."""
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    try:
        value = float(raw) if raw else DEFAULT_TIMEOUT
    except ValueError:
        return DEFAULT_TIMEOUT
    return value if value > 0 else DEFAULT_TIMEOUT


def get_key(name: str, *, timeout: float | None = None) -> str | None:
    """The key stored for profile `name`, or None. Raises NoKeyring, KeyringTimeout, ..."""

    def read() -> str | None:
        backend = _usable_backend()
        return backend.get_password(SERVICE, name) or None

    return _run(read, "read the key", timeout)


def set_key(name: str, key: str, *, timeout: float | None = None) -> None:
    """Store the key of profile `name`, replacing any previous one, and check it is there."""
    if not key or key != key.strip() or any(ord(ch) < 32 for ch in key):
        raise ValueError("An API key must be non-empty, without spaces around or control chars.")

    def write() -> None:
        backend = _usable_backend()
        backend.set_password(SERVICE, name, key)
        if backend.get_password(SERVICE, name) != key:
            raise KeyringFailure(
                "The OS keyring accepted the key but does not give it back; it was not stored."
            )

    _run(write, "store the key", timeout, secret=key)


def console_secret(
    service: str, name: str, make: Callable[[], str], *, timeout: float | None = None
) -> str:
    """A secret of the console's own (not a profile's key) kept under `service`/`name`: the
    one stored, else `make()`'s, stored and read back first. Raises NoKeyring, ..."""

    def read_or_make() -> str:
        backend = _usable_backend()
        found = backend.get_password(service, name)
        if found:
            return str(found)
        secret = make()
        backend.set_password(service, name, secret)
        if backend.get_password(service, name) != secret:
            raise KeyringFailure(
                "The OS keyring accepted a secret but does not give it back; it was not stored."
            )
        return secret

    return _run(read_or_make, "read the console's own secret", timeout)


def delete_key(name: str, *, timeout: float | None = None) -> bool:
    """Remove the key of profile `name`; False if there was none."""

    def delete() -> bool:
        from keyring.errors import PasswordDeleteError

        backend = _usable_backend()
        if backend.get_password(SERVICE, name) is None:
            return False
        try:
            backend.delete_password(SERVICE, name)
        except PasswordDeleteError:
            return False
        return True

    return _run(delete, "remove the key", timeout)


def keyring_problem(*, timeout: float | None = None) -> str | None:
    """None when a real keyring backend is there and answers, else the one message to show.

    It reads a probe entry, so a locked keyring gets the chance to ask for its password now.
    """

    def probe() -> None:
        _usable_backend().get_password(SERVICE, "")

    try:
        _run(probe, "open the keyring", timeout)
    except KeyStoreError as error:
        return str(error)
    return None


def backend_name(*, timeout: float | None = None) -> str:
    """The display name of the keyring backend in use (e.g. "SecretService Keyring")."""

    def name() -> str:
        return _display_name(_usable_backend())

    return _run(name, "open the keyring", timeout)


def _display_name(backend: Any) -> str:
    from keyring.backends.chainer import ChainerBackend

    if isinstance(backend, ChainerBackend):
        behind = list(backend.backends)
        if behind:
            return _display_name(behind[0])
    try:
        return str(backend.name)
    except Exception:
        return type(backend).__name__


def _usable_backend() -> Any:
    """The keyring backend in use, or NoKeyring saying why it cannot keep a secret."""
    import keyring

    backend = keyring.get_keyring()
    problem = backend_problem(backend)
    if problem:
        raise NoKeyring(problem)
    return backend


def backend_problem(backend: Any) -> str | None:
    """Why this backend cannot hold a key safely, or None if it can."""
    from keyring.backends import chainer, fail, null

    qualified = f"{type(backend).__module__}.{type(backend).__qualname__}"
    if isinstance(backend, fail.Keyring):
        return "no keyring backend was found"
    if isinstance(backend, null.Keyring):
        return "the null keyring backend is configured, which discards keys"
    if qualified in PLAINTEXT_BACKENDS or "plaintext" in qualified.lower():
        return f"the configured keyring backend ({qualified}) stores keys in plain text"
    if isinstance(backend, chainer.ChainerBackend):
        behind = list(backend.backends)
        if not behind:
            return "no keyring backend was found (the chainer has no backend behind it)"
        # set_password goes to the first backend of the chain: that one must be safe.
        return backend_problem(behind[0])
    return None


def _run(action: Callable[[], T], what: str, timeout: float | None, secret: str = "") -> T:
    """Run `action` in a daemon thread and wait at most `timeout` seconds for it.

    A daemon thread (not an executor, whose threads are joined at exit) so that a keyring
    that never answers cannot keep the process alive.
    """
    deadline = keyring_timeout() if timeout is None else timeout
    outcome: dict[str, Any] = {}
    done = threading.Event()

    def work() -> None:
        try:
            outcome["value"] = action()
        except BaseException as error:
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=work, name=f"keyring: {what}", daemon=True).start()
    if not done.wait(deadline):
        raise KeyringTimeout(what, deadline)
    error = outcome.get("error")
    if error is None:
        return outcome["value"]
    raise _translate(error, what, secret) from None


def _translate(error: BaseException, what: str, secret: str) -> BaseException:
    """Turn the backend's exception into one of ours, with a sentence and no key in it."""
    from keyring import errors

    if isinstance(error, KeyStoreError) or not isinstance(error, Exception):
        return error
    if isinstance(error, errors.NoKeyringError):
        return NoKeyring("no keyring backend was found")
    if isinstance(error, errors.KeyringLocked):
        return NoKeyring("the keyring is locked")
    if isinstance(error, errors.InitError):
        return NoKeyring(f"the keyring backend could not start ({_scrub(error, secret)})")
    return KeyringFailure(f"The OS keyring failed to {what}: {_scrub(error, secret)}.")


def _scrub(error: BaseException, secret: str) -> str:
    text = str(error).strip().rstrip(".") or type(error).__name__
    if secret:
        text = text.replace(secret, "****")
    return text
