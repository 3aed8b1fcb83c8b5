"""Runs console commands with standard output a pipe whose reader is already gone, each in a
child forked from this one interpreter, which has imported the console once: a row costs a
fork, not a fresh interpreter (about a second of CPU a row).

`python closed_output_driver.py` reads a JSON list of `{"argv": [...], "buffered": bool}` on
standard input and writes a JSON list of `[exit status, stderr]` on standard output. The child
does what `python -m console` does (console/__main__.py) with the stream set up as Python sets
it up for a pipe (block-buffered, or written through under PYTHONUNBUFFERED), then what the
interpreter does at exit: a last flush, a failure of which Python reports as "Exception
ignored" and status 120.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
import traceback


def _preload() -> None:
    """Every command's module (the console's own screens aside), imported before the forks:
    each child inherits them instead of importing them again."""
    import importlib

    from console.cli import HANDLERS

    for handler in HANDLERS.values():
        module = handler.partition(":")[0]
        if not module.startswith("console.tui"):
            importlib.import_module(module)


def _child(argv: list[str], buffered: bool, stderr_fd: int) -> int:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the command writes
    os.dup2(write_end, 1)
    os.close(write_end)
    os.dup2(stderr_fd, 2)
    sys.stdout = io.TextIOWrapper(
        open(1, "wb", buffering=-1 if buffered else 0, closefd=False),  # noqa: SIM115
        encoding="utf-8",
        write_through=not buffered,
    )
    sys.stderr = io.TextIOWrapper(
        open(2, "wb", buffering=0, closefd=False),  # noqa: SIM115
        encoding="utf-8",
        write_through=True,
    )
    from console.cli import main

    try:
        status = main(argv)
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        traceback.print_exc()
        return 1
    try:  # the interpreter's own last flush at exit
        sys.stdout.flush()
    except BaseException:
        sys.stderr.write("Exception ignored while flushing sys.stdout:\n")
        traceback.print_exc()
        return 120
    return status


def run(rows: list[dict[str, object]]) -> list[list[object]]:
    results: list[list[object]] = []
    for row in rows:
        argv = [str(arg) for arg in row["argv"]]  # type: ignore[attr-defined]
        with tempfile.TemporaryFile() as errors:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                status = 1
                try:
                    status = _child(argv, bool(row["buffered"]), errors.fileno())
                finally:
                    os._exit(status)
            _, wait_status = os.waitpid(pid, 0)
            errors.seek(0)
            text = errors.read().decode(errors="replace")
        results.append([os.waitstatus_to_exitcode(wait_status), text])
    return results


if __name__ == "__main__":
    _preload()
    requested = json.load(sys.stdin)
    json.dump(run(requested), sys.stdout)
