"""Reading a file a person named in the console, with errors they can act on."""

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
