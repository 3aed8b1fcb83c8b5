"""The local service's webhook signing key: one RSA key pair per data dir.

Made on first need (generating it takes about 100 ms: never when the service starts, nor
when a module is imported), kept in the data dir as a PEM file of mode 0600 that is never
read or written through a symbolic link, and loaded with console.webhooks.signing. The
public half is what `GET /keys/webhooks.v1.key` serves, as the hosted service's CDN serves
its own.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.rsa import RSAPrivateKey

KEY_FILE = "webhook-signing-key.pem"
MAX_KEY_BYTES = 64 * 1024


class SigningKeyError(RuntimeError):
    """The key file is not safely the service's own, or not a key; str() is one sentence."""


class SigningKey:
    """The key pair of one data dir, made or read once, then kept in memory (thread-safe)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / KEY_FILE
        self._lock = threading.Lock()
        self._key: RSAPrivateKey | None = None
        self._public: str | None = None

    def private(self) -> RSAPrivateKey:
        """The private key, read from its file or made and written there first."""
        with self._lock:
            if self._key is None:
                self._key = _read(self.path) or _make(self.path)
            return self._key

    def public_pem(self) -> str:
        """The public key as PEM (SubjectPublicKeyInfo), what receivers verify with."""
        from console.webhooks.signing import public_key_pem

        key = self.private()
        with self._lock:
            if self._public is None:
                self._public = public_key_pem(key)
            return self._public


def _read(path: Path) -> RSAPrivateKey | None:
    """The key in `path`, None if there is no file; SigningKeyError for a link, a file that
    is not a regular one of this user's, one others may read or write, or not a key."""
    from console.webhooks.signing import load_private_key

    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    flags |= getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as problem:
        if path.is_symlink() or problem.errno in (errno.ELOOP, errno.EMLINK):
            raise SigningKeyError(
                f"{path} is a symbolic link: the webhook signing key is never read through "
                "one. Remove the link to let the service make its key again."
            ) from None
        raise SigningKeyError(f"Cannot read the webhook signing key {path}: {problem}.") from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise SigningKeyError(f"{path} is not a regular file: it cannot hold the signing key.")
        getuid = getattr(os, "getuid", None)
        if getuid is not None and status.st_uid != getuid():
            raise SigningKeyError(f"{path} belongs to another user: the signing key is not used.")
        if os.name == "posix" and stat.S_IMODE(status.st_mode) & 0o077:
            mode = stat.S_IMODE(status.st_mode)
            raise SigningKeyError(
                f"{path} is open to other users (mode {mode:04o}): the signing key must be "
                f"private. Run chmod 600 {path}, or remove the file to make a new key."
            )
        data = os.read(fd, MAX_KEY_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > MAX_KEY_BYTES:
        raise SigningKeyError(f"{path} is too large to be the webhook signing key.")
    try:
        return load_private_key(data)
    except (ValueError, TypeError) as problem:
        raise SigningKeyError(f"{path} does not hold an RSA private key: {problem}.") from None


def _make(path: Path) -> RSAPrivateKey:
    """A new key written to `path`: to a private temporary file first, then linked into
    place, so the file appears whole or not at all and never replaces anything there (a
    link made meanwhile is refused by the read that follows)."""
    from console.webhooks.signing import new_private_key, private_key_pem

    key = new_private_key()
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(private_key_pem(key))
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temporary, path, follow_symlinks=False)
        except FileExistsError:
            pass  # another process made it first (or something is there): read what is there
        else:
            return key
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
    existing = _read(path)
    if existing is None:
        raise SigningKeyError(f"Cannot make the webhook signing key {path}.")
    return existing
