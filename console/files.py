"""Reading a file a person named (an icon, a code file), with errors they can act on.

Used by the console and the command line alike (nothing here imports Textual)."""

from __future__ import annotations

from pathlib import Path


def read_small_file(path: Path, max_bytes: int, error: type[Exception]) -> bytes:
    """The file's bytes; `error(sentence)` if it is missing, a folder, unreadable or too big."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            limit = f"files over {max_bytes:,} bytes are refused"
            raise error(f"{path.name} is {size:,} bytes; {limit}.")
        return path.read_bytes()
    except FileNotFoundError:
        raise error(f"There is no file at {path}.") from None
    except IsADirectoryError:
        raise error(f"{path} is a folder, not a file.") from None
    except PermissionError:
        raise error(f"No permission to read {path}.") from None
    except OSError as problem:
        raise error(f"Could not read {path}: {problem.strerror or problem}.") from None


def read_text_file(path: Path, max_bytes: int, error: type[Exception]) -> str:
    """The file's UTF-8 text (a BOM dropped); `error(sentence)` as read_small_file, or when
    it is not UTF-8."""
    data = read_small_file(path, max_bytes, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise error(f"{path} is not UTF-8 text (invalid byte at offset {problem.start}).") from None
