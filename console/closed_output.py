"""A command whose output's reader went away (`tenant-console search x | head -1`).

Python ignores SIGPIPE, so writing to a pipe nobody reads raises BrokenPipeError wherever the
command happens to print. The entry point (console.cli.main) catches it once for every
command: if it was standard output's (or standard error's) reader that went away, the command
ends quietly with the status a shell gives a process a closed pipe ended; any other broken
pipe is a fault and keeps its traceback.
"""

from __future__ import annotations

import os
import sys

READER_GONE = 141
"""The exit status of a command whose reader went away: 128 + SIGPIPE, as a shell reports
`yes | head -1`'s `yes`."""


def _gone(fd: int) -> bool:
    """Whether `fd` is a pipe or socket whose other end is closed (poll says so at once)."""
    import select

    if not hasattr(select, "poll"):  # no poll (Windows): the pipe error itself is the answer
        return True
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    try:
        events = poller.poll(0)
    except OSError:
        return False
    return any(mask & (select.POLLERR | select.POLLHUP) for _, mask in events)


def output_reader_gone() -> bool:
    """Whether standard output's or standard error's reader went away. Each one that did is
    pointed at the null device, so that nothing (the interpreter's last flush, a logging
    handler) tries to write to it again and reports a second BrokenPipeError."""
    found = False
    for stream, fd in ((sys.stdout, 1), (sys.stderr, 2)):
        try:
            if stream is None or stream.fileno() != fd or not _gone(fd):
                continue
        except (AttributeError, OSError, ValueError):  # replaced by an object with no file
            continue
        found = True
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, fd)
        finally:
            os.close(null)
    return found
