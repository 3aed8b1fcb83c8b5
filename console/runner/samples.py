"""Sample requests of test-runs, kept per object in the user data directory (`test-runs/`
there; $TENANT_CONSOLE_DATA_DIR moves it, as tests do), so the next run of the same formula
or transform starts from the last one. Never sent anywhere.

A sample is a convenience: one that cannot be read or written is logged and forgotten.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from console.data_dir import data_dir
from console.profiles.config import _write_atomically

SAMPLES_DIR_NAME = "test-runs"
MAX_SAMPLE_BYTES = 1_000_000

log = logging.getLogger(__name__)


__all__ = ["load_sample", "sample_path", "save_sample"]


def sample_path(key: str) -> Path:
    """The file of one object's sample; the key is made safe as a file name."""
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", key).strip("._") or "sample"
    return data_dir() / SAMPLES_DIR_NAME / f"{safe}.json"


def load_sample(key: str) -> str | None:
    """The sample text last run for this object, or None."""
    path = sample_path(key)
    try:
        if path.stat().st_size > MAX_SAMPLE_BYTES:
            return None
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        log.warning("Ignoring the test-run sample %s", path, exc_info=True)
        return None


def save_sample(key: str, text: str) -> None:
    """Keeps the sample (atomically, mode 0600); a failure is logged, never raised."""
    try:
        _write_atomically(sample_path(key), text if text.endswith("\n") else text + "\n")
    except OSError:
        log.warning("Could not keep the test-run sample for %s", key, exc_info=True)
