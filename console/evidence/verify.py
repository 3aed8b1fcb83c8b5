"""`review --verify DIR`: an evidence pack checked against its manifest: the manifest's own
digest, each listed file's size and SHA-256, and nothing else in the folder. It needs no
profile, no key and no network."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from console.evidence.manifest import (
    DIGEST_FIELD,
    MANIFEST,
    MAX_MANIFEST_BYTES,
    EvidenceRefused,
    manifest_digest,
    sha256,
)


@dataclass
class Verification:
    """What `review --verify` found: each file changed, missing or extra, and problems with
    the manifest itself (unreadable, its digest not matching)."""

    changed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    checked: list[str] = field(default_factory=list)
    """The files whose digests matched."""
    manifest_sha256: str | None = None

    @property
    def intact(self) -> bool:
        return not (self.changed or self.missing or self.extra or self.problems)

    def to_json(self) -> dict[str, Any]:
        return {
            "intact": self.intact,
            "manifest_sha256": self.manifest_sha256,
            "changed": self.changed,
            "missing": self.missing,
            "extra": self.extra,
            "problems": self.problems,
            "checked": self.checked,
        }


def _plain_name(name: Any) -> bool:
    """A file name the manifest may list: one name in the folder, never a path."""
    return (
        isinstance(name, str)
        and name not in ("", ".", "..", MANIFEST)
        and "/" not in name
        and "\\" not in name
        and not any(ord(c) < 32 or ord(c) == 127 for c in name)
    )


def _listed_files(manifest: Any, found: Verification) -> dict[str, tuple[str, int]] | None:
    """The manifest's files (name -> (sha256, bytes)), or None with the bad field's path."""
    if not isinstance(manifest, dict):
        found.problems.append(f"{MANIFEST}: not a JSON object.")
        return None
    files = manifest.get("files")
    if not isinstance(files, dict):
        found.problems.append(f"{MANIFEST}: files: not an object of files.")
        return None
    listed: dict[str, tuple[str, int]] = {}
    for name, about in files.items():
        if not _plain_name(name):
            found.problems.append(f"{MANIFEST}: files: {name!r} is not a file name in the folder.")
            return None
        digest = about.get("sha256") if isinstance(about, dict) else None
        size = about.get("bytes") if isinstance(about, dict) else None
        if not isinstance(digest, str) or not re.fullmatch(r"[0-9a-f]{64}", digest):
            found.problems.append(f"{MANIFEST}: files.{name}.sha256: not a SHA-256 digest.")
            return None
        if type(size) is not int or size < 0:
            found.problems.append(f"{MANIFEST}: files.{name}.bytes: not a size.")
            return None
        listed[name] = (digest, size)
    return listed


def verify_pack(folder: Path) -> Verification:
    """Checks the pack in `folder` against its manifest: the manifest's own digest, each
    listed file's size and SHA-256, and nothing else in the folder."""
    found = Verification()
    if not folder.is_dir():
        found.problems.append(f"{folder} is not a folder.")
        return found
    manifest_path = folder / MANIFEST
    if manifest_path.is_symlink() or not manifest_path.is_file():
        found.missing.append(MANIFEST)
        found.problems.append(f"Without {MANIFEST} nothing in the folder can be checked.")
        return found
    from console.files import read_small_file

    try:
        raw = read_small_file(manifest_path, MAX_MANIFEST_BYTES, EvidenceRefused)
        manifest = json.loads(raw.decode("utf-8"))
    except (EvidenceRefused, UnicodeDecodeError, ValueError) as error:
        found.problems.append(f"{MANIFEST}: cannot be read ({error}).")
        return found
    listed = _listed_files(manifest, found)
    if listed is None:
        return found
    stated = manifest.get(DIGEST_FIELD)
    found.manifest_sha256 = stated if isinstance(stated, str) else None
    if stated != manifest_digest(manifest):
        found.changed.append(MANIFEST)
    for name, (digest, size) in sorted(listed.items()):
        path = folder / name
        if not os.path.lexists(path):
            found.missing.append(name)
            continue
        if path.is_symlink() or not path.is_file():
            found.changed.append(name)
            continue
        data = path.read_bytes()
        if len(data) != size or sha256(data) != digest:
            found.changed.append(name)
        else:
            found.checked.append(name)
    for entry in sorted(os.listdir(folder)):
        if entry != MANIFEST and entry not in listed:
            found.extra.append(entry)
    return found
