"""The user data directory: the console's own working data (test-run samples, usage
history), not configuration. $TENANT_CONSOLE_DATA_DIR moves it, as tests do.

Imports nothing heavy: the usage recorder and the runner both find their files here."""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_ENV = "TENANT_CONSOLE_DATA_DIR"


def data_dir() -> Path:
    """$TENANT_CONSOLE_DATA_DIR, or the user data directory (platformdirs)."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    from platformdirs import user_data_dir

    return Path(user_data_dir("tenant-console", appauthor=False))
