"""The evidence pack's names and manifest: each file's SHA-256 and size, and the manifest's
own digest over its canonical JSON (keys sorted, no spaces, UTF-8) without that field, so
that one line kept apart pins the whole pack."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from console.models.logs import LOG_FIELDS as LOG_FIELDS  # a log line's keys, in this order

FORMAT = "tenant-console/evidence-1"
REVIEW_JSON = "access-review.json"
REVIEW_CSV = "access-review.csv"
CONFIGURATION = "configuration.json"
LOGS = "logs.jsonl"
MANIFEST = "manifest.json"
PACK_FILES = (REVIEW_JSON, REVIEW_CSV, CONFIGURATION, LOGS)
"""The files a pack holds besides its manifest, in the order they are written."""
DIGEST_FIELD = "manifest_sha256"
MAX_MANIFEST_BYTES = 1024 * 1024


class EvidenceRefused(Exception):
    """The pack cannot be written (the folder, a key found in it): one sentence."""


# ---- the period ------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """The logs' period: from `since` (None: the oldest entry archived) to `until`."""

    since: datetime | None
    until: datetime

    def check(self) -> None:
        if self.since is not None and self.since >= self.until:
            raise ValueError("--since must be before --until.")

    def to_json(self) -> dict[str, str | None]:
        return {
            "since": self.since.isoformat() if self.since is not None else None,
            "until": self.until.isoformat(),
        }


# ---- digests and the manifest ----------------------------------------------------------


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical(document: Mapping[str, Any]) -> bytes:
    """The manifest as its digest is computed: keys sorted, no spaces, UTF-8."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def manifest_digest(manifest: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of `manifest` without its own digest."""
    return sha256(canonical({k: v for k, v in manifest.items() if k != DIGEST_FIELD}))


def make_manifest(
    files: Mapping[str, bytes],
    *,
    profile: str | None,
    tenant_id: str | None,
    base_url: str,
    period: Period,
    created_at: datetime,
    logs: Mapping[str, Any],
) -> dict[str, Any]:
    """The manifest of `files`, its own digest last."""
    from console import __version__

    manifest: dict[str, Any] = {
        "format": FORMAT,
        "tool": {"name": "tenant-console", "version": __version__},
        "profile": profile,
        "tenant_id": tenant_id,
        "base_url": base_url,
        "period": period.to_json(),
        "created_at": created_at.isoformat(),
        "logs": dict(logs),
        "files": {
            name: {"sha256": sha256(data), "bytes": len(data)} for name, data in files.items()
        },
    }
    manifest[DIGEST_FIELD] = manifest_digest(manifest)
    return manifest


def manifest_bytes(manifest: Mapping[str, Any]) -> bytes:
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
