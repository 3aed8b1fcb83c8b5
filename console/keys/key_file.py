"""A new key written to a file that only its owner can read (0600), never to a terminal."""

from __future__ import annotations

from pathlib import Path

from console.files import create_file


class KeyFileError(Exception):
    """The key file cannot be written; str() is one sentence a person can act on."""


class KeyFileExists(KeyFileError):
    """Something is already at the key file's path, and it is not replaced."""


def write_key_file(path: Path, key: str, *, force: bool = True) -> Path:
    """Writes `key` (and a newline) to `path`, mode 0600 from the first byte, on disk before
    this returns. With `force` (the console's file prompt asks before replacing) what is
    there is replaced atomically: a reader sees the old file or the whole new key, never
    half of it. Without it the file is created here or not at all: KeyFileExists."""
    path = Path(path).expanduser()
    if path.is_dir():
        raise KeyFileError(f"{path} is a folder, not a file.")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise KeyFileError(f"The folder of {path} does not exist.")
    try:
        create_file(path, key + "\n", force=force, private=True)
    except FileExistsError:
        raise KeyFileExists(f"{path} appeared meanwhile and is not replaced.") from None
    except OSError as error:
        raise KeyFileError(f"Could not write {path}: {error.strerror or error}.") from None
    return path
