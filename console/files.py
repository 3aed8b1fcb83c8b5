"""Reading a file a person named (an icon, a code file), with errors they can act on;
writing one without replacing what this run did not create; and the console's own data
files, never reached through a link.

Used by the console and the command line alike (nothing here imports Textual)."""

from __future__ import annotations

import os
import stat
from pathlib import Path


def read_small_file(path: Path, max_bytes: int, error: type[Exception]) -> bytes:
    """The file's bytes; `error(sentence)` if it is missing, not a regular file (a folder, a
    device such as /dev/zero, a pipe), unreadable or too big.

    Opened without blocking (a pipe with no writer would hang an open) and checked on the open
    file itself; at most `max_bytes` + 1 bytes are read, so a file that grows meanwhile is
    refused as too big, never read whole."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise error(f"There is no file at {path}.") from None
    except IsADirectoryError:
        raise error(f"{path} is a folder, not a file.") from None
    except PermissionError:
        raise error(f"No permission to read {path}.") from None
    except OSError as problem:
        raise error(f"Could not read {path}: {problem.strerror or problem}.") from None
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise error(f"{path} is a folder, not a file.")
        if not stat.S_ISREG(status.st_mode):
            raise error(f"{path} is not a regular file (a device, a pipe or a socket).")
        limit = f"files over {max_bytes:,} bytes are refused"
        if status.st_size > max_bytes:
            raise error(f"{path.name} is {status.st_size:,} bytes; {limit}.")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise error(f"{path.name} is over {max_bytes:,} bytes; {limit}.")
        return data
    except OSError as problem:
        raise error(f"Could not read {path}: {problem.strerror or problem}.") from None
    finally:
        os.close(fd)


def read_text_file(path: Path, max_bytes: int, error: type[Exception]) -> str:
    """The file's UTF-8 text (a BOM dropped); `error(sentence)` as read_small_file, or when
    it is not UTF-8."""
    data = read_small_file(path, max_bytes, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise error(f"{path} is not UTF-8 text (invalid byte at offset {problem.start}).") from None


# ---- files a person named, written ----------------------------------------------------------


def already_exists(path: Path | str) -> str:
    """The one sentence a command says when it refuses to replace a file it did not create."""
    return (
        f"{path} already exists; it is left as it is. Name a new file, or pass --force to "
        "replace it. Nothing was written."
    )


def create_file(
    path: Path, data: str | bytes, *, force: bool = False, private: bool = False
) -> None:
    """Writes `data` (text as UTF-8) to a file at `path` that this call creates.

    Something already at `path` (a file, a link, a pipe) raises FileExistsError and is left
    exactly as it was: no command replaces a file it did not create in this run. `force`
    replaces it instead, atomically (a temporary file renamed over it), so a link or a pipe
    there is replaced, never followed or written into. `private`: mode 0600 (secrets);
    otherwise the umask decides. A write that fails leaves no partial file behind."""
    path = path.expanduser()
    content = data.encode("utf-8") if isinstance(data, str) else data
    if force:
        _replace(path, content, 0o600 if private else 0o666 & ~_umask())
        return
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags, 0o600 if private else 0o666)
    try:
        _write_durably(fd, content)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def _replace(path: Path, content: bytes, mode: int) -> None:
    """`content` at `path` through a temporary file in the same folder, renamed over it."""
    import tempfile

    folder = path.parent if str(path.parent) else Path(".")
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=folder)
    try:
        os.fchmod(fd, mode)
        _write_durably(fd, content)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _write_durably(fd: int, content: bytes) -> None:
    """Writes `content` to `fd`, on disk before it is closed: a new key written to a file
    must survive a crash right after the command said where it is."""
    with os.fdopen(fd, "wb") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    current = os.umask(0o022)
    os.umask(current)
    return current


# ---- the console's own data files ----------------------------------------------------------

SQLITE_SIDE_FILES = ("-journal", "-wal", "-shm")
"""Files SQLite keeps beside a database, which it would open through a link too."""


class UnsafeFileError(OSError):
    """A file the console keeps its own data in is not safely its own; str() is one line for
    a person, naming the file."""


def private_file(path: Path, what: str, *, create: bool = True) -> os.stat_result | None:
    """Makes sure `path` (the console's `what`: "journal", "local index"...) is its own before
    SQLite opens it: reached without a symbolic link (opened with O_NOFOLLOW), a regular file
    owned by this user and writable by no one else; created 0600 when missing (None when
    missing and not `create`). Group or world read access is taken away; anything else is
    refused with UnsafeFileError, the file and the link's target left as they are.

    Its status is returned, for `still_same_file` once SQLite has opened the path."""
    for suffix in SQLITE_SIDE_FILES:
        side = path.with_name(path.name + suffix)
        if side.is_symlink():
            raise UnsafeFileError(
                f"{side} is a symbolic link: the {what} is never opened through one. Nothing "
                "was read or written; remove the link."
            )
    flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    flags |= getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags | (os.O_CREAT if create else 0), 0o600)
    except FileNotFoundError:
        if create:
            raise
        return None
    except OSError as problem:
        if path.is_symlink():  # ELOOP (Linux) or EMLINK (FreeBSD) for O_NOFOLLOW
            raise UnsafeFileError(
                f"{path} is a symbolic link: the {what} is never opened through one. Nothing "
                "was read or written; remove the link to let the console make the file again."
            ) from None
        raise UnsafeFileError(
            f"Cannot open the {what} {path}: {problem.strerror or problem}."
        ) from None
    try:
        status = os.fstat(fd)
        _refuse_unsafe(path, what, status)
        if stat.S_IMODE(status.st_mode) & 0o077 and hasattr(os, "fchmod"):
            os.fchmod(fd, 0o600)  # readable by others: made private, as it was always meant
            status = os.fstat(fd)
        return status
    finally:
        os.close(fd)


def _refuse_unsafe(path: Path, what: str, status: os.stat_result) -> None:
    if not stat.S_ISREG(status.st_mode):
        raise UnsafeFileError(f"{path} is not a regular file: the {what} cannot be kept in it.")
    getuid = getattr(os, "getuid", None)
    if getuid is not None and status.st_uid != getuid():
        raise UnsafeFileError(
            f"{path} belongs to another user (uid {status.st_uid}): the {what} must be your own "
            "file. Nothing was read or written."
        )
    mode = stat.S_IMODE(status.st_mode)
    if mode & 0o022:
        raise UnsafeFileError(
            f"{path} can be written by other users (mode {mode:04o}): the {what} must be "
            f"writable by you only. Nothing was read or written; run chmod 600 {path}."
        )


def still_same_file(path: Path, what: str, status: os.stat_result) -> None:
    """After SQLite opened `path` by name: it is still the file `private_file` checked (not
    swapped for a link or another file in between); UnsafeFileError if not."""
    try:
        now = os.lstat(path)
    except OSError as problem:
        raise UnsafeFileError(
            f"Cannot open the {what} {path}: {problem.strerror or problem}."
        ) from None
    if (now.st_dev, now.st_ino) != (status.st_dev, status.st_ino):
        raise UnsafeFileError(
            f"{path} was replaced while the console opened it: the {what} was not used."
        )
