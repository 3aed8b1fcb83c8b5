"""Where an evidence pack is written: a folder that is new (made 0700) or empty, each file
created by this run (0600, never over one already there), the manifest last, and nothing of
it left when a write fails; and the last look for the console's key before anything is
written."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from console.evidence.manifest import MANIFEST, EvidenceRefused, manifest_bytes

log = logging.getLogger(__name__)


def prepare_folder(folder: Path) -> bool:
    """Makes `folder` (0700) unless it is there and empty; True when this call made it.
    EvidenceRefused for anything else there (a file, a folder with anything in it)."""
    if os.path.lexists(folder):
        if folder.is_symlink() or not folder.is_dir():
            raise EvidenceRefused(f"{folder} is there and is not a folder.")
        if any(folder.iterdir()):
            raise EvidenceRefused(
                f"{folder} is not empty: an evidence pack goes into a new or empty folder "
                "(nothing already there is ever replaced)."
            )
        return False
    if not folder.parent.is_dir():
        raise EvidenceRefused(f"{folder} is in a folder that does not exist.")
    folder.mkdir(mode=0o700)
    return True


def write_pack(folder: Path, files: Mapping[str, bytes], manifest: Mapping[str, Any]) -> None:
    """Creates each file (0600, exclusively: never one that is already there), the manifest
    last. A failure removes what this call created, and re-raises."""
    from console.files import create_file

    created: list[Path] = []
    try:
        for name, data in (*files.items(), (MANIFEST, manifest_bytes(manifest))):
            path = folder / name
            create_file(path, data, private=True)
            created.append(path)
    except BaseException:
        for path in created:
            try:
                path.unlink()
            except OSError:
                log.warning("Could not remove %s after a failed write", path, exc_info=True)
        raise


def refuse_secrets(files: Mapping[str, bytes], secrets: Iterable[str]) -> None:
    """EvidenceRefused when any file holds any of `secrets` (the console's key): the pack's
    sources never hold one, and this makes sure of it before anything is written."""
    for secret in secrets:
        if not secret or len(secret) < 8:
            continue
        needle = secret.encode("utf-8")
        for name, data in files.items():
            if needle in data:
                raise EvidenceRefused(
                    f"{name} would hold the console's key: nothing was written. "
                    "Please report this as a bug."
                )
