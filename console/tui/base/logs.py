"""The console's log file: what went wrong (with tracebacks) where a person can find it.

A TUI cannot print a traceback without breaking its screen, so every exception the console
catches and carries on from is logged here instead. Configured once, by the entry points
(console.tui.start.launch), never on import; tests point it at a temporary directory through
$TENANT_CONSOLE_LOG_DIR. API keys registered with `hide_secret` are masked in every line.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

LOG_DIR_ENV = "TENANT_CONSOLE_LOG_DIR"
LOG_FILE_NAME = "console.log"
MAX_BYTES = 1_000_000
BACKUPS = 3
MASK = "***"
LOGGER_NAME = "console"
"""The parent of "console.tui", "console.client" and the rest: one handler sees them all."""

_secrets: set[str] = set()
_log_file: Path | None = None


def hide_secret(value: str | None) -> None:
    """Masks `value` (an API key) wherever it would appear in the log from now on."""
    if value and len(value) >= 4:  # a shorter "key" would mask ordinary words
        _secrets.add(value)


def scrub(text: str) -> str:
    """`text` with every registered secret replaced by ***, longest first."""
    for secret in sorted(_secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MASK)
    return text


class ScrubbingFormatter(logging.Formatter):
    """Masks keys in the whole formatted record: message, arguments and traceback alike.

    The client never puts a key in a message; this is the defence if something else does.
    """

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


def _create_private(path: str | Path) -> None:
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600))
    os.chmod(path, 0o600)


def _rotate_privately(source: str, dest: str) -> None:
    """The rotation's rename, then a fresh 0600 file in its place (not one made with the
    process's umask when the handler reopens it)."""
    os.replace(source, dest)
    _create_private(source)


def log_dir() -> Path:
    """$TENANT_CONSOLE_LOG_DIR, or the user log directory (platformdirs)."""
    configured = os.environ.get(LOG_DIR_ENV)
    if configured:
        return Path(configured).expanduser()
    from platformdirs import user_log_dir

    return Path(user_log_dir("tenant-console", appauthor=False))


def log_file() -> Path | None:
    """The file the log goes to, once configured (None before: tests, embedding)."""
    return _log_file


def configure_logging(level: int = logging.INFO) -> Path | None:
    """Sends the "console" loggers to a rotating file (dir 0700, file 0600); once per process.

    Returns the file, or None if it cannot be written (the console still runs; nothing of the
    log then reaches the terminal, where it would break the screen).
    """
    global _log_file
    if _log_file is not None:
        return _log_file
    from logging.handlers import RotatingFileHandler

    logger = logging.getLogger(LOGGER_NAME)
    logger.setLevel(level)
    directory = log_dir()
    path = directory / LOG_FILE_NAME
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(directory, 0o700)
        _create_private(path)
        handler = RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8", delay=True
        )
    except OSError:
        logger.addHandler(logging.NullHandler())  # no stderr: it would break the screen
        return None
    handler.rotator = _rotate_privately
    handler.setFormatter(ScrubbingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    _log_file = path
    return path


def stop_logging() -> None:
    """Closes the log file and forgets it (tests; a process that configures it again)."""
    global _log_file
    logger = logging.getLogger(LOGGER_NAME)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    _log_file = None
