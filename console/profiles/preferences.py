"""The console's preferences (theme, usage auto-refresh, how long the log archive keeps
entries): `preferences.toml` beside the
profiles file, written the same way (atomically, mode 0600). Never a key.

Preferences are a convenience: a damaged or unreadable file means the defaults (logged),
never a console that does not start.
"""

from __future__ import annotations

import logging
import tomllib
from dataclasses import dataclass
from pathlib import Path

from console.profiles.config import _toml_string, _write_atomically, config_dir

PREFERENCES_FILE_NAME = "preferences.toml"
DEFAULT_ARCHIVE_RETENTION_DAYS = 400
"""Days the log archive (console.audit) keeps an entry: over a year, for an annual review."""
MAX_ARCHIVE_RETENTION_DAYS = 36_500

log = logging.getLogger(__name__)


@dataclass
class Preferences:
    theme: str | None = None
    """The Textual theme's name."""
    usage_auto_refresh: int | None = None
    """Seconds between automatic refreshes of the usage report; None for off."""
    archive_retention_days: int = DEFAULT_ARCHIVE_RETENTION_DAYS
    """Days each profile's log archive keeps an entry (pruned after each sync)."""


def preferences_path() -> Path:
    return config_dir() / PREFERENCES_FILE_NAME


def load_preferences(path: Path | None = None) -> Preferences:
    """The saved preferences; the defaults when there are none or the file cannot be used."""
    path = path or preferences_path()
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Preferences()
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        log.warning("Ignoring the preferences file %s", path, exc_info=True)
        return Preferences()
    theme = document.get("theme")
    seconds = document.get("usage_auto_refresh")
    days = document.get("archive_retention_days", DEFAULT_ARCHIVE_RETENTION_DAYS)
    if type(days) is not int or not 1 <= days <= MAX_ARCHIVE_RETENTION_DAYS:
        log.warning(
            "Ignoring archive_retention_days = %r in %s: a whole number of days, 1 to %d",
            days,
            path,
            MAX_ARCHIVE_RETENTION_DAYS,
        )
        days = DEFAULT_ARCHIVE_RETENTION_DAYS
    return Preferences(
        theme=theme if isinstance(theme, str) and theme else None,
        usage_auto_refresh=seconds if isinstance(seconds, int) and seconds > 0 else None,
        archive_retention_days=days,
    )


def save_preferences(preferences: Preferences, path: Path | None = None) -> None:
    """Writes the preferences atomically, mode 0600 (OSError if it cannot)."""
    lines = ["# tenant-console preferences, written by the console."]
    if preferences.theme:
        lines.append(f"theme = {_toml_string(preferences.theme)}")
    lines.append(f"usage_auto_refresh = {preferences.usage_auto_refresh or 0}  # seconds, 0: off")
    days = preferences.archive_retention_days
    lines.append(f"archive_retention_days = {days}  # the log archive keeps entries this long")
    _write_atomically(path or preferences_path(), "\n".join(lines) + "\n")
