"""Reading a file a person named (an icon, a code file), with errors they can act on, and
writing one without replacing what this run did not create.

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
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
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
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask (read by setting it and putting it back)."""
    current = os.umask(0o022)
    os.umask(current)
    return current
