"""Resident memory of this process, from /proc (psutil is not a dependency)."""

from __future__ import annotations

import resource
from pathlib import Path


def rss_kb() -> int:
    """Current resident set size in KiB (peak, from getrusage, where /proc is missing)."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
